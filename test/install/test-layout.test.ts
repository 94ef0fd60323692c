import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/process';

/**
 * README "Test": tests are arranged by what they test, as the source is. A folder of test/ is named
 * after a domain (src/modules/<domain>), a part of the source (src/<part>, rest/, jobs/, prisma/seed),
 * or is one of the folders for tests of the whole service; anything else is a test in no one's room.
 */
const WHOLE_SERVICE = [
  'matrix',
  'fuzz',
  'e2e',
  'resilience',
  'scale',
  'concurrency',
  'dashboard',
  'install',
  'queries',
];
const SUPPORT = ['helpers', 'fixtures'];

function sourceOf(folder: string): string | undefined {
  const candidates = [
    `src/modules/${folder}`,
    `src/${folder}`,
    `src/${folder}.ts`,
    folder === 'rest' ? 'rest' : '',
    folder === 'jobs' ? 'jobs' : '',
    folder === 'seed' ? 'prisma/seed' : '',
  ].filter(Boolean);
  return candidates.find((candidate) => existsSync(path.join(root, candidate)));
}

const folders = readdirSync(path.join(root, 'test'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

it('puts every test in the folder of what it tests', () => {
  const homeless = folders.filter(
    (folder) => !WHOLE_SERVICE.includes(folder) && !SUPPORT.includes(folder) && !sourceOf(folder),
  );
  expect(homeless).toEqual([]);
});

it('leaves no test loose at the top of test/', () => {
  const loose = readdirSync(path.join(root, 'test')).filter((name) => name.endsWith('.test.ts'));
  expect(loose).toEqual([]);
});

it('states the rule and the whole-service folders in the README', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const rule = readme.slice(readme.indexOf('**Where a test goes.**'));
  expect(rule).toMatch(/^\*\*Where a test goes\.\*\* Tests are arranged by what they test/);
  const paragraph = rule.slice(0, rule.indexOf('\n\n'));
  for (const folder of WHOLE_SERVICE) expect(paragraph).toContain(`\`test/${folder}/\``);
});
