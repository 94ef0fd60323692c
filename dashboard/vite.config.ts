import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * The store dashboard: built into dashboard/dist, which the API serves at `/`. In development run
 * `npm run dev:dashboard` beside the API (`npm start`): Vite serves the app on :5173 and passes the
 * API's paths to :3000, so the session cookie is first-party.
 */
const api = process.env.DASHBOARD_API ?? 'http://localhost:3000';

export default defineConfig({
  root: __dirname,
  base: '/',
  build: {
    outDir: path.join(__dirname, 'dist'),
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: { '/api': api, '/graphql': api },
  },
});
