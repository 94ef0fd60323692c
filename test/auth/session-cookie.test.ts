import { createStaffUser } from '../../src/modules/stores/provision';
import { makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/** Issue 18 item 3: sign-in sets the tt_session cookie, which alone authenticates; sign-out drops it. */

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

test('in production the cookie is Secure', async () => {
  const production = await startTestServer({
    NODE_ENV: 'production',
    WEBHOOK_SECRET_KEY: 'a'.repeat(64),
  });
  try {
    const store = await makeStore(production.prisma, { plan: 'PRO' });
    await createStaffUser(production.prisma, {
      storeId: store.id,
      email,
      name: 'Olive',
      role: 'OWNER',
      password,
    });
    const res = await production.send('POST', '/api/v1/auth/login', { email, password });
    expect(res.status).toBe(200);
    expect(cookieOf(res)).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
  } finally {
    await production.close();
  }
});
