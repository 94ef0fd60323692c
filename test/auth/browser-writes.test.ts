import { createStaffUser } from '../../src/modules/stores/provision';
import { makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 18 item 4 (README "Authentication", browser writes): a write signed in by the session cookie
 * must come from the service's own origin or one in CORS_ORIGINS; signing in from another site is
 * refused too. A cross-site form post can create nothing.
 */

const DASHBOARD_DEV = 'http://localhost:5173';
const EVIL = 'https://evil.example';
let server: TestServer;
let storeId: string;
let cookie: string;
let token: string;
const email = 'owner@browser-writes.test';
const password = 'correct horse battery staple';

beforeAll(async () => {
  server = await startTestServer({ CORS_ORIGINS: DASHBOARD_DEV });
  storeId = (await makeStore(server.prisma, { plan: 'PRO' })).id;
  await createStaffUser(server.prisma, { storeId, email, name: 'Olive', role: 'OWNER', password });
  const res = await server.send('POST', '/api/v1/auth/login', { email, password });
  token = (await res.json()).data.token;
  cookie = `tt_session=${token}`;
});
afterAll(() => server.close());

const post = (path: string, body: unknown, headers: Record<string, string>) =>
  server.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const products = () => server.prisma.product.count({ where: { storeId } });
const keys = () => server.prisma.apiKey.count({ where: { storeId } });

describe('a write signed in by the session cookie', () => {
  it('from another origin: 403 ORIGIN_NOT_ALLOWED, and no product or key is made', async () => {
    const [before, keysBefore] = [await products(), await keys()];
    for (const [path, body] of [
      ['/api/v1/product', { name: 'Forged', priceAmount: 1 }],
      ['/api/v1/api-key', { keyName: 'Forged', environment: 'production', scopes: [] }],
    ] as const) {
      const res = await post(path, body, { cookie, origin: EVIL });
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('ORIGIN_NOT_ALLOWED');
    }
    const graphql = await post(
      '/graphql',
      { query: 'mutation { createProduct(input: { name: "Forged", priceAmount: 1 }) { id } }' },
      { cookie, origin: EVIL },
    );
    expect(graphql.status).toBe(403);
    expect((await graphql.json()).errors[0].extensions.code).toBe('ORIGIN_NOT_ALLOWED');
    expect([await products(), await keys()]).toEqual([before, keysBefore]);
  });

  it('as an HTML form would send it (urlencoded, from another site): refused, nothing made', async () => {
    const before = await products();
    for (const path of ['/api/v1/product', '/graphql']) {
      const res = await server.request(path, {
        method: 'POST',
        headers: { cookie, origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'query=mutation%20%7B%20createProduct(input%3A%20%7Bname%3A%20%22F%22%2C%20priceAmount%3A%201%7D)%20%7B%20id%20%7D%20%7D&name=F&priceAmount=1',
      });
      expect([403, 415]).toContain(res.status);
    }
    expect(await products()).toBe(before);
  });

  it('without Origin or Referer: 403 (a cookie means a browser, which would have said)', async () => {
    const res = await post('/api/v1/product', { name: 'Unsigned', priceAmount: 1 }, { cookie });
    expect(res.status).toBe(403);
  });

  it('from the service itself, from an origin in CORS_ORIGINS, or with a Referer of its own: made', async () => {
    const from: Record<string, string>[] = [
      { origin: server.baseUrl },
      { origin: DASHBOARD_DEV },
      { referer: `${server.baseUrl}/products` },
    ];
    for (const [i, headers] of from.entries()) {
      const res = await post(
        '/api/v1/product',
        { name: `Honest ${i}`, priceAmount: 1 },
        { cookie, ...headers },
      );
      expect(res.status).toBe(201);
    }
    const key = await post(
      '/api/v1/api-key',
      {
        keyName: 'From the dashboard',
        environment: 'production',
        scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
      },
      { cookie, origin: server.baseUrl },
    );
    expect(key.status).toBe(201);
  });

  it('reads are not writes: a cookie GET from anywhere is answered (CORS keeps it from other pages)', async () => {
    const res = await server.request('/api/v1/product', { headers: { cookie, origin: EVIL } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the rule is about the cookie', () => {
  it('the same session as a Bearer token (no browser adds it) writes from any origin', async () => {
    const res = await post(
      '/api/v1/product',
      { name: 'Bearer', priceAmount: 1 },
      { authorization: `Bearer ${token}`, origin: EVIL },
    );
    expect(res.status).toBe(201);
  });
});

describe('signing in', () => {
  it('from another site is refused; from the service itself, or from no browser at all, it signs in', async () => {
    const refused = await post('/api/v1/auth/login', { email, password }, { origin: EVIL });
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie()).toEqual([]);
    const graphql = await post(
      '/graphql',
      { query: `mutation { login(input: { email: "${email}", password: "${password}" }) { token } }` },
      { origin: EVIL },
    );
    expect(graphql.status).toBe(403);
    expect((await post('/api/v1/auth/login', { email, password }, { origin: server.baseUrl })).status).toBe(
      200,
    );
    expect((await post('/api/v1/auth/login', { email, password }, {})).status).toBe(200);
  });
});

describe('GraphQL over GET', () => {
  it('never runs a mutation', async () => {
    const before = await products();
    const query = encodeURIComponent(
      'mutation { createProduct(input: { name: "Get", priceAmount: 1 }) { id } }',
    );
    const res = await server.request(`/graphql?query=${query}`, {
      headers: { cookie, origin: server.baseUrl },
    });
    expect(res.status).toBe(405);
    expect(await products()).toBe(before);
  });
});
