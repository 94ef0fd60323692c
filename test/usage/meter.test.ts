import type { Redis } from 'ioredis';
import { connectDatabase, type Database } from '../../src/db/client';
import { connectRedis } from '../../src/redis';
import { admissionOn } from '../helpers/admission';
import { createDatabaseFromTemplate, redisUrl } from '../helpers/databases';
import { makeKey, makeStore } from '../helpers/factories';
import { freePort } from '../helpers/process';
import { captureLogs, deleteKeys, ready, testPrefix, unreachableRedis } from '../helpers/redis-prefix';

const filePrefix = testPrefix('usage');
let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;
let first: Redis;
let second: Redis;
let storeId: string;
let meters = 0;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 5 });
  const { logger } = captureLogs();
  first = connectRedis(redisUrl, logger, { commandTimeoutMs: 2000 });
  second = connectRedis(redisUrl, logger, { commandTimeoutMs: 2000 });
  await Promise.all([ready(first), ready(second)]);
  storeId = (await makeStore(db.prisma)).id;
});
afterAll(async () => {
  await deleteKeys(first, filePrefix);
  await Promise.all([first.quit(), second.quit()]);
  await db.close();
  await database.drop();
});

/**
 * API processes' usage counting (admission, with a rate limit that never refuses, and the usage
 * meter's flush) sharing one Redis namespace of their own (one per test, under this file's prefix).
 */
function metersOn(...connections: (Redis | null)[]) {
  const keyPrefix = `${filePrefix}${meters++}:`;
  return connections.map((redis) => {
    const { record, usage } = admissionOn(redis, { keyPrefix, logger: captureLogs().logger });
    return { record, flush: usage.flush };
  });
}

async function keyWith(fields: { usageLimit?: number | null; usageCount?: number } = {}) {
  const { keyId } = await makeKey(db.prisma, storeId, { usageLimit: fields.usageLimit ?? undefined });
  if (fields.usageCount)
    await db.prisma.apiKey.update({ where: { id: keyId }, data: { usageCount: fields.usageCount } });
  const key = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  return { id: key.id, storeId: key.storeId, usageLimit: key.usageLimit, usageCount: key.usageCount };
}

async function stored(keyId: string) {
  const key = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  const days = await db.prisma.apiKeyDailyUsage.findMany({
    where: { apiKeyId: keyId },
    orderBy: { day: 'asc' },
  });
  return {
    usageCount: key.usageCount,
    lastUsedAt: key.lastUsedAt,
    days: Object.fromEntries(days.map((d) => [d.day.toISOString().slice(0, 10), d.count])),
  };
}

const now = new Date('2026-03-01T12:00:00.000Z');

