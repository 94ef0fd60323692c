#!/usr/bin/env node
// Builds the store dashboard into dashboard/dist, which the server serves at `/`: first the schema's
// types for the pages' GraphQL documents (dashboard/scripts/graphql-env.mjs), then Vite. Run by
// `npm install`/`npm ci` (postinstall), `npm run build` and `npm test`.
// Without Vite (an install with --omit=dev) it says so and leaves the dashboard unbuilt: the API
// still serves, and `/` explains how to build the dashboard.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
try {
  require.resolve('vite');
} catch {
  console.warn('dashboard: Vite is not installed (dev dependencies omitted?); the dashboard is not built');
  process.exit(0);
}
const started = Date.now();
await import('../dashboard/scripts/graphql-env.mjs');
const { build } = await import('vite');
await build({ configFile: path.join(root, 'dashboard', 'vite.config.mts'), logLevel: 'warn' });
console.log(`dashboard: built into dashboard/dist in ${Date.now() - started} ms`);
