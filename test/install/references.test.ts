import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/process';

/**
 * Every reference in the code, the tests and the docs resolves inside the repository (issue 29): no
 * citation of a design or specification document kept elsewhere, and every `docs/design.md "X"`,
 * `README "X"` or `BASELINE "X"` names a section that exists in that file.
 */

/** What is read: the sources, tests, scripts and docs a reader of the repository meets. */
const ROOTS = [
  'src',
  'rest',
  'jobs',
  'test',
  'bench',
  'prisma',
  'scripts',
  'dashboard/src',
  'dashboard/scripts',
  'docs',
];
const FILES = ['README.md', '.env.example', '.ci/run'];
const EXTENSIONS = /\.(ts|tsx|js|mjs|cjs|md|prisma|sql|css|html)$/;
/** Not ours to edit or not written by hand: installed and built files, and generated code. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated']);
const SKIPPED = new Set([
  // Generated from schema.graphql, whose descriptions are published (below).
  'dashboard/src/graphql-env.d.ts',
  // Holds the patterns it looks for.
  'test/install/references.test.ts',
]);
/**
 * Applied migrations are history: editing one changes its checksum, which `db:migrate` reports on
 * every database that applied it.
 */
const FROZEN = /^prisma\/migrations\//;
/**
 * Descriptions published in schema.graphql (and so in every client's generated types), which issue
 * 29 keeps byte for byte; they change with the API's documents, not with a comment.
 */
const PUBLISHED_IN_SCHEMA = [
  'Page position and totals of a list (spec 2.6)',
  'A granted resource and its actions (spec 2.2)',
  'A delivery log entry (spec 2.4): one event to one endpoint, updated on each attempt',
];

/** Citations of documents outside the repository. */
const OUTSIDE: { name: string; pattern: RegExp }[] = [
  { name: 'DESIGN', pattern: /\bDESIGN\b/ },
  { name: '§', pattern: /§/ },
  { name: 'a numbered section of the specification', pattern: /\bspec(?:ification)?\.?\s+§?\d+(?:\.\d+)*/i },
  { name: 'the specification', pattern: /\bthe spec\b|\bspec's\b/i },
  { name: 'a file under shared/', pattern: /\bshared\// },
  { name: 'a specification file', pattern: /\bspec\/[\w./-]+\.md\b|\bcommerce-api\.md\b/ },
];

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(relative, out);
    } else if (EXTENSIONS.test(entry.name) && !SKIPPED.has(relative) && !FROZEN.test(relative)) {
      out.push(relative);
    }
  }
}

function readFiles(): { file: string; text: string }[] {
  const files: string[] = [...FILES];
  for (const dir of ROOTS) walk(dir, files);
  return files.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));
}

/** Each line that cites a document outside the repository, with what it cites. */
function outsideCitations(text: string): { line: number; cites: string; text: string }[] {
  const found: { line: number; cites: string; text: string }[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = PUBLISHED_IN_SCHEMA.reduce((rest, allowed) => rest.split(allowed).join(''), raw);
    for (const { name, pattern } of OUTSIDE) {
      if (pattern.test(line)) found.push({ line: index + 1, cites: name, text: raw.trim() });
    }
  });
  return found;
}

type Document = 'docs/design.md' | 'README.md' | 'bench/BASELINE.md';

/**
 * The sections cited by name: `docs/design.md "Webhooks"`, `README "Read cache"`,
 * `bench/BASELINE.md, "CLI start"`, and lists such as `docs/design.md "Rate limit" and "API keys"`.
 * A comment's line breaks and continuation marks (` * `, `//`) are read as spaces.
 */
