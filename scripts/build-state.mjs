// Whether dist/ holds a build of the current sources: `npm start` runs only such a build (it never
// writes dist/; `npm ci` and `npm run build` make it), and `npm run cli` prefers it to tsx.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The build's inputs (tsconfig.build.json's include) and its configuration. */
const SOURCES = [
  'src',
  'rest',
  'jobs',
  'prisma/generated',
  'prisma/seed',
  'tsconfig.json',
  'tsconfig.build.json',
];

function newest(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

/** 'fresh', 'missing', or 'stale' (a source is newer than `built`, a file of the build). */
export function buildState(built) {
  const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs;
  if (builtAt === undefined) return 'missing';
  return SOURCES.every((source) => newest(path.join(root, source)) <= builtAt) ? 'fresh' : 'stale';
}
