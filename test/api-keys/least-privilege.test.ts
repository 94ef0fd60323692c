import { OWNER_RIGHT } from '../../src/access/credential-rights';
import { toScopeObjects } from '../../src/access/scopes';
import { allScopes, makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

/**
 * The attacks of issue 28 on API keys, each as it was reproduced by hand: a key or a session that
 * holds less than a key cannot rotate, reactivate or loosen it, nor make a key beyond its own bounds.
 * (test/access/credential-rule.property.test.ts tries random principals on every operation.)
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const keysOnly = toScopeObjects(['API_KEYS:READ', 'API_KEYS:WRITE', 'API_KEYS:UPDATE']);

async function storeWithKeys() {
  const store = await makeStore(server.prisma);
  const full = await makeKey(server.prisma, store.id, { keyName: 'every scope' });
  const weak = await makeKey(server.prisma, store.id, { keyName: 'keys only', scopes: keysOnly });
  return { store, full, weak };
}

const send = (key: string, method: string, path: string, body?: unknown) =>
  server.request(path, {
    method,
    key,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
const asSession = (token: string, method: string, path: string, body?: unknown) =>
  server.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/** Everything about a store's keys that a refused request must leave as it was, audit entries included. */
async function snapshot(storeId: string) {
  return {
    keys: await server.prisma.apiKey.findMany({ where: { storeId }, orderBy: { id: 'asc' } }),
    secrets: await server.prisma.apiKeySecret.findMany({
      where: { apiKey: { storeId } },
      orderBy: { id: 'asc' },
    }),
    audit: await server.prisma.auditEntry.count({ where: { storeId } }),
  };
}

async function expectRefused(res: Response, message: RegExp) {
  const json = await res.json();
  expect({ status: res.status, code: json.code }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
  expect(json.message).toMatch(message);
}

describe('a key that manages keys cannot take over a stronger one', () => {
  it('refuses to rotate a key holding more, whatever the grace: no new secret, no audit entry', async () => {
    const { store, full, weak } = await storeWithKeys();
    const before = await snapshot(store.id);
    const res = await send(weak.secret, 'POST', `/api/v1/api-key/${full.keyId}/rotate`, {
      gracePeriodSeconds: 604_800,
    });
    await expectRefused(res, /^This API key cannot rotate this key: it lacks ANALYTICS:DELETE, /);
    expect(await snapshot(store.id)).toEqual(before);
    // The old secret is the only one, and still works as before.
    expect((await send(full.secret, 'GET', '/api/v1/product')).status).toBe(200);
  });

  it('refuses through GraphQL the same way', async () => {
    const { store, full, weak } = await storeWithKeys();
    const before = await snapshot(store.id);
    const res = await server.graphql(
      'mutation($id: ID!) { rotateApiKey(keyId: $id, input: { gracePeriodSeconds: 604800 }) { secret } }',
      { id: full.keyId },
      weak.secret,
    );
    const json = await res.json();
    expect(json.data).toBeNull();
    expect(json.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(json.errors[0].message).toMatch(/^This API key cannot rotate this key: it lacks /);
    expect(await snapshot(store.id)).toEqual(before);
  });

  it.each([
    ['reactivate it', { isActive: true }, /cannot reactivate this key/],
    ['clear its IP allowlist', { ipAllowlist: null }, /cannot change this key/],
    ['raise its usage limit', { usageLimit: 2_000_000_000 }, /cannot change this key/],
    ['rename it', { keyName: 'mine now' }, /cannot change this key/],
  ])('refuses to %s', async (_what, patch, message) => {
    const { store, weak } = await storeWithKeys();
    const strong = await makeKey(server.prisma, store.id, {
      keyName: 'strong, bounded',
      ipAllowlist: ['203.0.113.7'],
      usageLimit: 100,
    });
    await server.prisma.apiKey.update({ where: { id: strong.keyId }, data: { status: 'inactive' } });
    const before = await snapshot(store.id);
    await expectRefused(await send(weak.secret, 'PATCH', `/api/v1/api-key/${strong.keyId}`, patch), message);
    expect(await snapshot(store.id)).toEqual(before);
  });

  it('may still take rights away: deactivate, revoke and delete a stronger key', async () => {
    const { store, full, weak } = await storeWithKeys();
    expect(
      (await send(weak.secret, 'PATCH', `/api/v1/api-key/${full.keyId}`, { isActive: false })).status,
    ).toBe(200);
    expect((await send(weak.secret, 'POST', `/api/v1/api-key/${full.keyId}/revoke`, {})).status).toBe(200);
    expect((await send(full.secret, 'GET', '/api/v1/product')).status).toBe(401);
    const deleter = await makeKey(server.prisma, store.id, { scopes: toScopeObjects(['API_KEYS:DELETE']) });
    expect((await send(deleter.secret, 'DELETE', `/api/v1/api-key/${full.keyId}`)).status).toBe(204);
  });

  it('rotates and changes a key within its own rights', async () => {
    const { store, weak } = await storeWithKeys();
    const lesser = await makeKey(server.prisma, store.id, {
      scopes: toScopeObjects(['API_KEYS:READ']),
    });
    expect((await send(weak.secret, 'POST', `/api/v1/api-key/${lesser.keyId}/rotate`, {})).status).toBe(200);
    expect(
      (await send(weak.secret, 'PATCH', `/api/v1/api-key/${lesser.keyId}`, { scopes: keysOnly })).status,
    ).toBe(200);
  });
});

describe('a key cannot make or loosen a key beyond its own bounds', () => {
  const newKey = (extra: Record<string, unknown>) => ({
    keyName: 'made',
    environment: 'production',
    scopes: toScopeObjects(['API_KEYS:READ']),
    ...extra,
  });

  it('an allowlisted key makes only keys inside its allowlist', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id, { ipAllowlist: ['127.0.0.0/8', '::1'] });
    await expectRefused(
      await send(secret, 'POST', '/api/v1/api-key', newKey({})),
      /it lacks use from any IP address/,
    );
    await expectRefused(
      await send(secret, 'POST', '/api/v1/api-key', newKey({ ipAllowlist: ['127.0.0.1', '10.0.0.0/8'] })),
      /it lacks use from 10\.0\.0\.0\/8 \(outside its own IP allowlist\)$/,
    );
    const inside = await send(secret, 'POST', '/api/v1/api-key', newKey({ ipAllowlist: ['127.0.0.1'] }));
    expect(inside.status).toBe(201);
  });

  it('an expiring key makes only keys that expire no later, and cannot extend itself', async () => {
    const store = await makeStore(server.prisma);
    const expiresAt = new Date(server.clock.now.getTime() + 86_400_000);
    const { secret, keyId } = await makeKey(server.prisma, store.id, { expiresAt }, server.clock.now);
    await expectRefused(await send(secret, 'POST', '/api/v1/api-key', newKey({})), /it lacks use after /);
    const later = new Date(expiresAt.getTime() + 1000).toISOString();
    await expectRefused(
      await send(secret, 'PATCH', `/api/v1/api-key/${keyId}`, { expiresAt: later }),
      /use after/,
    );
    const sooner = new Date(expiresAt.getTime() - 1000).toISOString();
    expect((await send(secret, 'POST', '/api/v1/api-key', newKey({ expiresAt: sooner }))).status).toBe(201);
  });

  it('a key with a usage limit cannot make an unlimited key or raise its own limit', async () => {
    const store = await makeStore(server.prisma);
    const { secret, keyId } = await makeKey(server.prisma, store.id, { usageLimit: 1000 });
    await expectRefused(
      await send(secret, 'POST', '/api/v1/api-key', newKey({})),
      /it lacks more than 1000 requests \(its own usage limit\)$/,
    );
    await expectRefused(
      await send(secret, 'PATCH', `/api/v1/api-key/${keyId}`, { usageLimit: 5000 }),
      /more than 1000 requests/,
    );
    // Narrowing itself is its own business.
    expect(
      (
        await send(secret, 'PATCH', `/api/v1/api-key/${keyId}`, {
          ipAllowlist: ['127.0.0.1'],
          usageLimit: 900,
        })
      ).status,
    ).toBe(200);
    expect(
      (await send(secret, 'POST', '/api/v1/api-key', newKey({ usageLimit: 900, ipAllowlist: ['127.0.0.1'] })))
        .status,
    ).toBe(201);
  });
});

describe('only the owner rotates or loosens a key that may change the owner', () => {
  it('an ADMIN session cannot rotate a key an owner made with every scope, nor give an owner’s partial key every scope', async () => {
    const store = await makeStore(server.prisma);
    const ownersKey = await makeKey(server.prisma, store.id); // made like the CLI's: may change the owner
    const partial = await makeKey(server.prisma, store.id, { scopes: toScopeObjects(['PRODUCTS:READ']) });
    const { token } = await signInAs(server, store.id, 'ADMIN');
    const before = await snapshot(store.id);
    await expectRefused(
      await asSession(token, 'POST', `/api/v1/api-key/${ownersKey.keyId}/rotate`, {}),
      new RegExp(`^The ADMIN role cannot rotate this key: it lacks ${literally(OWNER_RIGHT)}$`),
    );
    await expectRefused(
      await asSession(token, 'PATCH', `/api/v1/api-key/${partial.keyId}`, { scopes: allScopes() }),
      /^The ADMIN role cannot change this key: it lacks changing the store's owner/,
    );
    expect(await snapshot(store.id)).toEqual(before);

    // A key the admin makes with every scope is the admin's to rotate: it cannot change the owner.
    const made = await asSession(token, 'POST', '/api/v1/api-key', {
      keyName: 'admin’s',
      environment: 'production',
      scopes: allScopes(),
    });
    const madeId = (await made.json()).data.keyId;
    expect((await asSession(token, 'POST', `/api/v1/api-key/${madeId}/rotate`, {})).status).toBe(200);
    const owner = await signInAs(server, store.id, 'OWNER');
    expect(
      (await asSession(owner.token, 'POST', `/api/v1/api-key/${ownersKey.keyId}/rotate`, {})).status,
    ).toBe(200);
  });
});

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
