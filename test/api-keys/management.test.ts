import { allScopes, makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: string;
let storeId: string;

const json = (body: unknown, key = admin, method = 'POST') => ({
  method,
  key,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  server = await startTestServer();
  storeId = (await makeStore(server.prisma)).id;
  admin = (await makeKey(server.prisma, storeId, { keyName: 'admin' })).secret;
});
afterAll(() => server.close());

async function createKey(body: Record<string, unknown> = {}, key = admin) {
  const res = await server.request(
    '/api/v1/api-key',
    json(
      {
        keyName: 'reader',
        environment: 'staging',
        scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }],
        ...body,
      },
      key,
    ),
  );
  return { res, body: await res.json() };
}

const listCategories = (key: string) => server.request('/api/v1/category', { key });
const codeOf = async (res: Response) => (await res.json()).code;

describe('POST /api/v1/api-key', () => {
  it('creates a key and returns its secret once, with every field of the record', async () => {
    const { res, body } = await createKey({ ipAllowlist: ['127.0.0.1', '10.0.0.0/8'], usageLimit: 500 });
    expect(res.status).toBe(201);
    expect(body.data).toEqual({
      keyId: expect.stringMatching(/^key_/),
      keyName: 'reader',
      environment: 'staging',
      scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }],
      ipAllowlist: ['127.0.0.1', '10.0.0.0/8'],
      expiresAt: null,
      usageLimit: 500,
      usageCount: 0,
      lastUsedAt: null,
      status: 'active',
      isActive: true,
      lastFour: body.data.secret.slice(-4),
      notices: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      revokedAt: null,
      rotatedAt: null,
      secret: expect.stringMatching(/^tt_[0-9a-f]{64}$/),
    });
    expect((await listCategories(body.data.secret)).status).toBe(200);
  });

  it('never shows the secret again: not in get, list, update or revoke responses', async () => {
    const { body } = await createKey();
    const { keyId, secret } = body.data;
    const responses = [
      await server.request(`/api/v1/api-key/${keyId}`, { key: admin }),
      await server.request('/api/v1/api-key?limit=100', { key: admin }),
      await server.request(`/api/v1/api-key/${keyId}`, json({ keyName: 'renamed' }, admin, 'PATCH')),
      await server.request('/api/v1/api-key/stats', { key: admin }),
      await server.request(`/api/v1/api-key/${keyId}/revoke`, json({})),
      await server.request('/api/v1/audit-log?limit=100', { key: admin }),
    ];
    for (const res of responses) {
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toContain(secret.slice(3));
      expect(text).not.toContain('"secret"');
    }
  });

  it.each([
    [{ scopes: [{ resource: 'NOPE', actions: ['READ'] }] }, 'input.scopes'],
    [{ scopes: [{ resource: 'CATEGORIES', actions: ['FLY'] }] }, 'input.scopes'],
    [{ scopes: [] }, 'input.scopes'],
    [{ ipAllowlist: ['10.0.0.0/33'] }, 'input.ipAllowlist.0'],
    [{ expiresAt: '2000-01-01T00:00:00Z' }, 'input.expiresAt'],
    [{ usageLimit: 0 }, 'input.usageLimit'],
    [{ keyName: '  ' }, 'input.keyName'],
    [{ environment: 'moon' }, 'input.environment'],
    [{ extra: true }, 'input.extra'],
  ])('refuses %j with 400 VALIDATION_ERROR naming %s', async (override, path) => {
    const { res, body } = await createKey(override);
    expect(res.status).toBe(400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.map((d: { path: string }) => d.path).some((p: string) => p.startsWith(path))).toBe(
      true,
    );
  });

  it('refuses a key granting scopes the calling key does not hold (403 INSUFFICIENT_SCOPE)', async () => {
    const limited = await createKey({
      scopes: [
        { resource: 'API_KEYS', actions: ['WRITE', 'READ', 'UPDATE'] },
        { resource: 'CATEGORIES', actions: ['READ'] },
      ],
    });
    const secret = limited.body.data.secret;
    const wider = await createKey({ scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }] }, secret);
    expect(wider.res.status).toBe(403);
    expect(wider.body.code).toBe('INSUFFICIENT_SCOPE');
    const same = await createKey({ scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }] }, secret);
    expect(same.res.status).toBe(201);
    const widen = await server.request(
      `/api/v1/api-key/${same.body.data.keyId}`,
      json({ scopes: [{ resource: 'ORDERS', actions: ['READ'] }] }, secret, 'PATCH'),
    );
    expect(widen.status).toBe(403);
    expect(await codeOf(widen)).toBe('INSUFFICIENT_SCOPE');
  });

  it('needs API_KEYS WRITE to create and API_KEYS READ to list', async () => {
    const reader = (await createKey()).body.data.secret;
    const create = await createKey({}, reader);
    expect(create.res.status).toBe(403);
    expect(create.body.code).toBe('INSUFFICIENT_SCOPE');
    const list = await server.request('/api/v1/api-key', { key: reader });
    expect(list.status).toBe(403);
  });
});

