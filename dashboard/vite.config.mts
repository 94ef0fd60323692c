import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The store dashboard: built into dashboard/dist, which the API serves at `/`. In development run
 * `npm run dev:dashboard` beside the API (`npm run dev`): Vite serves the app on :5173 and passes the
 * API's paths to :3000, so the session cookie stays first-party.
 */
const here = import.meta.dirname;
const api = process.env.DASHBOARD_API ?? 'http://localhost:3000';

export default defineConfig({
  root: here,
  base: '/',
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      onwarn(warning, warn) {
        // Radix marks its modules "use client" for React Server Components; a client bundle has no use for it.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/graphql': api },
  },
});
