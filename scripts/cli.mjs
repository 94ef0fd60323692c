#!/usr/bin/env node
// `npm run cli`: the admin CLI from the compiled build when it is as new as every source file
// (`npm start` and `npm run build` make it), else from the sources through tsx. The build starts
// in ~0.7 s, tsx in ~1.4 s (bench/BASELINE.md, "CLI start").
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// The build's inputs (tsconfig.build.json's include) and its configuration.
const sources = [
  'src',
  'rest',
  'jobs',
  'prisma/generated',
  'prisma/seed',
  'tsconfig.json',
  'tsconfig.build.json',
];
const built = path.join(root, 'dist', 'src', 'cli', 'index.js');

function newest(file) {
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

const builtAt = statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const fresh = builtAt > 0 && sources.every((source) => newest(path.join(root, source)) <= builtAt);
const args = fresh
  ? [built, ...process.argv.slice(2)]
  : ['--import', 'tsx', path.join(root, 'src', 'cli', 'index.ts'), ...process.argv.slice(2)];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