function sectionCitations(text: string): { document: Document; section: string }[] {
  const flat = text.replace(/\s*\n\s*(?:\*(?!\*)|\/\/|--|#(?!#))?\s*/g, ' ');
  const citation =
    /\b(docs\/design|README|(?:bench\/)?BASELINE)(?:\.md)?`?(?:\]\([^)]*\))?,?\s+"([^"\n]+)"((?:(?:,\s*|\s+and\s+)"[^"\n]+")*)/g;
  const found: { document: Document; section: string }[] = [];
  for (const match of flat.matchAll(citation)) {
    const document: Document =
      match[1] === 'docs/design'
        ? 'docs/design.md'
        : match[1] === 'README'
          ? 'README.md'
          : 'bench/BASELINE.md';
    const more = [...(match[3] ?? '').matchAll(/"([^"\n]+)"/g)].map((m) => m[1]!);
    for (const section of [match[2]!, ...more]) found.push({ document, section });
  }
  return found;
}

/** The names a document's sections go by. */
function sectionsOf(document: Document): (cited: string) => boolean {
  const text = readFileSync(path.join(root, document), 'utf8');
  const headings = [...text.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)].map((m) => m[1]!);
  if (document === 'docs/design.md') return (cited) => headings.includes(cited);
  // BASELINE's headings carry their date: "CLI start (2026-11-24)".
  if (document === 'bench/BASELINE.md')
    return (cited) => headings.some((heading) => heading.startsWith(cited));
  // README also names the parts of its long sections with a bold label that opens a list item or a
  // paragraph: "* **Read cache** (…)", "**Browser writes.** …".
  const labels = [...text.matchAll(/^\s*(?:[*-]\s+|\d+\.\s+)?\*\*([^*\n]+?)\.?\*\*/gm)].map((m) => m[1]!);
  return (cited) => headings.includes(cited) || labels.includes(cited);
}

const files = readFiles();

it('finds files to read', () => {
  expect(files.length).toBeGreaterThan(300);
  expect(files.map((f) => f.file)).toEqual(
    expect.arrayContaining(['README.md', 'docs/design.md', 'src/errors.ts']),
  );
});

it('cites no document kept outside the repository', () => {
  const found = files.flatMap(({ file, text }) =>
    outsideCitations(text).map(({ line, cites, text }) => `${file}:${line} cites ${cites}: ${text}`),
  );
  expect(found).toEqual([]);
});

it('cites only sections that exist', () => {
  const has = {
    'docs/design.md': sectionsOf('docs/design.md'),
    'README.md': sectionsOf('README.md'),
    'bench/BASELINE.md': sectionsOf('bench/BASELINE.md'),
  };
  const cited = files.flatMap(({ file, text }) =>
    sectionCitations(text).map((citation) => ({ file, ...citation })),
  );
  expect(cited.length).toBeGreaterThan(50);
  const missing = cited
    .filter(({ document, section }) => !has[document](section))
    .map(
      ({ file, document, section }) => `${file} cites ${document} "${section}", which has no such section`,
    );
  expect(missing).toEqual([]);
});

describe('the check itself', () => {
  it.each([
    ['/** DESIGN "Webhooks": the event catalog. */', 'DESIGN'],
    ['// Spec §4.3: an API key is required', '§'],
    ["it('lists categories in the spec 2.6 envelope', …)", 'a numbered section of the specification'],
    ['/** Spec 6.2: at most 8 attempts */', 'a numbered section of the specification'],
    ["the result becomes the spec's envelope", 'the specification'],
    ['The specification is `../shared/spec/commerce-api.md`.', 'a file under shared/'],
    ['/** The dashboard (spec/dashboard.md) at `/`. */', 'a specification file'],
  ])('flags %s', (line, cites) => {
    expect(outsideCitations(line).map((found) => found.cites)).toContain(cites);
  });

  it('leaves the schema descriptions published as they are, and code that names a variable spec', () => {
    expect(outsideCitations(`  description: '${PUBLISHED_IN_SCHEMA[0]}',`)).toEqual([]);
    expect(
      outsideCitations('export function listRoute(spec: { path: string }) { return spec.path; }'),
    ).toEqual([]);
  });

  it('reads a citation across a comment’s lines, and a list of sections', () => {
    const comment =
      '/**\n * one script (docs/design.md "Rate limit" and "API keys"), see bench/BASELINE.md, "CLI\n * start".\n */';
    expect(sectionCitations(comment)).toEqual([
      { document: 'docs/design.md', section: 'Rate limit' },
      { document: 'docs/design.md', section: 'API keys' },
      { document: 'bench/BASELINE.md', section: 'CLI start' },
    ]);
    expect(sectionCitations('[README "Rate limit"](../README.md#using-the-api)')).toEqual([
      { document: 'README.md', section: 'Rate limit' },
    ]);
  });

  it('knows a section that does not exist', () => {
    expect(sectionsOf('docs/design.md')('Webhooks')).toBe(true);
    expect(sectionsOf('docs/design.md')('Web hooks')).toBe(false);
    expect(sectionsOf('README.md')('Read cache')).toBe(true);
    expect(sectionsOf('README.md')('Install')).toBe(false);
  });
});
