import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DASHBOARD_DIR } from '../../src/http/dashboard';
import { startTestServer, type TestServer } from '../helpers/server';

/** The dashboard as the server serves it (docs/design.md "The dashboard", where it lives), and its size budget. */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const html = { headers: { accept: 'text/html,application/xhtml+xml' } };

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  css?: string[];
}
const manifest = (): Record<string, ManifestChunk> =>
  JSON.parse(readFileSync(path.join(DASHBOARD_DIR, '.vite', 'manifest.json'), 'utf8'));

describe('serving the dashboard', () => {
  it('answers / and deep links with the app, under a strict content security policy', async () => {
    for (const url of ['/', '/keys', `/webhooks/whe_123/deliveries/msg_456`, '/sign-in']) {
      const res = await server.request(url, html);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('serves hashed assets for a year, and refers to nothing outside the server', async () => {
    const index = await (await server.request('/', html)).text();
    const assets = [...index.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/assets\//);
      const res = await server.request(asset);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toContain('immutable');
    }
    const entry = Object.values(manifest()).find((chunk) => chunk.isEntry) as ManifestChunk;
    const code = readFileSync(path.join(DASHBOARD_DIR, entry.file), 'utf8');
    expect(code).not.toMatch(/https?:\/\/(fonts\.googleapis|cdn\.|unpkg|jsdelivr)/);
  });

  it('leaves the API its JSON: unknown API paths, JSON requests and missing files are the JSON 404', async () => {
    for (const [url, init] of [
      ['/api/v1/no-such-route', html],
      ['/no-such-page', { headers: { accept: 'application/json' } }],
      ['/assets/missing-123.js', html],
    ] as const) {
      const res = await server.request(url, init);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
  });
});

it('keeps the initial JavaScript (the entry and its static imports, not the lazy pages) within 250 kB gzipped', () => {
  const chunks = manifest();
  // What the browser loads before the first page: the entry and what it imports statically. The pages
  // are lazy (dashboard/src/lazy-page.ts): chunks of their own, loaded when first opened.
  const initial = new Set<string>();
  const visit = (name: string) => {
    const chunk = chunks[name];
    if (!chunk || initial.has(chunk.file)) return;
    initial.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [name, chunk] of Object.entries(chunks)) if (chunk.isEntry) visit(name);
  const gzipped = [...initial]
    .filter((file) => file.endsWith('.js'))
    .reduce((sum, file) => sum + gzipSync(readFileSync(path.join(DASHBOARD_DIR, file))).length, 0);
  console.log(
    `dashboard: initial JavaScript ${(gzipped / 1024).toFixed(1)} kB gzipped (${initial.size} files)`,
  );
  expect(gzipped).toBeGreaterThan(10_000);
  expect(gzipped).toBeLessThanOrEqual(250 * 1024);
  const lazy = Object.values(chunks).filter((chunk) => chunk.isDynamicEntry);
  expect(lazy.map((chunk) => chunk.file)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^assets\/(products|orders|keys)-/)]),
  );
  expect(lazy.filter((chunk) => initial.has(chunk.file))).toEqual([]);
});
