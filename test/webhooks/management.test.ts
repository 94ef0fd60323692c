import type { Plan, StaffRole } from '../../prisma/generated/client/enums';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { capturingLogger, jsonHeaders, serverEnv } from '../helpers/webhooks';

let server: TestServer;
const logs = capturingLogger('debug');

beforeAll(async () => {
  server = await startTestServer(serverEnv, { logger: logs.logger });
});
afterAll(() => server.close());

const base = '/api/v1/store/webhooks/endpoints';
const goodUrl = 'https://127.0.0.1:9/hooks';

async function storeWithKey(
  plan: Plan = 'PRO',
  scopes?: Array<{
    resource: 'STORE_SETTINGS' | 'PRODUCTS';
    actions: Array<'READ' | 'WRITE' | 'UPDATE' | 'DELETE'>;
  }>,
) {
  const store = await makeStore(server.prisma, { plan });
  const { secret } = await makeKey(server.prisma, store.id, scopes ? { scopes } : {});
  return { storeId: store.id, key: secret };
}

const post = (key: string, path: string, body?: unknown) =>
  server.request(path, {
    method: 'POST',
    headers: jsonHeaders(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const patch = (key: string, path: string, body: unknown) =>
  server.request(path, { method: 'PATCH', headers: jsonHeaders(key), body: JSON.stringify(body) });
const get = (key: string, path: string) => server.request(path, { key });

async function create(key: string, body: Record<string, unknown> = {}) {
  const res = await post(key, base, { url: goodUrl, events: ['order.paid'], ...body });
  return { res, json: await res.json() };
}

describe('webhook endpoint management (REST, docs/design.md "Endpoints")', () => {
  it('creates an endpoint and returns its secret once; lists and gets never show it', async () => {
    const { key } = await storeWithKey();
    const { res, json } = await create(key, {
      events: ['order.paid', 'order.placed', 'order.paid'],
      description: 'ERP sync',
      metadata: { team: 'ops' },
    });
    expect(res.status).toBe(201);
    expect(json.data).toEqual({
      id: expect.stringMatching(/^whe_[0-9a-f]{32}$/),
      url: goodUrl,
      events: ['order.paid', 'order.placed'],
      description: 'ERP sync',
      metadata: { team: 'ops' },
      isActive: true,
      rateLimitPerSecond: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      disabledAt: null,
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const secret: string = json.data.secret;
    const list = await (await get(key, `${base}?page=1&limit=10`)).json();
    expect(list.pagination).toEqual(
      expect.objectContaining({
        totalResults: 1,
        currentPage: 1,
        page: 1,
        limit: 10,
        lastPage: 1,
        results: [],
      }),
    );
    expect(list.data[0]).not.toHaveProperty('secret');
    const one = await (await get(key, `${base}/${json.data.id}`)).json();
    expect(one.data.id).toBe(json.data.id);
    expect(one.data).not.toHaveProperty('secret');
    const row = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: json.data.id } });
    expect(row.secretCiphertext).not.toContain(secret.slice(6));
    // GraphQL cannot ask a plain endpoint for a secret at all.
    const gql = await (await server.graphql('{ webhookEndpoints { items { id secret } } }', {}, key)).json();
    expect(gql.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify([list, one, gql])).not.toContain(secret);
    expect(logs.text()).not.toContain(secret);
  });

  it('accepts "*" and refuses unknown events, an empty list, long descriptions, bad metadata and bad URLs', async () => {
    const { key } = await storeWithKey();
    expect((await create(key, { events: ['*'] })).res.status).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ events: ['order.shipped'] }, 'input.events.0'],
      [{ events: [] }, 'input.events'],
      [{ description: 'x'.repeat(257) }, 'input.description'],
      [{ metadata: { a: 1 } }, 'input.metadata.a'],
      [{ metadata: { ['k'.repeat(41)]: 'v' } }, 'input.metadata'],
      [
        { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) },
        'input.metadata',
      ],
      [{ metadata: { a: 'v'.repeat(501) } }, 'input.metadata.a'],
      [{ url: 'http://hooks.example.com/x' }, 'input.url'],
      [{ url: 'https://10.0.0.1/x' }, 'input.url'],
      [{ url: 'https://localhost/x' }, 'input.url'],
      [{ url: 'https://user:pw@127.0.0.1/x' }, 'input.url'],
      [{ unknown: 1 }, 'input.unknown'],
    ];
    for (const [body, path] of cases) {
      const { res, json } = await create(key, body);
      expect({ body, status: res.status, code: json.code }).toEqual({
        body,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(
        json.details.some((d: { path: string }) => d.path === path || d.path.startsWith(`${path}.`)),
      ).toBe(true);
    }
    expect((await create(key, { description: 'x'.repeat(256) })).res.status).toBe(201);
  });

  it('updates url, events, description, metadata and isActive', async () => {
    const { key } = await storeWithKey();
    const { json } = await create(key, { description: 'old', metadata: { a: 'b' } });
    const res = await patch(key, `${base}/${json.data.id}`, {
      url: 'https://127.0.0.1:8443/new',
      events: ['category.created'],
      description: null,
      metadata: { c: 'd' },
      isActive: false,
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual(
      expect.objectContaining({
        url: 'https://127.0.0.1:8443/new',
        events: ['category.created'],
        description: null,
        metadata: { c: 'd' },
        isActive: false,
        disabledAt: expect.any(String),
      }),
    );
    expect(data).not.toHaveProperty('secret');
    const again = await (await patch(key, `${base}/${json.data.id}`, { isActive: true })).json();
    expect(again.data).toEqual(
      expect.objectContaining({ isActive: true, disabledAt: null, disabledReason: null }),
    );
    const bad = await patch(key, `${base}/${json.data.id}`, { url: 'https://192.168.1.1/x' });
    expect(bad.status).toBe(400);
  });

  it('deletes with 204 and answers 404 for another store’s endpoint', async () => {
    const a = await storeWithKey();
    const b = await storeWithKey();
    const { json } = await create(a.key);
    const id = json.data.id;
    for (const res of [
      await get(b.key, `${base}/${id}`),
      await patch(b.key, `${base}/${id}`, { description: 'x' }),
      await server.request(`${base}/${id}`, { method: 'DELETE', key: b.key }),
      await get(b.key, `${base}/${id}/logs`),
      await post(b.key, `${base}/${id}/rotate-secret`),
      await post(b.key, `${base}/${id}/replay-exhausted`),
      await post(b.key, `${base}/${id}/test`),
    ]) {
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
    const res = await server.request(`${base}/${id}`, { method: 'DELETE', key: a.key });
    expect(res.status).toBe(204);
    expect((await get(a.key, `${base}/${id}`)).status).toBe(404);
  });

  it('rotate-secret returns a new secret once and replaces the old one at once', async () => {
    const { key } = await storeWithKey();
    const { json } = await create(key);
    const before = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: json.data.id } });
    const res = await post(key, `${base}/${json.data.id}/rotate-secret`);
    expect(res.status).toBe(200);
    const rotated = await res.json();
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(json.data.secret);
    const after = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: json.data.id } });
    expect(after.secretCiphertext).not.toBe(before.secretCiphertext);
    expect(server.runtime.services.webhooks?.secrets.open(after.secretCiphertext, after.id)).toBe(
      rotated.data.secret,
    );
    expect(logs.text()).not.toContain(rotated.data.secret);
  });

  it('allows 5 endpoints per store, also when 12 creates race', async () => {
    const { key, storeId } = await storeWithKey();
    const results = await Promise.all(Array.from({ length: 12 }, () => create(key)));
    const statuses = results.map((r) => r.res.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    for (const r of results.filter((x) => x.res.status === 409)) {
      expect(r.json.code).toBe('WEBHOOK_ENDPOINT_LIMIT_REACHED');
    }
    expect(await server.prisma.webhookEndpoint.count({ where: { storeId } })).toBe(5);
    const sixth = await create(key);
    expect(sixth.res.status).toBe(409);
    expect(sixth.json.code).toBe('WEBHOOK_ENDPOINT_LIMIT_REACHED');
    // Clients can show the limit without knowing it.
    const limit = await (await server.graphql('{ webhookEndpointLimit }', {}, key)).json();
    expect(limit.data.webhookEndpointLimit).toBe(5);
  });

  it('needs STORE_SETTINGS with the action of each operation', async () => {
    const reader = await storeWithKey('PRO', [{ resource: 'STORE_SETTINGS', actions: ['READ'] }]);
    expect((await get(reader.key, base)).status).toBe(200);
    const denied = await post(reader.key, base, { url: goodUrl, events: ['*'] });
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');
    const other = await storeWithKey('PRO', [
      { resource: 'PRODUCTS', actions: ['READ', 'WRITE', 'UPDATE', 'DELETE'] },
    ]);
    const res = await get(other.key, base);
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
  });

  it('paginates the delivery log newest first', async () => {
    const { key, storeId } = await storeWithKey();
    const { json } = await create(key);
    const event = await server.prisma.event.create({ data: { storeId, type: 'order.paid', data: {} } });
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 3; i++) {
      const other = await server.prisma.event.create({ data: { storeId, type: 'order.paid', data: {} } });
      await server.prisma.webhookDelivery.create({
        data: {
          endpointId: json.data.id,
          eventId: i === 0 ? event.id : other.id,
          storeId,
          eventType: 'order.paid',
          payload: '{}',
          createdAt: new Date(t0 + i * 1000),
        },
      });
    }
    const page1 = await (await get(key, `${base}/${json.data.id}/logs?limit=2`)).json();
    expect(page1.pagination).toEqual(
      expect.objectContaining({ totalResults: 3, lastPage: 2, currentPage: 1 }),
    );
    expect(page1.data.map((d: { createdAt: string }) => d.createdAt)).toEqual([
      new Date(t0 + 2000).toISOString(),
      new Date(t0 + 1000).toISOString(),
    ]);
    expect(page1.data[0]).toEqual(
      expect.objectContaining({
        eventType: 'order.paid',
        status: 'pending',
        attempt: 0,
        httpStatus: null,
        nextRetryAt: null,
        deliveredAt: null,
      }),
    );
    const page2 = await (await get(key, `${base}/${json.data.id}/logs?limit=2&page=2`)).json();
    expect(page2.data.map((d: { createdAt: string }) => d.createdAt)).toEqual([new Date(t0).toISOString()]);
    expect((await get(key, `${base}/${json.data.id}/logs?limit=101`)).status).toBe(400);
  });
});

