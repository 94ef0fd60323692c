import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { root } from '../helpers/process';

/**
 * The house's floors (README "Architecture"): taking each folder of src/ (and each file at its top),
 * rest/, jobs/, prisma/seed/ and scripts/ as one room, no room imports another that imports it back,
 * through any path. A loop of rooms is an import that runs back up a floor, even where no file-level
 * cycle exists (test/install/import-cycles.test.ts checks those).
 */
const SOURCES = ['src', 'rest', 'jobs', 'prisma/seed'];

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(root, relative)).isDirectory()) return filesUnder(relative);
    return /\.(ts|mts|js|mjs)$/.test(name) ? [relative] : [];
  });
}

function roomOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : file;
  if (parts[0] === 'prisma') return 'prisma/seed';
  return parts[0] as string;
}

function resolve(from: string, specifier: string): string | undefined {
  const base = path.normalize(path.join(path.dirname(from), specifier));
  return ['', '.ts', '.mts', '.js', '/index.ts']
    .map((ext) => base + ext)
    .find((candidate) => {
      try {
        return statSync(path.join(root, candidate)).isFile();
      } catch {
        return false;
      }
    });
}

/** room → rooms it imports, with one import naming each arrow. */
function roomGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of SOURCES.flatMap(filesUnder)) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import|require\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(file, specifier as string);
      if (!target || target.startsWith('prisma/generated')) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from === to) continue;
      const arrows = graph.get(from) ?? new Map<string, string>();
      if (!arrows.has(to)) arrows.set(to, `${file} imports ${target}`);
      graph.set(from, arrows);
    }
  }
  return graph;
}

/** A path of rooms that leads back to its start, or null. */
function loopIn(graph: Map<string, Map<string, string>>): string[] | null {
  const done = new Set<string>();
  const visit = (room: string, trail: string[]): string[] | null => {
    const at = trail.indexOf(room);
    if (at >= 0) return [...trail.slice(at), room];
    if (done.has(room)) return null;
    for (const next of graph.get(room)?.keys() ?? []) {
      const loop = visit(next, [...trail, room]);
      if (loop) return loop;
    }
    done.add(room);
    return null;
  };
  for (const room of graph.keys()) {
    const loop = visit(room, []);
    if (loop) return loop;
  }
  return null;
}

it('has no loop of rooms: every import runs down a floor', () => {
  const graph = roomGraph();
  const loop = loopIn(graph);
  const arrows = loop?.slice(1).map((room, i) => graph.get(loop[i] as string)?.get(room));
  expect(arrows ?? []).toEqual([]);
});

it('tells a loop when there is one', () => {
  const graph = new Map([
    ['a', new Map([['b', 'a imports b']])],
    ['b', new Map([['a', 'b imports a']])],
  ]);
  expect(loopIn(graph)).toEqual(['a', 'b', 'a']);
});
