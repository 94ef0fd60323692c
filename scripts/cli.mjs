#!/usr/bin/env node
// `npm run cli`: the admin CLI from the compiled build when it is as new as every source file
// (`npm ci` and `npm run build` make it), else from the sources through tsx. The build starts
// sooner, as tsx compiles the sources on every start (bench/BASELINE.md, "CLI start").
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildState, root } from './build-state.mjs';

const built = path.join(root, 'dist', 'src', 'cli', 'index.js');
const args =
  buildState(built) === 'fresh'
    ? [built, ...process.argv.slice(2)]
    : ['--import', 'tsx', path.join(root, 'src', 'cli', 'index.ts'), ...process.argv.slice(2)];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