describe('webhook management through GraphQL and dashboard sessions', () => {
  async function signedIn(role: StaffRole, plan: Plan = 'PRO') {
    const store = await makeStore(server.prisma, { plan });
    const { token } = await signInAs(server, store.id, role);
    return { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  }

  it.each(['OWNER', 'ADMIN'] as const)('accepts an %s session', async (role) => {
    const headers = await signedIn(role);
    const res = await server.request(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: goodUrl, events: ['*'] }),
    });
    expect(res.status).toBe(201);
    expect((await server.request(base, { headers })).status).toBe(200);
  });

  it('refuses a staff session with 403 FORBIDDEN', async () => {
    const headers = await signedIn('STAFF');
    const res = await server.request(base, { headers });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('FORBIDDEN');
  });

  it.each(['FREE', 'STARTER'] as const)(
    'refuses the %s plan with 403 WEBHOOKS_NOT_AVAILABLE',
    async (plan) => {
      const headers = await signedIn('OWNER', plan);
      for (const res of [
        await server.request(base, { headers }),
        await server.request(base, {
          method: 'POST',
          headers,
          body: JSON.stringify({ url: goodUrl, events: ['*'] }),
        }),
      ]) {
        expect(res.status).toBe(403);
        expect((await res.json()).code).toBe('WEBHOOKS_NOT_AVAILABLE');
      }
      const gql = await server.request('/graphql', {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: '{ webhookEndpoints { items { id } } }' }),
      });
      expect((await gql.json()).errors[0].extensions.code).toBe('WEBHOOKS_NOT_AVAILABLE');
    },
  );

  it('runs every operation through GraphQL mutations', async () => {
    const { key } = await storeWithKey();
    const created = await (
      await server.graphql(
        `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input, idempotencyKey: "k1") { id secret events } }`,
        { input: { url: goodUrl, events: ['product.created'] } },
        key,
      )
    ).json();
    const id = created.data.createWebhookEndpoint.id;
    expect(created.data.createWebhookEndpoint.secret).toMatch(/^whsec_/);
    const replay = await (
      await server.graphql(
        `mutation($id: ID!) { replayExhaustedWebhookDeliveries(id: $id) { replayed } }`,
        { id },
        key,
      )
    ).json();
    expect(replay.data.replayExhaustedWebhookDeliveries).toEqual({ replayed: 0 });
    const test = await (
      await server.graphql(`mutation($id: ID!) { testWebhookEndpoint(id: $id) { eventId } }`, { id }, key)
    ).json();
    const event = await server.prisma.event.findUniqueOrThrow({
      where: { id: test.data.testWebhookEndpoint.eventId },
    });
    expect(event).toEqual(
      expect.objectContaining({
        type: 'webhook.test',
        data: expect.objectContaining({ object: expect.objectContaining({ endpointId: id }) }),
      }),
    );
    const deleted = await (
      await server.graphql(
        `mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id deleted } }`,
        { id },
        key,
      )
    ).json();
    expect(deleted.data.deleteWebhookEndpoint).toEqual({ id, deleted: true });
  });
});
