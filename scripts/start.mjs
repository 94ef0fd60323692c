#!/usr/bin/env node
// `npm start`, `npm run start:api`, `npm run start:worker`: run the build in dist/, in this process,
// and never write it (build once: `npm ci` builds, and `npm run build` after a change). A build
// that is missing or older than the sources is refused in one line; `npm run dev` runs the sources.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildState, root } from './build-state.mjs';

const main = path.join(root, 'dist', 'src', 'main.js');
const state = buildState(main);
if (state !== 'fresh' && process.env.ALLOW_STALE_BUILD !== 'true') {
  process.stderr.write(
    state === 'missing'
      ? 'Error: There is no build in dist/: run `npm run build` (npm ci does too), or `npm run dev` to run the sources\n'
      : 'Error: The build in dist/ is older than the sources: run `npm run build`, or `npm run dev` to run the sources (ALLOW_STALE_BUILD=true runs it anyway)\n',
  );
  process.exit(1);
}
await import(pathToFileURL(main).href);
