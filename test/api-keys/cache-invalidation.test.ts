import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

// Two API processes of one deployment: one database, one Redis. B caches verified keys for a minute,
// so only the invalidation message can make it notice a change in time.
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ AUTH_CACHE_TTL_MS: '60000' }, { shareWith: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

async function setup() {
  const store = await makeStore(a.prisma);
  const admin = await makeKey(a.prisma, store.id);
  const target = await makeKey(a.prisma, store.id, { keyName: 'target' });
  expect((await b.request('/api/v1/category', { key: target.secret })).status).toBe(200);
  return { store, admin, target };
}

const waitForDelivery = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('a change made through one API process holds on another at once', () => {
  it('revocation', async () => {
    const { admin, target } = await setup();
    await a.request(`/api/v1/api-key/${target.keyId}/revoke`, { method: 'POST', key: admin.secret });
    await waitForDelivery();
    const res = await b.request('/api/v1/category', { key: target.secret });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('API_KEY_REVOKED');
  });

  it('deactivation and scope changes', async () => {
    const { admin, target } = await setup();
    await a.request(`/api/v1/api-key/${target.keyId}`, {
      method: 'PATCH',
      key: admin.secret,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }] }),
    });
    await waitForDelivery();
    expect((await (await b.request('/api/v1/category', { key: target.secret })).json()).code).toBe(
      'INSUFFICIENT_SCOPE',
    );
  });

  it('deletion', async () => {
    const { admin, target } = await setup();
    await a.request(`/api/v1/api-key/${target.keyId}`, { method: 'DELETE', key: admin.secret });
    await waitForDelivery();
    expect((await (await b.request('/api/v1/category', { key: target.secret })).json()).code).toBe(
      'INVALID_API_KEY',
    );
  });

  it('store suspension and plan change, published by whoever made them', async () => {
    const { store, target } = await setup();
    await a.prisma.store.update({ where: { id: store.id }, data: { status: 'SUSPENDED' } });
    await a.runtime.invalidation.publish({ storeId: store.id });
    await waitForDelivery();
    expect((await b.request('/api/v1/category', { key: target.secret })).status).toBe(402);
    await a.prisma.store.update({ where: { id: store.id }, data: { status: 'ACTIVE', plan: 'STARTER' } });
    await a.runtime.invalidation.publish({ storeId: store.id });
    await waitForDelivery();
    expect((await (await b.request('/api/v1/category', { key: target.secret })).json()).code).toBe(
      'PLAN_NOT_ELIGIBLE',
    );
  });

  it('without the message, B would still be serving from its cache (the test can fail)', async () => {
    const { target } = await setup();
    await a.prisma.apiKey.update({ where: { id: target.keyId }, data: { status: 'inactive' } });
    expect((await b.request('/api/v1/category', { key: target.secret })).status).toBe(200);
  });
});
