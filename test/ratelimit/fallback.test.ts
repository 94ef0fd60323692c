import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { RedisGuard } from '../../src/ratelimit/redis-guard';
import { connectRedis } from '../../src/redis';
import { admissionOn } from '../helpers/admission';
import { redisUrl } from '../helpers/databases';
import { freePort } from '../helpers/process';
import { captureLogs, deleteKeys, ready, testPrefix, unreachableRedis } from '../helpers/redis-prefix';

const prefix = testPrefix('ratelimit-fallback');
const t0 = Date.UTC(2026, 2, 1, 12, 0, 0);
/** The 100 ms Redis timeout plus what a loaded CI machine may add to a timer (it once added 64 ms). */
const GIVES_UP_WITHIN_MS = 300;
const newKey = () => `key_${randomBytes(8).toString('hex')}`;

const limiterWarnings = (lines: { msg: string; level: number }[]) =>
  lines.filter((line) => line.level === 40 && line.msg.startsWith('rate limit and usage:'));

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

describe('rate limiter when Redis is unreachable', () => {
  let redis: Redis;
  afterEach(() => redis?.disconnect());

  it('answers from process memory within ~100 ms, holds the limit, and warns once per outage', async () => {
    const { logger, lines } = captureLogs();
    redis = await unreachableRedis();
    const rateLimiter = admissionOn(redis, {
      keyPrefix: prefix,
      logger,
      max: 5,
      windowSeconds: 60,
      redisTimeoutMs: 100,
    });
    const key = newKey();

    const results = [];
    for (let i = 0; i < 8; i++) results.push(await timed(() => rateLimiter.consume(key, t0 + i)));
    for (const { ms } of results) expect(ms).toBeLessThan(GIVES_UP_WITHIN_MS);
    expect(results.map((r) => r.value.source)).toEqual(Array(8).fill('memory'));
    expect(results.map((r) => r.value.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(results[5]!.value).toMatchObject({ remaining: 0, resetSeconds: 60, retryAfterSeconds: 60 });
    expect(limiterWarnings(lines)).toHaveLength(1);
  });
});

/** A TCP proxy to the real Redis that, once hung, swallows every command: a Redis that stops answering. */
async function hangingProxy(): Promise<{ port: number; hang(): void; close(): Promise<void> }> {
  const target = new URL(redisUrl);
  const sockets = new Set<Socket>();
  let hung = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    sockets.add(client).add(upstream);
    upstream.pipe(client);
    client.on('data', (chunk) => {
      if (!hung) upstream.write(chunk);
    });
    for (const socket of [client, upstream]) {
      socket.on('error', () => {});
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    hang: () => {
      hung = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('rate limiter when Redis stops answering', () => {
  it('gives up after ~100 ms, then skips Redis while it is down instead of waiting on every request', async () => {
    const proxy = await hangingProxy();
    const redis = connectRedis(`redis://127.0.0.1:${proxy.port}`, captureLogs().logger);
    try {
      await ready(redis);
      const { logger, lines } = captureLogs();
      const rateLimiter = admissionOn(redis, {
        keyPrefix: prefix,
        logger,
        max: 3,
        windowSeconds: 60,
        redisTimeoutMs: 100,
      });
      const key = newKey();
      expect(await rateLimiter.consume(key, t0)).toMatchObject({ allowed: true, source: 'redis' });

      proxy.hang();
      const slow = await timed(() => rateLimiter.consume(key, t0 + 1));
      expect(slow.ms).toBeGreaterThanOrEqual(90);
      expect(slow.ms).toBeLessThan(GIVES_UP_WITHIN_MS);
      expect(slow.value).toMatchObject({ allowed: true, source: 'memory' });
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await timed(() => rateLimiter.consume(key, t0 + 2 + i)));
      // Well under the timeout: Redis is not asked while it is known to be down.
      for (const { ms } of results) expect(ms).toBeLessThan(60);
      // The memory window started at the outage: two more fit, then it holds.
      expect(results.map((r) => r.value.allowed)).toEqual([true, true, false, false, false]);
      expect(results.every((r) => r.value.source === 'memory')).toBe(true);
      expect(limiterWarnings(lines)).toHaveLength(1);
    } finally {
      redis.disconnect();
      await proxy.close();
      const cleanup = connectRedis(redisUrl, captureLogs().logger);
      await ready(cleanup);
      await deleteKeys(cleanup, prefix);
      await cleanup.quit();
    }
  });
});

describe('RedisGuard', () => {
  it('logs one warning when an outage starts and one line when Redis answers again', async () => {
    const { logger, lines } = captureLogs();
    const guard = new RedisGuard(logger, 'test', { timeoutMs: 50, retryMs: 0 });
    const failing = () => Promise.reject(new Error('connection refused'));
    expect(await guard.attempt(failing)).toBeUndefined();
    expect(await guard.attempt(failing)).toBeUndefined();
    expect(await guard.attempt(() => new Promise(() => {}))).toBeUndefined(); // never answers: cut off
    expect(await guard.attempt(() => Promise.resolve('ok'))).toBe('ok');
    expect(await guard.attempt(failing)).toBeUndefined();
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [40, 'test: redis unavailable; counting in this process until it answers'],
      [30, 'test: redis answering again'],
      [40, 'test: redis unavailable; counting in this process until it answers'],
    ]);
  });

  it('skips Redis for the retry interval after a failure, then lets one request probe it', async () => {
    const guard = new RedisGuard(captureLogs().logger, 'test', { timeoutMs: 50, retryMs: 60_000 });
    let calls = 0;
    const counted = () => {
      calls++;
      return Promise.reject(new Error('down'));
    };
    await guard.attempt(counted);
    await guard.attempt(counted);
    await guard.attempt(counted);
    expect(calls).toBe(1);
  });
});
