import { createStaffUser } from '../../src/modules/stores/provision';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 18 item 5: session requests have a rate limit of their own per staff member (configurable,
 * default the keys'), with the same headers, and count in no API key's usage.
 */

let server: TestServer;
let storeId: string;
const password = 'correct horse battery staple';

beforeAll(async () => {
  server = await startTestServer({ SESSION_RATE_LIMIT_MAX: '3', SESSION_RATE_LIMIT_WINDOW_SECONDS: '30' });
  storeId = (await makeStore(server.prisma, { plan: 'PRO' })).id;
});
afterAll(() => server.close());

let counter = 0;
async function signedIn() {
  const email = `staff-${counter++}@rate.test`;
  await createStaffUser(server.prisma, { storeId, email, name: 'Sam', role: 'STAFF', password });
  const res = await server.send('POST', '/api/v1/auth/login', { email, password });
  return { authorization: `Bearer ${(await res.json()).data.token}` };
}

it('each staff member has their own window; the request past it is 429 with Retry-After and the headers', async () => {
  const ann = await signedIn();
  const bob = await signedIn();
  const read = (headers: Record<string, string>) => server.request('/api/v1/product', { headers });
  const answers = [await read(ann), await read(ann), await read(ann)];
  expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
  expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
  expect(answers[0]?.headers.get('ratelimit-policy')).toBe('"default";q=3;w=30');

  const refused = await read(ann);
  expect(refused.status).toBe(429);
  expect((await refused.json()).code).toBe('RATE_LIMIT_EXCEEDED');
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  const graphql = await server.request('/graphql', {
    method: 'POST',
    headers: { ...ann, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ products { items { id } } }' }),
  });
  expect(graphql.status).toBe(429);

  expect((await read(bob)).status).toBe(200);
  server.clock.now = new Date(server.clock.now.getTime() + 31_000);
  expect((await read(ann)).status).toBe(200);
});

it('session requests count in no API key usage', async () => {
  const { keyId } = await makeKey(server.prisma, storeId);
  const staff = await signedIn();
  for (let i = 0; i < 3; i++) await server.request('/api/v1/product', { headers: staff });
  await server.runtime.usage.flush(server.prisma);
  const key = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  expect(key.usageCount).toBe(0n);
  expect(await server.prisma.apiKeyDailyUsage.count({ where: { storeId } })).toBe(0);
});
