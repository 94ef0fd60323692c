import type { Cluster } from 'ioredis';
import { createCostBudget } from '../../src/cost/budget';
import { connectRedis } from '../../src/redis';
import { storeShard } from '../../src/redis-keys';
import { admissionOn } from '../helpers/admission';
import { makeKey, makeStore } from '../helpers/factories';
import { type RedisCluster, startRedisCluster } from '../helpers/redis-cluster';
import { captureLogs, ready } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';

// The hash slot ioredis routes a key by; cluster-key-slot ships no types.
const keySlot: (key: string) => number = require('cluster-key-slot');

/**
 * Issue 34 item 3, README "Redis Cluster": on a cluster of three primaries, two API processes keep the
 * limits exact (sliding window, usage, cost budget), revocation and the read cache's invalidation
 * reach the other process at once, and a primary going down is a Redis outage for its stores (the
 * per-process fallback), over until it is back.
 */

const RATE_LIMIT = 6;
let cluster: RedisCluster;
const connections: Cluster[] = [];
let a: TestServer;
let b: TestServer;
/** A store on each primary, each with a key. */
let stores: Array<{ storeId: string; keyId: string; secret: string }>;

beforeAll(async () => {
  cluster = await startRedisCluster();
  const { logger } = captureLogs();
  const connect = async () => {
    const connection = connectRedis({ clusterNodes: cluster.nodes }, logger, {
      commandTimeoutMs: 2000,
    }) as Cluster;
    connections.push(connection);
    await ready(connection as never);
    return connection;
  };
  const env = {
    RATE_LIMIT_MAX: String(RATE_LIMIT),
    // A loaded machine must not trip the fallback (counting per process): exactness is what is tested.
    REDIS_TIMEOUT_MS: '5000',
    READ_CACHE_TTL_MS: '60000',
    AUTH_CACHE_TTL_MS: '60000',
  };
  a = await startTestServer(env, { redis: await connect() });
  b = await startTestServer(env, { redis: await connect(), shareWith: a });
  stores = await storesOnEveryNode();
}, 60_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  for (const connection of connections) connection.disconnect();
  await cluster?.stop();
}, 30_000);

/** A response's status; with its error code when it is neither an answer nor a 429 (shown on failure). */
const answer = async (res: Response) =>
  res.status === 200 || res.status === 429 ? res.status : `${res.status} ${await res.text()}`;

/** Which primary (its "host:port") serves the store's shard. */
const nodeOf = (storeId: string) => connections[0]!.slots[keySlot(`{s${storeShard(storeId)}}`)]![0]!;

/** Stores with a key each until every primary serves at least one of them. */
async function storesOnEveryNode() {
  const byNode = new Map<string, { storeId: string; keyId: string; secret: string }>();
  while (byNode.size < cluster.nodes.length) {
    const store = await makeStore(a.prisma);
    const key = await makeKey(a.prisma, store.id);
    byNode.set(nodeOf(store.id), { storeId: store.id, keyId: key.keyId, secret: key.secret });
  }
  return [...byNode.values()];
}

describe('two API processes on a Redis Cluster', () => {
  it('hold each key to the sliding window exactly, and count exactly the admitted requests as usage', async () => {
    const keys = stores;
    const sent = RATE_LIMIT * 3;
    for (const key of keys) {
      const statuses = await Promise.all(
        Array.from({ length: sent }, (_, i) =>
          (i % 2 === 0 ? a : b).request('/api/v1/category', { key: key.secret }).then(answer),
        ),
      );
      expect(statuses.sort()).toEqual([
        ...Array(RATE_LIMIT).fill(200),
        ...Array(sent - RATE_LIMIT).fill(429),
      ]);
    }
    // One process's flush visits every shard on every node.
    await a.runtime.usage.flush(a.prisma);
    for (const key of keys) {
      const row = await a.prisma.apiKey.findUniqueOrThrow({ where: { id: key.keyId } });
      expect(row.usageCount).toBe(BigInt(RATE_LIMIT));
    }
  });

  it('keep the cost budget exact across both', async () => {
    const { logger } = captureLogs();
    const budgets = connections.map(
      (redis) =>
        createCostBudget({
          redis,
          points: 100,
          windowSeconds: 60,
          keyPrefix: `${a.redisKeyPrefix}budget:`,
          logger,
          redisTimeoutMs: 2000,
        })!,
    );
    const now = new Date();
    for (const { storeId, keyId } of stores) {
      const decisions = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          budgets[i % 2]!.charge(budgets[i % 2]!.prepare({ storeId, name: keyId }, 30, now)),
        ),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
    }
  });

  it('revoke a key in the other process at once', async () => {
    const [store] = stores;
    const admin = await makeKey(a.prisma, store!.storeId);
    const other = await makeKey(a.prisma, store!.storeId, { keyName: 'target' });
    expect((await b.request('/api/v1/category', { key: other.secret })).status).toBe(200);
    const revoked = await a.request(`/api/v1/api-key/${other.keyId}/revoke`, {
      method: 'POST',
      key: admin!.secret,
    });
    expect(revoked.ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const res = await b.request('/api/v1/category', { key: other.secret });
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('API_KEY_REVOKED');
  });

  it("make a store's cached reads stale in the other process after a write", async () => {
    for (const { storeId } of stores) {
      const { secret } = await makeKey(a.prisma, storeId);
      const names = async () =>
        (
          (await (await b.request('/api/v1/category', { key: secret })).json()).data as Array<{
            name: string;
          }>
        ).map((category) => category.name);
      expect(await names()).toEqual([]);
      expect(await names()).toEqual([]); // now answered from b's cache
      expect((await a.send('POST', '/api/v1/category', { name: 'Boots' }, secret)).status).toBe(201);
      expect(await names()).toEqual(['Boots']);
    }
  });
});

describe('a primary going down', () => {
  it("is an outage for its stores' limits (per-process fallback), and they count in Redis again once it is back", async () => {
    const { logger } = captureLogs();
    const process = admissionOn(connections[0]! as never, {
      keyPrefix: `${a.redisKeyPrefix}down:`,
      logger,
      max: 3,
      redisTimeoutMs: 300,
    });
    const [down] = stores;
    const index = cluster.nodes.indexOf(nodeOf(down!.storeId));
    const key = { id: down!.keyId, storeId: down!.storeId, usageLimit: null, usageCount: 0n };
    expect((await process.admission.admit(key, new Date())).rateLimit.source).toBe('redis');
    await cluster.stopNode(index);
    try {
      // Answered, from this process's own window: the limit still holds here (max 3).
      const during = [];
      for (let i = 0; i < 4; i++) during.push((await process.admission.admit(key, new Date())).rateLimit);
      expect(during.map((decision) => decision.source)).toEqual(['memory', 'memory', 'memory', 'memory']);
      expect(during.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
    } finally {
      await cluster.startNode(index);
    }
    const other = { ...key, id: `${key.id}-after` };
    const deadline = Date.now() + 15_000;
    let source = 'memory';
    while (source !== 'redis' && Date.now() < deadline) {
      source = (await process.admission.admit(other, new Date())).rateLimit.source;
      if (source !== 'redis') await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(source).toBe('redis');
  }, 40_000);
});
