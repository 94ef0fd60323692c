import type { Runner } from 'graphile-worker';
import type { Redis } from 'ioredis';
import { startWorker } from '../../jobs/worker';
import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import {
  createDeliveryRateGate,
  type DeliveryRateGate,
  type RateAdmission,
} from '../../src/webhook-delivery/rate';
import { redisUrl } from '../helpers/databases';
import { freePort } from '../helpers/process';
import { deleteKeys, ready } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  capturingLogger,
  createCategory,
  eventually,
  jsonHeaders,
  mostInOneSecond,
  type Receiver,
  serverEnv,
  startReceiver,
  storeWithEndpoints,
  testWorkerOptions,
} from '../helpers/webhooks';

/**
 * Issue 31 item 2: an endpoint's `rateLimitPerSecond` holds across worker processes. Three workers,
 * each with its own Redis connection and gate (as three processes would have), deliver to one local
 * HTTPS receiver; every admission the gates make is recorded with Redis's own clock.
 */
const WORKERS = 3;
const base = '/api/v1/store/webhooks/endpoints';
let server: TestServer;
let receiver: Receiver;
const connections: Redis[] = [];
const workers: Runner[] = [];
const admissions: Array<{ endpointId: string; atMs: number; counted: string }> = [];

/** The gate as the worker has it, noting each admission it grants. */
function recording(gate: DeliveryRateGate): DeliveryRateGate {
  return {
    async admit(endpointId, perSecond, holdMs): Promise<RateAdmission> {
      const admission = await gate.admit(endpointId, perSecond, holdMs);
      if (admission.admitted)
        admissions.push({ endpointId, atMs: admission.atMs, counted: admission.counted });
      return admission;
    },
  };
}

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver(() => ({ status: 200 }));
  for (let i = 0; i < WORKERS; i++) {
    const redis = connectRedis(redisUrl, createLogger('silent'));
    await ready(redis);
    connections.push(redis);
    const gate = createDeliveryRateGate({
      redis,
      logger: createLogger('silent'),
      keyPrefix: `${server.redisKeyPrefix}webhook-rate:`,
    });
    workers.push(
      await startWorker({
        pgPool: server.db.pool,
        logger: createLogger('silent'),
        concurrency: 4,
        usageMeter: server.runtime.usage,
        prisma: server.prisma,
        webhooks: testWorkerOptions({ rateGate: recording(gate) }),
        pollInterval: 100,
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  const [first] = connections;
  if (first) await deleteKeys(first, server.redisKeyPrefix);
  for (const redis of connections) redis.disconnect();
  await receiver.close();
  await server.close();
});

const patch = (key: string, id: string, body: unknown) =>
  server.request(`${base}/${id}`, { method: 'PATCH', headers: jsonHeaders(key), body: JSON.stringify(body) });

/** `count` category.created events, created side by side so that they are due at once. */
async function burst(key: string, count: number, label: string) {
  await Promise.all(Array.from({ length: count }, (_, i) => createCategory(server, key, `${label} ${i}`)));
}

type Endpoint = { id: string; url: string; secret: string };

const arrivalsAt = (path: string) => receiver.requests.filter((r) => r.path === path);

async function deliveriesOf(endpointId: string) {
  return server.prisma.webhookDelivery.findMany({
    where: { endpointId },
    select: { id: true, status: true, attempt: true, _count: { select: { attempts: true } } },
  });
}

describe('a rate per endpoint, held across worker processes', () => {
  it('delivers 20 events to a 5-per-second endpoint with at most 5 in any second, each once on its first attempt, while an unlimited endpoint of the store is not slowed; a new rate takes effect', async () => {
    const { key, endpoints } = await storeWithEndpoints(server, [
      receiver.url('/limited'),
      receiver.url('/unlimited'),
    ]);
    const [limited, unlimited] = endpoints as [Endpoint, Endpoint];
    const set = await patch(key, limited.id, { rateLimitPerSecond: 5 });
    expect(set.status).toBe(200);
    expect((await set.json()).data.rateLimitPerSecond).toBe(5);

    await burst(key, 20, 'Rate');
    await receiver.waitFor(20, (r) => r.path === '/unlimited');
    const limitedArrivals = await receiver.waitFor(20, (r) => r.path === '/limited', 30_000);

    // The receiver never had more than 5 requests in one second.
    expect(mostInOneSecond(limitedArrivals.map((r) => r.at))).toBeLessThanOrEqual(5);
    // Every delivery arrived once, each on its first attempt: waiting used no attempt and failed nothing.
    expect(new Set(limitedArrivals.map((r) => r.headers['webhook-id'])).size).toBe(20);
    // The receiver answers before the worker records: wait for the log to say so.
    const deliveries = await eventually(async () => {
      const rows = await deliveriesOf(limited.id);
      return rows.length === 20 && rows.every((row) => row.status !== 'pending') && rows;
    });
    for (const delivery of deliveries) {
      expect({
        status: delivery.status,
        attempt: delivery.attempt,
        attempts: delivery._count.attempts,
      }).toEqual({
        status: 'success',
        attempt: 1,
        attempts: 1,
      });
    }
    // The gates of the three workers admitted 20 attempts, counted in Redis, never more than 5 in a
    // second of Redis's clock either.
    const admitted = admissions.filter((a) => a.endpointId === limited.id);
    expect(admitted).toHaveLength(20);
    expect(admitted.every((a) => a.counted === 'redis')).toBe(true);
    expect(mostInOneSecond(admitted.map((a) => a.atMs))).toBeLessThanOrEqual(5);
    // The unlimited endpoint asked no gate: nothing held its deliveries back. (How fast they then
    // arrived depends on the machine's load, so it is not asserted here.)
    expect(admissions.some((a) => a.endpointId === unlimited.id)).toBe(false);

    // A lower rate holds from the next attempt on.
    expect((await patch(key, limited.id, { rateLimitPerSecond: 2 })).status).toBe(200);
    const before = admissions.length;
    await burst(key, 6, 'Slower');
    await receiver.waitFor(26, (r) => r.path === '/limited', 30_000);
    const slower = admissions.slice(before).filter((a) => a.endpointId === limited.id);
    expect(slower).toHaveLength(6);
    expect(mostInOneSecond(slower.map((a) => a.atMs))).toBeLessThanOrEqual(2);

    // null lifts the limit again.
    const lifted = await patch(key, limited.id, { rateLimitPerSecond: null });
    expect((await lifted.json()).data.rateLimitPerSecond).toBeNull();
    const liftedAt = admissions.length;
    await burst(key, 3, 'Free');
    await receiver.waitFor(29, (r) => r.path === '/limited');
    expect(admissions.length).toBe(liftedAt);
    expect(arrivalsAt('/limited')).toHaveLength(29);
  });

  it('shows the rate on the endpoint (null by default) and refuses a negative, zero, fractional or absurd rate with the field', async () => {
    const { key, endpoints } = await storeWithEndpoints(server, [receiver.url('/shown')]);
    const [endpoint] = endpoints as [Endpoint];
    const shown = await (
      await server.request(`${base}/${endpoint.id}`, { headers: jsonHeaders(key) })
    ).json();
    expect(shown.data.rateLimitPerSecond).toBeNull();

    const created = await server.request(base, {
      method: 'POST',
      headers: jsonHeaders(key),
      body: JSON.stringify({ url: receiver.url('/made'), events: ['*'], rateLimitPerSecond: 1000 }),
    });
    expect(created.status).toBe(201);
    expect((await created.json()).data.rateLimitPerSecond).toBe(1000);

    for (const rateLimitPerSecond of [0, -1, 1001, 1_000_000_000, 2.5, '5']) {
      const res = await patch(key, endpoint.id, { rateLimitPerSecond });
      const json = await res.json();
      expect({ rateLimitPerSecond, status: res.status, code: json.code }).toEqual({
        rateLimitPerSecond,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(json.details.map((d: { path: string }) => d.path)).toContain('input.rateLimitPerSecond');
    }
    const gql = await (
      await server.graphql(
        `mutation { createWebhookEndpoint(input: { url: "${receiver.url('/gql')}", events: ["*"], rateLimitPerSecond: -5 }) { id } }`,
        {},
        key,
      )
    ).json();
    expect(gql.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(gql.errors[0].extensions)).toContain('rateLimitPerSecond');
  });

  it('answers 404 for another store’s endpoint', async () => {
    const { endpoints } = await storeWithEndpoints(server, [receiver.url('/theirs')]);
    const { key: otherKey } = await storeWithEndpoints(server, [receiver.url('/mine')]);
    const [theirs] = endpoints as [Endpoint];
    expect((await patch(otherKey, theirs.id, { rateLimitPerSecond: 1 })).status).toBe(404);
  });
});

describe('without Redis', () => {
  it('each worker process holds the rate alone, with the same slots (documented: N processes may reach N times the rate)', async () => {
    const gate = () =>
      createDeliveryRateGate({ redis: null, logger: createLogger('silent'), keyPrefix: 'x:' });
    const one = gate();
    const admitted = await Promise.all([1, 2, 3].map(() => one.admit('whe_a', 3, 10_000)));
    expect(admitted.map((a) => a.admitted && a.counted)).toEqual(['process', 'process', 'process']);
    // The fourth waits: while the others are in flight their end is unknown, so one slot's share of a second.
    const fourth = await one.admit('whe_a', 3, 10_000);
    expect(fourth).toEqual({ admitted: false, waitMs: 334 });
    // Once their responses are in, the slots free one second after them.
    for (const admission of admitted) if (admission.admitted) await admission.finish();
    const fifth = await one.admit('whe_a', 3, 10_000);
    expect(fifth.admitted).toBe(false);
    expect(!fifth.admitted && fifth.waitMs > 334 && fifth.waitMs <= 1000).toBe(true);
    // The next one refused tries a slot later still: a backlog wakes at the endpoint's rate, not at once.
    const sixth = await one.admit('whe_a', 3, 10_000);
    expect(!sixth.admitted && !fifth.admitted && sixth.waitMs > fifth.waitMs).toBe(true);
    // Another endpoint, and another process, count apart.
    expect((await one.admit('whe_b', 3, 10_000)).admitted).toBe(true);
    expect((await gate().admit('whe_a', 3, 10_000)).admitted).toBe(true);
  });

  it('lets nothing through while Redis does not answer: a rated delivery waits, with one warning', async () => {
    const logs = capturingLogger('warn');
    const dead = connectRedis(`redis://127.0.0.1:${await freePort()}`, createLogger('silent'));
    try {
      const gate = createDeliveryRateGate({
        redis: dead,
        logger: logs.logger,
        keyPrefix: 'x:',
        timeoutMs: 100,
      });
      for (let i = 0; i < 3; i++) {
        const refused = await gate.admit('whe_c', 5, 10_000);
        expect(refused).toEqual({ admitted: false, waitMs: 1000 });
      }
      expect(
        logs.text().match(/redis unavailable; deliveries to endpoints with a rate wait until it answers/g),
      ).toHaveLength(1);
    } finally {
      dead.disconnect();
    }
  });
});