describe('key lifecycle (docs/design.md "API keys")', () => {
  it('rotation: both secrets work during the grace; the old one is GRACE_PERIOD_EXPIRED one second after', async () => {
    const { body } = await createKey();
    const old = body.data.secret;
    const start = new Date(server.clock.now);
    const rotated = await server.request(
      `/api/v1/api-key/${body.data.keyId}/rotate`,
      json({ gracePeriodSeconds: 3600 }),
    );
    expect(rotated.status).toBe(200);
    const fresh = (await rotated.json()).data.secret;
    expect(fresh).not.toBe(old);
    expect((await listCategories(old)).status).toBe(200);
    expect((await listCategories(fresh)).status).toBe(200);
    server.clock.now = new Date(start.getTime() + 3599_000);
    expect((await listCategories(old)).status).toBe(200);
    server.clock.now = new Date(start.getTime() + 3601_000);
    const late = await listCategories(old);
    expect(late.status).toBe(401);
    expect(await codeOf(late)).toBe('API_KEY_GRACE_PERIOD_EXPIRED');
    expect((await listCategories(fresh)).status).toBe(200);
    server.clock.now = start;
  });

  it('rotation without a body keeps the old secret for the default day', async () => {
    const { body } = await createKey();
    const start = new Date(server.clock.now);
    await server.request(`/api/v1/api-key/${body.data.keyId}/rotate`, { method: 'POST', key: admin });
    server.clock.now = new Date(start.getTime() + 86_399_000);
    expect((await listCategories(body.data.secret)).status).toBe(200);
    server.clock.now = new Date(start.getTime() + 86_401_000);
    expect(await codeOf(await listCategories(body.data.secret))).toBe('API_KEY_GRACE_PERIOD_EXPIRED');
    server.clock.now = start;
  });

  it('revocation holds at once: 401 API_KEY_REVOKED', async () => {
    const { body } = await createKey();
    expect((await listCategories(body.data.secret)).status).toBe(200);
    const revoked = await server.request(`/api/v1/api-key/${body.data.keyId}/revoke`, {
      method: 'POST',
      key: admin,
    });
    expect((await revoked.json()).data.status).toBe('revoked');
    const res = await listCategories(body.data.secret);
    expect(res.status).toBe(401);
    expect(await codeOf(res)).toBe('API_KEY_REVOKED');
  });

  it('revocation with a grace: accepted one second before its end, API_KEY_REVOKED one second after', async () => {
    const { body } = await createKey();
    const start = new Date(server.clock.now);
    await server.request(`/api/v1/api-key/${body.data.keyId}/revoke`, json({ gracePeriodSeconds: 600 }));
    server.clock.now = new Date(start.getTime() + 599_000);
    expect((await listCategories(body.data.secret)).status).toBe(200);
    server.clock.now = new Date(start.getTime() + 601_000);
    expect(await codeOf(await listCategories(body.data.secret))).toBe('API_KEY_REVOKED');
    server.clock.now = start;
  });

  it('isActive false gives API_KEY_INACTIVE and true restores the key', async () => {
    const { body } = await createKey();
    const path = `/api/v1/api-key/${body.data.keyId}`;
    await server.request(path, json({ isActive: false }, admin, 'PATCH'));
    expect(await codeOf(await listCategories(body.data.secret))).toBe('API_KEY_INACTIVE');
    const restored = await server.request(path, json({ isActive: true }, admin, 'PATCH'));
    expect((await restored.json()).data).toEqual(
      expect.objectContaining({ status: 'active', isActive: true }),
    );
    expect((await listCategories(body.data.secret)).status).toBe(200);
  });

  it('expiry gives API_KEY_EXPIRED from expiresAt on', async () => {
    const expiresAt = new Date(server.clock.now.getTime() + 60_000);
    const { body } = await createKey({ expiresAt: expiresAt.toISOString() });
    const start = new Date(server.clock.now);
    server.clock.now = new Date(expiresAt.getTime() - 1000);
    expect((await listCategories(body.data.secret)).status).toBe(200);
    server.clock.now = expiresAt;
    expect(await codeOf(await listCategories(body.data.secret))).toBe('API_KEY_EXPIRED');
    server.clock.now = start;
  });

  it('delete removes the key: 204, then INVALID_API_KEY and 404', async () => {
    const { body } = await createKey();
    const path = `/api/v1/api-key/${body.data.keyId}`;
    const deleted = await server.request(path, { method: 'DELETE', key: admin });
    expect(deleted.status).toBe(204);
    expect(await codeOf(await listCategories(body.data.secret))).toBe('INVALID_API_KEY');
    expect((await server.request(path, { key: admin })).status).toBe(404);
  });

  it('a revoked key cannot be rotated, re-activated or revoked again (409 API_KEY_STATE_CONFLICT, status: revoked)', async () => {
    const { body } = await createKey();
    await server.request(`/api/v1/api-key/${body.data.keyId}/revoke`, { method: 'POST', key: admin });
    const rotate = await server.request(`/api/v1/api-key/${body.data.keyId}/rotate`, {
      method: 'POST',
      key: admin,
    });
    const activate = await server.request(
      `/api/v1/api-key/${body.data.keyId}`,
      json({ isActive: true }, admin, 'PATCH'),
    );
    const again = await server.request(`/api/v1/api-key/${body.data.keyId}/revoke`, {
      method: 'POST',
      key: admin,
    });
    for (const [res, message] of [
      [rotate, 'A revoked key cannot be rotated'],
      [activate, 'A revoked key cannot be activated or deactivated'],
      [again, 'The API key is already revoked'],
    ] as const) {
      expect(res.status).toBe(409);
      expect(await res.json()).toEqual(
        expect.objectContaining({
          code: 'API_KEY_STATE_CONFLICT',
          message,
          details: [{ path: 'status', message: 'revoked' }],
        }),
      );
    }
  });

  it('asking for the activity a key already has is 409 naming its status', async () => {
    const { body } = await createKey();
    const res = await server.request(
      `/api/v1/api-key/${body.data.keyId}`,
      json({ isActive: true }, admin, 'PATCH'),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual(
      expect.objectContaining({
        code: 'API_KEY_STATE_CONFLICT',
        message: 'The API key is already active',
        details: [{ path: 'status', message: 'active' }],
      }),
    );
  });

  it('grace periods outside 0…604800 are 400', async () => {
    const { body } = await createKey();
    const res = await server.request(
      `/api/v1/api-key/${body.data.keyId}/rotate`,
      json({ gracePeriodSeconds: 604_801 }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).details[0].path).toBe('input.gracePeriodSeconds');
  });
});

describe('listing, filters and another store', () => {
  it('filters by status and environment and pages in the list envelope', async () => {
    const res = await server.request('/api/v1/api-key?status=revoked&environment=staging&limit=2', {
      key: admin,
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.pagination).toEqual(expect.objectContaining({ results: [], limit: 2, currentPage: 1 }));
    expect(body.data.length).toBeGreaterThan(0);
    for (const key of body.data)
      expect(key).toEqual(expect.objectContaining({ status: 'revoked', environment: 'staging' }));
  });

  it('answers another store’s key as 404 on every route', async () => {
    const other = await makeStore(server.prisma);
    const foreign = await makeKey(server.prisma, other.id);
    for (const [path, init] of [
      [`/api/v1/api-key/${foreign.keyId}`, { key: admin }],
      [`/api/v1/api-key/${foreign.keyId}`, json({ keyName: 'x' }, admin, 'PATCH')],
      [`/api/v1/api-key/${foreign.keyId}/revoke`, json({})],
      [`/api/v1/api-key/${foreign.keyId}/rotate`, json({})],
      [`/api/v1/api-key/${foreign.keyId}`, { method: 'DELETE', key: admin }],
    ] as const) {
      const res = await server.request(path, init);
      expect(res.status).toBe(404);
    }
    expect((await listCategories(foreign.secret)).status).toBe(200);
  });
});

describe('audit log', () => {
  it('records create, update, rotate, revoke and delete with the acting key and IP', async () => {
    const start = new Date(server.clock.now);
    const tick = () => {
      server.clock.now = new Date(server.clock.now.getTime() + 1000);
    };
    const { body } = await createKey();
    const { keyId } = body.data;
    tick();
    await server.request(`/api/v1/api-key/${keyId}`, json({ keyName: 'audited' }, admin, 'PATCH'));
    tick();
    await server.request(`/api/v1/api-key/${keyId}/rotate`, json({}));
    tick();
    await server.request(`/api/v1/api-key/${keyId}/revoke`, json({}));
    tick();
    await server.request(`/api/v1/api-key/${keyId}`, { method: 'DELETE', key: admin });
    server.clock.now = start;
    const res = await server.request(`/api/v1/audit-log?targetId=${keyId}&sortDirection=asc`, { key: admin });
    const log = await res.json();
    expect(log.data.map((e: { action: string }) => e.action)).toEqual([
      'api_key.created',
      'api_key.updated',
      'api_key.rotated',
      'api_key.revoked',
      'api_key.deleted',
    ]);
    const adminKeyId = (await server.prisma.apiKey.findFirstOrThrow({ where: { storeId, keyName: 'admin' } }))
      .id;
    for (const entry of log.data) {
      expect(entry).toEqual(
        expect.objectContaining({ actorType: 'api_key', actorId: adminKeyId, ip: '127.0.0.1' }),
      );
    }
  });
});

describe('the same operations through GraphQL', () => {
  it('creates, reads and rotates with the same rules', async () => {
    const created = await server.graphql(
      `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { keyId secret scopes { resource actions } } }`,
      { input: { keyName: 'gql', environment: 'development', scopes: allScopes().slice(0, 1) } },
      admin,
    );
    const { data } = await created.json();
    expect(data.createApiKey.secret).toMatch(/^tt_/);
    const read = await server.graphql(
      'query($id: ID!) { apiKey(keyId: $id) { keyName environment } }',
      { id: data.createApiKey.keyId },
      admin,
    );
    expect((await read.json()).data.apiKey).toEqual({ keyName: 'gql', environment: 'development' });
    const bad = await server.graphql(
      `mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { keyId } }`,
      { input: { keyName: 'gql', environment: 'development', scopes: [], usageLimit: -1 } },
      admin,
    );
    const error = (await bad.json()).errors[0];
    expect(error.extensions.code).toBe('VALIDATION_ERROR');
    expect(error.extensions.details.map((d: { path: string }) => d.path)).toEqual([
      'input.scopes',
      'input.usageLimit',
    ]);
  });
});
