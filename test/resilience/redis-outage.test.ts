import { Redis } from 'ioredis';
import { connectRedis } from '../../src/redis';
import { storeKey } from '../../src/redis-keys';
import { makeKey, makeStore } from '../helpers/factories';
import { captureLogs, type LogLine, ready } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';
import { gatedProxy, type RedisServer, startRedisServer } from './redis-server';

/**
 * Issue 19 item 3: with Redis gone, requests go on with per-process limits (one warning per outage)
 * and count in Redis again once it is back; requests that arrive before the first connection to Redis
 * wait for it and are counted there. A redis-server of the test's own, stopped and started again.
 */
jest.setTimeout(60_000);

const LIMIT = 5;
const env = { RATE_LIMIT_MAX: String(LIMIT), REDIS_TIMEOUT_MS: '2000' };

let redisServer: RedisServer;
/** A plain connection to look at what the service counted in Redis. */
let inspector: Redis;

beforeAll(async () => {
  redisServer = await startRedisServer();
  inspector = new Redis(redisServer.url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => 200,
  });
  inspector.on('error', () => {});
  await inspector.connect();
});
afterAll(async () => {
  inspector.disconnect();
  await redisServer.stop();
});

const warnings = (lines: LogLine[], message: string) =>
  lines.filter((line) => line.level === 40 && line.msg.startsWith(message)).length;

async function newKey(server: TestServer) {
  const store = await makeStore(server.prisma);
  return { ...(await makeKey(server.prisma, store.id)), storeId: store.id };
}

async function statuses(server: TestServer, key: string, n: number) {
  const answers: number[] = [];
  for (let i = 0; i < n; i++) answers.push((await server.request('/api/v1/category', { key })).status);
  return answers;
}

const countedInRedis = (server: TestServer, key: { keyId: string; storeId: string }) =>
  inspector.zcard(storeKey(`${server.redisKeyPrefix}rl:`, key.storeId, key.keyId));

describe('Redis going away and coming back', () => {
  it('requests go on with per-process limits, one warning per outage, and count in Redis again after', async () => {
    const { logger, lines } = captureLogs('info');
    const redis = connectRedis(redisServer.url, logger, { commandTimeoutMs: 2000 });
    await ready(redis);
    const server = await startTestServer(env, { redis, logger });
    try {
      const before = await newKey(server);
      expect(await statuses(server, before.secret, 3)).toEqual([200, 200, 200]);
      expect(await countedInRedis(server, before)).toBe(3);

      for (const outage of [1, 2]) {
        await redisServer.stop();
        // The limit holds per process: the sixth request of a key in the window is refused.
        const during = await newKey(server);
        expect(await statuses(server, during.secret, LIMIT + 1)).toEqual([...Array(LIMIT).fill(200), 429]);
        expect(await statuses(server, before.secret, 2)).toEqual([200, 200]);
        expect(warnings(lines, 'rate limit and usage: redis unavailable')).toBe(outage);
        const readiness = await server.request('/readyz');
        expect(readiness.status).toBe(200);
        expect(await readiness.json()).toEqual({
          status: 'degraded',
          checks: { postgres: 'ok', redis: 'unreachable' },
        });

        await redisServer.start();
        await ready(redis);
        // The limiter probes Redis again a second after its last failure.
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const after = await newKey(server);
        expect(await statuses(server, after.secret, 3)).toEqual([200, 200, 200]);
        expect(await countedInRedis(server, after)).toBe(3);
        expect(
          lines.filter((line) => line.msg === 'rate limit and usage: redis answering again'),
        ).toHaveLength(outage);
      }
    } finally {
      await server.close();
      redis.disconnect();
    }
  });

  it('requests that arrive before the first connection to Redis wait for it and are counted there', async () => {
    const { logger, lines } = captureLogs('info');
    // Redis accepts the connection but completes no handshake until the gate opens.
    const proxy = await gatedProxy(redisServer.port);
    // A first attempt (connect, then ioredis's ready check, a command) that outlasts setting up the
    // server and the key on a loaded machine: failing first would be an outage, tested above.
    const redis = connectRedis(`redis://127.0.0.1:${proxy.port}`, logger, {
      commandTimeoutMs: 15_000,
      connectTimeoutMs: 15_000,
    });
    const server = await startTestServer(env, { redis, logger });
    try {
      const key = await newKey(server);
      expect(redis.status).not.toBe('ready');
      const requests = Promise.all(
        Array.from({ length: LIMIT }, () => server.request('/api/v1/category', { key: key.secret })),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      proxy.open();
      const first = await requests;
      expect(first.map((res) => res.status)).toEqual(Array(LIMIT).fill(200));
      expect(await countedInRedis(server, key)).toBe(LIMIT);
      const next = await server.request('/api/v1/category', { key: key.secret });
      expect(next.status).toBe(429);
      expect(warnings(lines, 'rate limit and usage: redis unavailable')).toBe(0);
    } finally {
      await server.close();
      redis.disconnect();
      await proxy.close();
    }
  });
});
