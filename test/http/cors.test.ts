import { loadConfig } from '../../src/config';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * README "Browsers and CORS": one allowlist (CORS_ORIGINS) for all three doors. A listed origin gets
 * the CORS headers with credentials; an unlisted one none at all, and its preflight a coded 403.
 */

const LISTED = 'https://shop.example';
const UNLISTED = 'https://evil.example';
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ CORS_ORIGINS: `${LISTED}, http://localhost:5173/` });
  ({ key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const doors = [
  { name: '/graphql', path: '/graphql', method: 'POST' },
  { name: '/api/v1', path: '/api/v1/category', method: 'GET' },
  { name: '/mcp', path: '/mcp', method: 'POST' },
] as const;

const preflight = (path: string, origin: string, method: string) =>
  server.request(path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'tt-api-key, content-type, idempotency-key',
    },
  });

describe.each(doors)('$name', ({ path, method }) => {
  it('a preflight from a listed origin: 204 with the methods and the headers the API reads', async () => {
    const res = await preflight(path, LISTED, method);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')?.split(',')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
    );
    expect(res.headers.get('access-control-allow-headers')?.split(',')).toEqual(
      expect.arrayContaining(['tt-api-key', 'authorization', 'content-type', 'idempotency-key']),
    );
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('a preflight from an unlisted origin: 403 ORIGIN_NOT_ALLOWED and no CORS header at all', async () => {
    const res = await preflight(path, UNLISTED, method);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    for (const [name] of res.headers) expect(name).not.toMatch(/^access-control-/);
  });

  it('a request from a listed origin exposes the request id and the rate-limit headers', async () => {
    const res = await server.request(path, {
      method,
      key,
      headers: { origin: LISTED, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify({ query: '{ __typename }' }) } : {}),
    });
    expect(res.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Remaining', 'RateLimit', 'Retry-After']),
    );
  });

  it('a request from an unlisted origin is answered without any CORS header (the browser keeps it from the page)', async () => {
    const res = await server.request(path, {
      method,
      key,
      headers: { origin: UNLISTED, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: JSON.stringify({ query: '{ __typename }' }) } : {}),
    });
    for (const [name] of res.headers) expect(name).not.toMatch(/^access-control-/);
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });
});

it('an origin listed with a trailing slash is the same origin', async () => {
  const res = await preflight('/graphql', 'http://localhost:5173', 'POST');
  expect(res.status).toBe(204);
});

describe('CORS_ORIGINS defaults', () => {
  it('in development: the service itself and the dashboard dev server; in production and tests: none', () => {
    expect(loadConfig({ NODE_ENV: 'development', PORT: '3000' }).corsOrigins).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://localhost:5173',
    ]);
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://app@db.internal:5432/commerce',
      WEBHOOK_SECRET_KEY: 'a'.repeat(64),
    };
    expect(loadConfig(production).corsOrigins).toEqual([]);
    expect(loadConfig({ NODE_ENV: 'test' }).corsOrigins).toEqual([]);
  });

  it('refuses a value that is not an origin, naming it', () => {
    expect(() => loadConfig({ CORS_ORIGINS: 'https://shop.example/path' })).toThrow(
      /CORS_ORIGINS: "https:\/\/shop.example\/path" is not an origin/,
    );
  });
});
