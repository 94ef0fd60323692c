import { createStaffUser } from '../../src/modules/stores/provision';
import { makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 18 item 3: sign-in sets the session cookie, which alone authenticates; sign-out drops it.
 * Issue 28 item 5: in production its name is `__Host-tt_session`, elsewhere `tt_session`.
 */

let server: TestServer;
const email = 'owner@cookie.test';
const password = 'correct horse battery staple';

beforeAll(async () => {
  server = await startTestServer();
  const store = await makeStore(server.prisma, { plan: 'PRO' });
  await createStaffUser(server.prisma, { storeId: store.id, email, name: 'Olive', role: 'OWNER', password });
});
afterAll(() => server.close());

const signIn = () => server.send('POST', '/api/v1/auth/login', { email, password });
const cookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith('tt_session='));
const withCookie = (cookie: string) => ({ headers: { cookie: cookie.split(';')[0] as string } });

test('sign-in sets an HttpOnly, SameSite=Lax session cookie for the whole site and still returns the token', async () => {
  const res = await signIn();
  expect(res.status).toBe(200);
  const { data } = await res.json();
  const cookie = cookieOf(res) as string;
  expect(cookie).toBe(
    `tt_session=${data.token}; Path=/; Expires=${new Date(data.expiresAt).toUTCString()}; HttpOnly; SameSite=Lax`,
  );
});

test('the cookie alone authenticates REST and GraphQL', async () => {
  const cookie = cookieOf(await signIn()) as string;
  const session = await server.request('/api/v1/auth/session', withCookie(cookie));
  expect(session.status).toBe(200);
  expect((await session.json()).data.staff.email).toBe(email);
  const graphql = await server.request('/graphql', {
    method: 'POST',
    headers: { ...withCookie(cookie).headers, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ session { staff { email } } }' }),
  });
  expect((await graphql.json()).data.session.staff.email).toBe(email);
});

test('sign-out ends the session on the server and clears the cookie; the old cookie is refused', async () => {
  const cookie = cookieOf(await signIn()) as string;
  const out = await server.request('/api/v1/auth/logout', {
    method: 'POST',
    headers: { ...withCookie(cookie).headers, origin: server.baseUrl },
  });
  expect(out.status).toBe(204);
  expect(cookieOf(out)).toBe(
    'tt_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax',
  );
  const after = await server.request('/api/v1/auth/session', withCookie(cookie));
  expect(after.status).toBe(401);
  expect((await after.json()).code).toBe('UNAUTHENTICATED');
});

test('a cookie that signs no one in is answered 401 and dropped', async () => {
  const res = await server.request('/api/v1/auth/session', withCookie(`tt_session=tts_${'0'.repeat(64)}`));
  expect(res.status).toBe(401);
  expect(cookieOf(res)).toMatch(/^tt_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
});

describe('in production', () => {
  let production: TestServer;
  const hostCookieOf = (res: Response) =>
    res.headers.getSetCookie().find((c) => c.startsWith('__Host-tt_session='));
  const signInThere = () => production.send('POST', '/api/v1/auth/login', { email, password });

  beforeAll(async () => {
    // An app built from a production configuration, as `npm run start:api` builds it.
    production = await startTestServer({ NODE_ENV: 'production', WEBHOOK_SECRET_KEY: 'a'.repeat(64) });
    const store = await makeStore(production.prisma, { plan: 'PRO' });
    await createStaffUser(production.prisma, {
      storeId: store.id,
      email,
      name: 'Olive',
      role: 'OWNER',
      password,
    });
  });
  afterAll(() => production.close());

  test('sign-in sets __Host-tt_session: Secure, Path=/, no Domain (the __Host- prefix rules)', async () => {
    const res = await signInThere();
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(res.headers.getSetCookie()).toEqual([
      `__Host-tt_session=${data.token}; Path=/; Expires=${new Date(data.expiresAt).toUTCString()}; HttpOnly; Secure; SameSite=Lax`,
    ]);
  });

  test('__Host-tt_session alone authenticates REST, GraphQL and a cookie write; tt_session is not read', async () => {
    const cookie = hostCookieOf(await signInThere()) as string;
    const session = await production.request('/api/v1/auth/session', withCookie(cookie));
    expect(session.status).toBe(200);
    const graphql = await production.request('/graphql', {
      method: 'POST',
      headers: { ...withCookie(cookie).headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ session { staff { email } } }' }),
    });
    expect((await graphql.json()).data.session.staff.email).toBe(email);
    // Read as a cookie: a write it signs runs from the service's own origin, and names one.
    const write = (headers: Record<string, string>) =>
      production.request('/api/v1/category', {
        method: 'POST',
        headers: { ...withCookie(cookie).headers, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'Hats' }),
      });
    expect((await write({ origin: production.baseUrl })).status).toBe(201);
    const unnamed = await write({});
    expect([unnamed.status, (await unnamed.json()).code]).toEqual([403, 'ORIGIN_NOT_ALLOWED']);
    const token = cookie.split(';')[0]?.split('=')[1];
    const devName = await production.request('/api/v1/auth/session', {
      headers: { cookie: `tt_session=${token}` },
    });
    expect([devName.status, (await devName.json()).code]).toEqual([401, 'API_KEY_REQUIRED']);
  });

  test('MCP tells the __Host- cookie for a session, not for no credential', async () => {
    const cookie = hostCookieOf(await signInThere()) as string;
    const res = await production.request('/mcp', {
      method: 'POST',
      headers: {
        ...withCookie(cookie).headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const body = await res.json();
    expect([res.status, body.code, body.message]).toEqual([
      401,
      'API_KEY_REQUIRED',
      'The MCP endpoint takes an API key, not a dashboard session',
    ]);
  });

  test('sign-out and a cookie that signs no one in clear __Host-tt_session', async () => {
    const cookie = hostCookieOf(await signInThere()) as string;
    const out = await production.request('/api/v1/auth/logout', {
      method: 'POST',
      headers: { ...withCookie(cookie).headers, origin: production.baseUrl },
    });
    expect(out.status).toBe(204);
    expect(hostCookieOf(out)).toBe(
      '__Host-tt_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax',
    );
    const stale = await production.request('/api/v1/auth/session', withCookie(cookie));
    expect(stale.status).toBe(401);
    expect(hostCookieOf(stale)).toMatch(/^__Host-tt_session=; Path=\/; Expires=Thu, 01 Jan 1970 .*; Secure;/);
  });
});
