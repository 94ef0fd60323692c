import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis } from '../../src/redis';
import { storeKey } from '../../src/redis-keys';
import { admissionOn } from '../helpers/admission';
import { redisUrl } from '../helpers/databases';
import { captureLogs, deleteKeys, ready, testPrefix } from '../helpers/redis-prefix';

const prefix = testPrefix('ratelimit');
const { logger } = captureLogs();
let first: Redis;
let second: Redis;

beforeAll(async () => {
  first = connectRedis(redisUrl, logger, { commandTimeoutMs: 2000 });
  second = connectRedis(redisUrl, logger, { commandTimeoutMs: 2000 });
  await Promise.all([ready(first), ready(second)]);
});
afterAll(async () => {
  await deleteKeys(first, prefix);
  await Promise.all([first.quit(), second.quit()]);
});

const t0 = Date.UTC(2026, 2, 1, 12, 0, 0);
const newKey = () => `key_${randomBytes(8).toString('hex')}`;
/** The rate limit as API processes apply it: the admission step, for keys without a usage limit. */
const limiter = (redis: Redis | null, max = 140, windowSeconds = 60) =>
  admissionOn(redis, { keyPrefix: prefix, logger, max, windowSeconds });

describe('rate limiter on Redis (exact sliding window)', () => {
  it('allows 140 requests, rejects the 141st until the oldest leaves the window, then allows one more', async () => {
    const rateLimiter = limiter(first);
    const key = newKey();
    const decisions = [];
    for (let i = 0; i < 140; i++) decisions.push(await rateLimiter.consume(key, t0 + i));
    expect(decisions.every((d) => d.allowed && d.source === 'redis')).toBe(true);
    expect(decisions[0]).toEqual({
      allowed: true,
      limit: 140,
      remaining: 139,
      resetSeconds: 60,
      source: 'redis',
    });
    expect(decisions[139]).toMatchObject({ remaining: 0, resetSeconds: 60 });

    // 20.25 s later the oldest (t0) leaves at t0 + 60 s: 39.75 s, rounded up.
    expect(await rateLimiter.consume(key, t0 + 20_250)).toEqual({
      allowed: false,
      limit: 140,
      remaining: 0,
      resetSeconds: 40,
      retryAfterSeconds: 40,
      source: 'redis',
    });
    expect(await rateLimiter.consume(key, t0 + 59_999)).toMatchObject({ allowed: false, resetSeconds: 1 });
    // Exactly when the oldest leaves, one more fits; the next oldest (t0 + 1) still holds the window.
    expect(await rateLimiter.consume(key, t0 + 60_000)).toMatchObject({
      allowed: true,
      remaining: 0,
      resetSeconds: 1,
    });
    expect(await rateLimiter.consume(key, t0 + 60_000)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 1,
    });
  });

  it('frees only the requests that left the window when they are spread over time', async () => {
    const rateLimiter = limiter(first);
    const key = newKey();
    const allowedAt = async (nowMs: number, n: number) => {
      let allowed = 0;
      for (let i = 0; i < n; i++) if ((await rateLimiter.consume(key, nowMs)).allowed) allowed++;
      return allowed;
    };
    expect(await allowedAt(t0, 70)).toBe(70);
    expect(await allowedAt(t0 + 30_000, 70)).toBe(70);
    expect(await rateLimiter.consume(key, t0 + 30_000)).toMatchObject({ allowed: false, resetSeconds: 30 });
    // At t0 + 60 s the first 70 have left: 70 more pass, not 140.
    expect(await allowedAt(t0 + 60_000, 140)).toBe(70);
    expect(await rateLimiter.consume(key, t0 + 60_000)).toMatchObject({ allowed: false, resetSeconds: 30 });
  });

  it('shares one window between processes: 200 concurrent requests on two connections allow exactly 140', async () => {
    const a = limiter(first);
    const b = limiter(second);
    const key = newKey();
    const decisions = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).consume(key, t0 + (i % 7))),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(140);
    expect(decisions.every((d) => d.source === 'redis')).toBe(true);
    expect(await a.consume(key, t0 + 10)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('keeps one window per key and expires the sorted set with the window', async () => {
    const rateLimiter = limiter(first, 2, 60);
    const [k1, k2] = [newKey(), newKey()];
    await rateLimiter.consume(k1, t0);
    await rateLimiter.consume(k1, t0);
    expect((await rateLimiter.consume(k1, t0)).allowed).toBe(false);
    expect((await rateLimiter.consume(k2, t0)).allowed).toBe(true);
    const ttl = await first.pttl(storeKey(`${prefix}rl:`, 'str_test', k1));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });
});

describe('rate limiter without Redis', () => {
  it('keeps the same exact window in process memory when no Redis is configured', async () => {
    const rateLimiter = limiter(null, 3, 10);
    const key = newKey();
    for (let i = 0; i < 3; i++) {
      expect(await rateLimiter.consume(key, t0 + i * 1000)).toMatchObject({
        allowed: true,
        source: 'memory',
      });
    }
    expect(await rateLimiter.consume(key, t0 + 2500)).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetSeconds: 8,
      retryAfterSeconds: 8,
      source: 'memory',
    });
    expect(await rateLimiter.consume(key, t0 + 10_000)).toMatchObject({
      allowed: true,
      remaining: 0,
      resetSeconds: 1,
    });
    expect((await rateLimiter.consume(key, t0 + 10_000)).allowed).toBe(false);
    expect((await rateLimiter.consume(newKey(), t0 + 10_000)).allowed).toBe(true);
  });
});
