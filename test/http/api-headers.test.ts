import { Socket } from 'node:net';
import { createStaffUser } from '../../src/modules/stores/provision';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 28 item 5: every answer of the API — each door's successes and refusals, the body errors,
 * the JSON 404, health and metrics, and what yoga and the MCP SDK write themselves — is
 * `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`; the dashboard keeps its own caching.
 */
let server: TestServer;
let key: string;
let storeId: string;

beforeAll(async () => {
  server = await startTestServer({ BODY_LIMIT_BYTES: '4096', READ_CACHE_TTL_MS: '10000' });
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const json = { 'content-type': 'application/json' };
const query = JSON.stringify({ query: '{ categories(limit: 1) { items { id } } }' });
const mcpHeaders = {
  ...json,
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
const tooLarge = JSON.stringify({ query: `{ categories { items { id } } }${' '.repeat(5000)}` });

/** [what, path, request, the status that shows the answer came from where the name says] */
const answers = (): Array<[string, string, RequestInit & { key?: string }, number]> => [
  ['GraphQL POST', '/graphql', { method: 'POST', key, headers: json, body: query }, 200],
  [
    'GraphQL POST, remembered by the read cache',
    '/graphql',
    { method: 'POST', key, headers: json, body: query },
    200,
  ],
  ['GraphQL POST without a key', '/graphql', { method: 'POST', headers: json, body: query }, 401],
  [
    'GraphQL POST that does not parse (yoga)',
    '/graphql',
    { method: 'POST', key, headers: json, body: '{"query":"{"}' },
    400,
  ],
  // yoga writes this one's headers itself, Cache-Control among them.
  [
    'GraphQL POST as an event stream (yoga)',
    '/graphql',
    { method: 'POST', key, headers: { ...json, accept: 'text/event-stream' }, body: query },
    200,
  ],
  [
    'GraphQL GET (yoga)',
    `/graphql?query=${encodeURIComponent('{ categories(limit: 1) { items { id } } }')}`,
    { key },
    200,
  ],
  ['GraphiQL', '/graphql', { headers: { accept: 'text/html' } }, 200],
  ['GraphQL batch', '/graphql', { method: 'POST', key, headers: json, body: `[${query}]` }, 400],
  ['GraphQL invalid JSON', '/graphql', { method: 'POST', key, headers: json, body: '{' }, 400],
  [
    'GraphQL not JSON',
    '/graphql',
    { method: 'POST', key, headers: { 'content-type': 'text/plain' }, body: query },
    415,
  ],
  ['GraphQL body too large', '/graphql', { method: 'POST', key, headers: json, body: tooLarge }, 413],
  ['REST GET', '/api/v1/category', { key }, 200],
  ['REST GET, remembered by the read cache', '/api/v1/category', { key }, 200],
  ['REST GET without a key', '/api/v1/category', {}, 401],
  ['REST unknown route', '/api/v1/no-such-route', { key }, 404],
  ['REST method not allowed', '/api/v1/category', { method: 'PUT', key }, 405],
  ['REST invalid JSON', '/api/v1/category', { method: 'POST', key, headers: json, body: '{' }, 400],
  [
    'REST not JSON',
    '/api/v1/category',
    { method: 'POST', key, headers: { 'content-type': 'text/plain' }, body: '{}' },
    415,
  ],
  [
    'REST body too large',
    '/api/v1/category',
    { method: 'POST', key, headers: json, body: JSON.stringify({ name: 'x'.repeat(5000) }) },
    413,
  ],
  [
    'REST sign-in refused',
    '/api/v1/auth/login',
    { method: 'POST', headers: json, body: JSON.stringify({ email: 'nobody@x.test', password: 'wrong' }) },
    401,
  ],
  ['OpenAPI document', '/api/v1/openapi.json', {}, 200],
  ['MCP POST', '/mcp', { method: 'POST', key, headers: mcpHeaders, body: toolsList }, 200],
  ['MCP POST without a key', '/mcp', { method: 'POST', headers: mcpHeaders, body: toolsList }, 401],
  ['MCP invalid JSON', '/mcp', { method: 'POST', key, headers: mcpHeaders, body: '{' }, 400],
  ['MCP GET', '/mcp', { key }, 405],
  [
    'CORS preflight of an origin not listed',
    '/graphql',
    {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.test', 'access-control-request-method': 'POST' },
    },
    403,
  ],
  ['a path express cannot decode', '/api/v1/category/%E0%A4%A', { key }, 400],
  ['/healthz', '/healthz', {}, 200],
  ['/readyz', '/readyz', {}, 200],
  ['/metrics', '/metrics', {}, 200],
  ['the JSON 404', '/no/such/path', { headers: { accept: 'application/json' } }, 404],
];

describe('every API answer', () => {
  it('is Cache-Control: no-store and X-Content-Type-Options: nosniff, on every door, success or error', async () => {
    const seen: Array<[string, number, string | null, string | null]> = [];
    for (const [what, path, init, status] of answers()) {
      const res = await server.request(path, init);
      await res.arrayBuffer();
      seen.push([
        what,
        res.status,
        res.headers.get('cache-control'),
        res.headers.get('x-content-type-options'),
      ]);
      expect([what, res.status]).toEqual([what, status]);
    }
    expect(seen).toEqual(seen.map(([what, status]) => [what, status, 'no-store', 'nosniff']));
  });

  it('includes the sign-in answer, which holds the session token, and the session it opens', async () => {
    const email = `owner-${Date.now()}@headers.test`;
    await createStaffUser(server.prisma, {
      storeId,
      email,
      name: 'Owner',
      role: 'OWNER',
      password: 'correct horse',
    });
    const login = await server.send('POST', '/api/v1/auth/login', { email, password: 'correct horse' });
    const { data } = await login.json();
    expect([login.status, login.headers.get('cache-control')]).toEqual([200, 'no-store']);
    const session = await server.request('/api/v1/auth/session', {
      headers: { authorization: `Bearer ${data.token}` },
    });
    expect([session.status, session.headers.get('cache-control')]).toEqual([200, 'no-store']);
  });

  it('includes what the server answers before the app sees the request (headers too large)', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const { port, hostname } = new URL(server.baseUrl);
      const socket = new Socket();
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.connect(Number(port), hostname, () => {
        socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nCache-Control: no-store\r\n/);
    expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
  });
});

describe('the dashboard', () => {
  const html = { headers: { accept: 'text/html' } };

  it('answers its pages no-cache (they name hashed assets, so a new build shows at once) with nosniff', async () => {
    for (const path of ['/', '/keys', '/docs']) {
      const res = await server.request(path, html);
      expect([
        path,
        res.status,
        res.headers.get('cache-control'),
        res.headers.get('x-content-type-options'),
      ]).toEqual([path, 200, 'no-cache', 'nosniff']);
    }
  });

  it('keeps the year-long cache of its hashed assets, with nosniff', async () => {
    const index = await (await server.request('/', html)).text();
    const asset = index.match(/src="(\/assets\/[^"]+)"/)?.[1] as string;
    const res = await server.request(asset);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
