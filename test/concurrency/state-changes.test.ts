import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { serverEnv } from '../helpers/webhooks';

/**
 * Issue 19 item 4: every state change is one conditional statement or runs under a row lock, so of
 * N concurrent conflicting requests exactly one succeeds and the others answer 409 with the state the
 * resource has now (`details`: `[{ path: 'status', message: 'revoked' }]`, read "status: revoked").
 * Real concurrent HTTP requests at a real server. Orders: test/orders/concurrency.test.ts.
 */
const N = 8;

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  // Bursts of requests with one key: a limit far above them keeps 429s out.
  server = await startTestServer({ RATE_LIMIT_MAX: '100000', ...serverEnv });
});
afterAll(() => server.close());

async function freshStore() {
  const store = await makeStore(server.prisma);
  return {
    id: store.id,
    ownerId: store.ownerId as string,
    key: (await makeKey(server.prisma, store.id)).secret,
  };
}

interface Answer {
  status: number;
  body: {
    code?: string;
    message?: string;
    details?: Array<{ path: string; message: string }>;
    data?: unknown;
  };
}

/** Sends every request at once and waits for all the answers. */
async function all(requests: Array<() => Promise<Response>>): Promise<Answer[]> {
  const responses = await Promise.all(requests.map((request) => request()));
  return Promise.all(
    responses.map(async (res) => ({ status: res.status, body: res.status === 204 ? {} : await res.json() })),
  );
}

const times = (n: number, request: () => Promise<Response>) => Array.from({ length: n }, () => request);

const statusesOf = (answers: Answer[]) => answers.map((answer) => answer.status).sort();

const auditCount = (action: string, targetId: string) =>
  server.prisma.auditEntry.count({ where: { action, targetId } });