describe('usage meter on Redis', () => {
  it('allows exactly the usage limit under concurrency across two processes, then flushes it', async () => {
    const [a, b] = metersOn(first, second);
    const key = await keyWith({ usageLimit: 100 });
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, caller) => {
        const meter = caller % 2 === 0 ? a! : b!;
        const mine = [];
        for (let i = 0; i < 5; i++)
          mine.push(await meter.record(key, new Date(now.getTime() + caller * 10 + i)));
        return mine;
      }),
    );
    const allowed = results.flat().filter((r) => r.allowed);
    expect(allowed).toHaveLength(100);
    expect(new Set(allowed.map((r) => r.used))).toEqual(
      new Set(Array.from({ length: 100 }, (_, i) => i + 1)),
    );
    expect(
      results
        .flat()
        .filter((r) => !r.allowed)
        .every((r) => r.used === 100),
    ).toBe(true);

    expect(await a!.flush(db.prisma)).toBe(1);
    const after = await stored(key.id);
    expect(after).toEqual({ usageCount: 100n, lastUsedAt: expect.any(Date), days: { '2026-03-01': 100n } });
    expect(after.lastUsedAt!.getTime()).toBeGreaterThan(now.getTime());
    expect(after.lastUsedAt!.getTime()).toBeLessThanOrEqual(now.getTime() + 49 * 10 + 4);

    // Nothing new: a second flush writes nothing and changes nothing.
    expect(await b!.flush(db.prisma)).toBe(0);
    expect(await stored(key.id)).toEqual(after);
    // The limit still holds after the flush, on either process.
    expect(await b!.record({ ...key, usageCount: 100n }, now)).toEqual({ allowed: false, used: 100 });
  });

  it('refuses at once a key whose stored usage count already reached its limit', async () => {
    const [meter] = metersOn(first);
    const key = await keyWith({ usageLimit: 100, usageCount: 100 });
    expect(await meter!.record(key, now)).toEqual({ allowed: false, used: 100 });
    expect(await meter!.flush(db.prisma)).toBe(0);
    expect((await stored(key.id)).usageCount).toBe(100n);
  });

  it('counts keys without a limit, and seeds the running total from the stored count', async () => {
    const [meter] = metersOn(first);
    const key = await keyWith({ usageCount: 41 });
    expect(await meter!.record(key, now)).toEqual({ allowed: true, used: 42 });
    expect(await meter!.record(key, now)).toEqual({ allowed: true, used: 43 });
    // A stale stored count (read before the flush) never lowers the running total.
    expect(await meter!.record({ ...key, usageCount: 0n }, now)).toEqual({ allowed: true, used: 44 });
    // A stored count ahead of Redis (usage counted in memory during an outage and flushed) raises it.
    expect(await meter!.record({ ...key, usageCount: 60n }, now)).toEqual({ allowed: true, used: 61 });
    expect(await meter!.flush(db.prisma)).toBe(1);
    expect((await stored(key.id)).usageCount).toBe(45n);
  });

  it('splits daily buckets at UTC midnight, adds to existing buckets and keeps the latest lastUsedAt', async () => {
    const [meter] = metersOn(first);
    const key = await keyWith();
    const beforeMidnight = new Date('2026-03-01T23:59:59.500Z');
    const afterMidnight = new Date('2026-03-02T00:00:00.250Z');
    for (let i = 0; i < 3; i++) await meter!.record(key, beforeMidnight);
    for (let i = 0; i < 2; i++) await meter!.record(key, afterMidnight);
    expect(await meter!.flush(db.prisma)).toBe(1);
    expect(await stored(key.id)).toEqual({
      usageCount: 5n,
      lastUsedAt: afterMidnight,
      days: { '2026-03-01': 3n, '2026-03-02': 2n },
    });

    // A late request of the earlier day adds to its bucket and does not move lastUsedAt back.
    await meter!.record(key, beforeMidnight);
    await meter!.record(key, afterMidnight);
    expect(await meter!.flush(db.prisma)).toBe(1);
    expect(await stored(key.id)).toEqual({
      usageCount: 7n,
      lastUsedAt: afterMidnight,
      days: { '2026-03-01': 4n, '2026-03-02': 3n },
    });
  });

  it('skips a key deleted before the flush and still writes the others', async () => {
    const [meter] = metersOn(first);
    const [gone, kept] = [await keyWith(), await keyWith()];
    await meter!.record(gone, now);
    await meter!.record(kept, now);
    await db.prisma.apiKey.delete({ where: { id: gone.id } });
    expect(await meter!.flush(db.prisma)).toBe(1);
    expect((await stored(kept.id)).usageCount).toBe(1n);
    expect(await db.prisma.apiKeyDailyUsage.count({ where: { apiKeyId: gone.id } })).toBe(0);
    expect(await meter!.flush(db.prisma)).toBe(0);
  });

  it('puts usage back when PostgreSQL cannot take it, and the next flush writes it', async () => {
    const [meter] = metersOn(first);
    const key = await keyWith();
    await meter!.record(key, now);
    await meter!.record(key, now);
    const unreachable = connectDatabase(`postgresql://postgres@127.0.0.1:${await freePort()}/none`, {
      max: 1,
    });
    try {
      await expect(meter!.flush(unreachable.prisma)).rejects.toThrow();
    } finally {
      await unreachable.close().catch(() => {});
    }
    await meter!.record(key, now);
    expect(await meter!.flush(db.prisma)).toBe(1);
    expect(await stored(key.id)).toMatchObject({ usageCount: 3n, days: { '2026-03-01': 3n } });
  });
});

describe('usage meter without Redis', () => {
  it('counts in process memory with the same rules, and flush writes it', async () => {
    const [meter] = metersOn(null);
    const key = await keyWith({ usageLimit: 3, usageCount: 1 });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await meter!.record(key, now));
    expect(results).toEqual([
      { allowed: true, used: 2 },
      { allowed: true, used: 3 },
      { allowed: false, used: 3 },
      { allowed: false, used: 3 },
    ]);
    expect(await meter!.flush(db.prisma)).toBe(1);
    expect(await stored(key.id)).toEqual({ usageCount: 3n, lastUsedAt: now, days: { '2026-03-01': 2n } });
    expect(await meter!.flush(db.prisma)).toBe(0);
  });

  it('falls back to memory while Redis is unreachable, warns once, and flush still writes that usage', async () => {
    const redis = await unreachableRedis();
    try {
      const { logger, lines } = captureLogs();
      const { record, usage } = admissionOn(redis, { keyPrefix: `${filePrefix}down:`, logger });
      const meter = { record, flush: usage.flush };
      const key = await keyWith({ usageLimit: 2 });
      const results = [];
      for (let i = 0; i < 3; i++) results.push(await meter.record(key, now));
      expect(results.map((r) => r.allowed)).toEqual([true, true, false]);
      expect(
        lines.filter(
          (line) => line.level === 40 && line.msg.startsWith('rate limit and usage: redis unavailable'),
        ),
      ).toHaveLength(1);
      expect(await meter.flush(db.prisma)).toBe(1);
      expect((await stored(key.id)).usageCount).toBe(2n);
    } finally {
      redis.disconnect();
    }
  });
});