describe('API keys', () => {
  async function keyOf(store: { id: string }, status: 'active' | 'inactive' = 'active') {
    const issued = await makeKey(server.prisma, store.id, { keyName: `target ${counter++}` });
    if (status === 'inactive')
      await server.prisma.apiKey.update({ where: { id: issued.keyId }, data: { status } });
    return issued.keyId;
  }
  const revoke = (key: string, keyId: string) => () =>
    server.send('POST', `/api/v1/api-key/${keyId}/revoke`, {}, key);
  const rotate = (key: string, keyId: string) => () =>
    server.send('POST', `/api/v1/api-key/${keyId}/rotate`, { gracePeriodSeconds: 0 }, key);
  const setActive = (key: string, keyId: string, isActive: boolean) => () =>
    server.send('PATCH', `/api/v1/api-key/${keyId}`, { isActive }, key);

  it(`of ${N} concurrent revokes one succeeds; the others are 409 API_KEY_STATE_CONFLICT (status: revoked)`, async () => {
    const store = await freshStore();
    const keyId = await keyOf(store);
    const answers = await all(times(N, revoke(store.key, keyId)));
    expect(statusesOf(answers)).toEqual([200, ...Array(N - 1).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.body).toEqual(
        expect.objectContaining({
          code: 'API_KEY_STATE_CONFLICT',
          message: 'The API key is already revoked',
          details: [{ path: 'status', message: 'revoked' }],
        }),
      );
    }
    expect(await auditCount('api_key.revoked', keyId)).toBe(1);
  });

  it(`of ${N} concurrent deactivations, then activations, one of each succeeds; the others name the status`, async () => {
    const store = await freshStore();
    const keyId = await keyOf(store);
    const off = await all(times(N, setActive(store.key, keyId, false)));
    expect(statusesOf(off)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(off.filter((a) => a.status === 409).map((a) => a.body.details)).toEqual(
      Array(N - 1).fill([{ path: 'status', message: 'inactive' }]),
    );
    const on = await all(times(N, setActive(store.key, keyId, true)));
    expect(statusesOf(on)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(on.find((a) => a.status === 409)?.body).toEqual(
      expect.objectContaining({ code: 'API_KEY_STATE_CONFLICT', message: 'The API key is already active' }),
    );
    expect(await auditCount('api_key.updated', keyId)).toBe(2);
  });

  it('rotations racing revocations: one revoke wins and no revoked key is ever rotated', async () => {
    const store = await freshStore();
    const keyId = await keyOf(store);
    const requests = Array.from({ length: N }, (_, i) =>
      i % 2 === 0 ? revoke(store.key, keyId) : rotate(store.key, keyId),
    );
    const answers = await all(requests);
    const revokes = answers.filter((_, i) => i % 2 === 0);
    const rotations = answers.filter((_, i) => i % 2 === 1);
    expect(statusesOf(revokes)).toEqual([200, 409, 409, 409]);
    const rotated = rotations.filter((a) => a.status === 200);
    for (const refused of rotations.filter((a) => a.status !== 200)) {
      expect(refused).toEqual({
        status: 409,
        body: expect.objectContaining({
          code: 'API_KEY_STATE_CONFLICT',
          message: 'A revoked key cannot be rotated',
          details: [{ path: 'status', message: 'revoked' }],
        }),
      });
    }
    // Every rotation that answered 200 was written before the revocation; none after it.
    expect(await server.prisma.apiKeySecret.count({ where: { apiKeyId: keyId } })).toBe(1 + rotated.length);
    expect(await auditCount('api_key.rotated', keyId)).toBe(rotated.length);
    // Each change writes its audit entry while it holds the key's row lock, and nothing deletes audit
    // entries, so their physical order is the order the changes were made in: the revocation last.
    const order = await server.prisma.$queryRaw<Array<{ action: string }>>`
      SELECT action FROM "AuditEntry" WHERE "targetId" = ${keyId} AND action <> 'api_key.created' ORDER BY ctid`;
    expect(order.map((entry) => entry.action)).toEqual([
      ...Array(rotated.length).fill('api_key.rotated'),
      'api_key.revoked',
    ]);
  });

  it(`of ${N} concurrent deletes one answers 204; the key is gone for the others (404)`, async () => {
    const store = await freshStore();
    const keyId = await keyOf(store);
    const answers = await all(
      times(N, () => server.request(`/api/v1/api-key/${keyId}`, { method: 'DELETE', key: store.key })),
    );
    expect(statusesOf(answers)).toEqual([204, ...Array(N - 1).fill(404)]);
    expect(await auditCount('api_key.deleted', keyId)).toBe(1);
  });
});

describe('webhook endpoints', () => {
  const base = '/api/v1/store/webhooks/endpoints';
  async function endpointOf(store: { key: string }) {
    const res = await server.send('POST', base, { url: 'https://127.0.0.1:9/in', events: ['*'] }, store.key);
    expect(res.status).toBe(201);
    return ((await res.json()).data as { id: string }).id;
  }
  const setActive = (key: string, id: string, isActive: boolean) => () =>
    server.send('PATCH', `${base}/${id}`, { isActive }, key);

  it(`of ${N} concurrent deactivations, then re-activations, one of each succeeds; the others name isActive`, async () => {
    const store = await freshStore();
    const id = await endpointOf(store);
    const off = await all(times(N, setActive(store.key, id, false)));
    expect(statusesOf(off)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(off.find((a) => a.status === 409)?.body).toEqual(
      expect.objectContaining({
        code: 'WEBHOOK_ENDPOINT_STATE_CONFLICT',
        message: 'The webhook endpoint is already inactive',
        details: [
          { path: 'isActive', message: 'false' },
          { path: 'disabledReason', message: 'Deactivated by the store' },
        ],
      }),
    );
    const on = await all(times(N, setActive(store.key, id, true)));
    expect(statusesOf(on)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(on.find((a) => a.status === 409)?.body.details).toEqual([{ path: 'isActive', message: 'true' }]);
    expect(await auditCount('webhook_endpoint.updated', id)).toBe(2);
  });

  it(`of ${N} concurrent replays one re-queues every exhausted delivery; the others find none`, async () => {
    const store = await freshStore();
    const id = await endpointOf(store);
    for (let i = 0; i < 3; i++) {
      const event = await server.prisma.event.create({
        data: { storeId: store.id, type: 'category.created', data: { object: { i } } },
      });
      await server.prisma.webhookDelivery.create({
        data: {
          endpointId: id,
          eventId: event.id,
          storeId: store.id,
          eventType: event.type,
          payload: '{}',
          status: 'exhausted',
          attempt: 8,
        },
      });
    }
    const answers = await all(
      times(N, () => server.send('POST', `${base}/${id}/replay-exhausted`, undefined, store.key)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
    expect(answers.map((a) => (a.body.data as { replayed: number }).replayed).sort()).toEqual([
      ...Array(N - 1).fill(0),
      3,
    ]);
    const { rows } = await server.db.pool.query(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs j JOIN "WebhookDelivery" d ON d.id = j.key WHERE d."endpointId" = $1`,
      [id],
    );
    expect(rows[0].n).toBe(3);
  });

  it('a replay racing a deactivation either runs on an active endpoint or is 409 naming it inactive', async () => {
    const store = await freshStore();
    const id = await endpointOf(store);
    const requests = Array.from({ length: N }, (_, i) =>
      i === 0
        ? setActive(store.key, id, false)
        : () => server.send('POST', `${base}/${id}/replay-exhausted`, undefined, store.key),
    );
    const [deactivation, ...replays] = await all(requests);
    expect(deactivation?.status).toBe(200);
    for (const replay of replays) {
      if (replay.status === 200) continue;
      expect(replay).toEqual({
        status: 409,
        body: expect.objectContaining({
          code: 'WEBHOOK_ENDPOINT_STATE_CONFLICT',
          details: expect.arrayContaining([{ path: 'isActive', message: 'false' }]),
        }),
      });
    }
  });
});

describe('staff', () => {
  async function member(store: { key: string }, role = 'STAFF') {
    const res = await server.send(
      'POST',
      '/api/v1/staff',
      { email: `racer-${counter++}-${Date.now()}@staff.test`, name: 'Racer', role },
      store.key,
    );
    expect(res.status).toBe(201);
    return ((await res.json()).data as { id: string }).id;
  }

  it(`of ${N} concurrent deactivations one succeeds; the others are 409 STAFF_STATE_CONFLICT (isActive: false)`, async () => {
    const store = await freshStore();
    const id = await member(store);
    const answers = await all(
      times(N, () => server.send('PATCH', `/api/v1/staff/${id}`, { isActive: false }, store.key)),
    );
    expect(statusesOf(answers)).toEqual([200, ...Array(N - 1).fill(409)]);
    expect(answers.find((a) => a.status === 409)?.body).toEqual(
      expect.objectContaining({
        code: 'STAFF_STATE_CONFLICT',
        message: 'The staff member is already inactive',
        details: [{ path: 'isActive', message: 'false' }],
      }),
    );
    expect(await auditCount('staff.updated', id)).toBe(1);
  });

  it(`${N} owners taken out at once (demoted, deactivated, removed): all but the last succeed, one is 409 LAST_OWNER`, async () => {
    const store = await freshStore();
    const owners = [store.ownerId];
    for (let i = 1; i < N; i++) owners.push(await member(store, 'OWNER'));
    const takeOut = (id: string, i: number) => () =>
      i % 3 === 0
        ? server.request(`/api/v1/staff/${id}`, { method: 'DELETE', key: store.key })
        : server.send(
            'PATCH',
            `/api/v1/staff/${id}`,
            i % 3 === 1 ? { role: 'ADMIN' } : { isActive: false },
            store.key,
          );
    const answers = await all(owners.map(takeOut));
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.body.code).toBe('LAST_OWNER');
    expect(answers.filter((a) => a.status === 200 || a.status === 204)).toHaveLength(N - 1);
    const left = await server.prisma.staffUser.findMany({
      where: { storeId: store.id, role: 'OWNER', isActive: true },
    });
    expect(left).toHaveLength(1);
    expect((await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } })).ownerId).toBe(
      left[0]?.id,
    );
  });

  it(`of ${N} concurrent removals of one member one answers 204; the others find no one (404)`, async () => {
    const store = await freshStore();
    const id = await member(store);
    const answers = await all(
      times(N, () => server.request(`/api/v1/staff/${id}`, { method: 'DELETE', key: store.key })),
    );
    expect(statusesOf(answers)).toEqual([204, ...Array(N - 1).fill(404)]);
    expect(await auditCount('staff.removed', id)).toBe(1);
  });
});
