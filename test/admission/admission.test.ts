import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { type CostBudget, createCostBudget } from '../../src/cost/budget';
import { DataVersions } from '../../src/read-cache/data-version';
import { connectRedis } from '../../src/redis';
import type { MeteredKey } from '../../src/usage/pending';
import { admissionOn } from '../helpers/admission';
import { redisUrl } from '../helpers/databases';
import { captureLogs, commandsSent, deleteKeys, ready, testPrefix } from '../helpers/redis-prefix';

const prefix = testPrefix('admission');
const { logger } = captureLogs();
let redis: Redis;

beforeAll(async () => {
  redis = connectRedis(redisUrl, logger, { commandTimeoutMs: 2000 });
  await ready(redis);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

const t0 = new Date('2026-03-01T12:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const newKey = (fields: Partial<MeteredKey> = {}): MeteredKey => ({
  id: `key_${randomBytes(8).toString('hex')}`,
  storeId: `str_${randomBytes(8).toString('hex')}`,
  usageLimit: null,
  usageCount: 0n,
  ...fields,
});
let namespaces = 0;
const namespace = () => `${prefix}${namespaces++}:`;

/** A query-cost budget of `points` a minute on the namespace (no Redis: in memory). */
const budgetOn = (connection: Redis | null, keyPrefix: string, points: number) =>
  createCostBudget({
    redis: connection,
    points,
    windowSeconds: 60,
    keyPrefix: `${keyPrefix}cost:`,
    logger,
  }) as CostBudget;

const commandNames = async (connection: Redis, body: () => Promise<unknown>) =>
  (await commandsSent(connection, body)).map((command) => command.name);

describe.each([
  ['in Redis', () => redis],
  ['in process memory (no Redis)', () => null],
])('admission %s', (_where, connection) => {
  it('does not count a request the rate limit refuses as usage', async () => {
    const { admission } = admissionOn(connection(), { keyPrefix: namespace(), logger, max: 2 });
    const key = newKey({ usageLimit: 10 });
    const first = await admission.admit(key, t0);
    const second = await admission.admit(key, later(1));
    const refused = await admission.admit(key, later(2));
    expect([first.usage, second.usage]).toEqual([
      { allowed: true, used: 1 },
      { allowed: true, used: 2 },
    ]);
    expect(refused.rateLimit).toMatchObject({ allowed: false, retryAfterSeconds: 60 });
    expect(refused.usage).toBeUndefined();
    // Once the window has room again, the next request is the third counted, not the fourth.
    expect((await admission.admit(key, later(60_000))).usage).toEqual({ allowed: true, used: 3 });
  });

  it('counts a request the usage limit refuses in the rate-limit window all the same', async () => {
    const { admission } = admissionOn(connection(), { keyPrefix: namespace(), logger, max: 5 });
    const key = newKey({ usageLimit: 1 });
    expect((await admission.admit(key, t0)).usage).toEqual({ allowed: true, used: 1 });
    const overQuota = await admission.admit(key, later(1));
    expect(overQuota.usage).toEqual({ allowed: false, used: 1 });
    expect(overQuota.rateLimit).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('counts a request that stands for n (an MCP batch) n times, or not at all when n do not fit', async () => {
    const { admission } = admissionOn(connection(), { keyPrefix: namespace(), logger, max: 10 });
    const key = newKey({ usageLimit: 12 });
    const batch = await admission.admit(key, t0, { requests: 7 });
    expect(batch.rateLimit).toMatchObject({ allowed: true, remaining: 3 });
    expect(batch.usage).toEqual({ allowed: true, used: 7 });
    const tooMany = await admission.admit(key, later(1), { requests: 4 });
    expect(tooMany.rateLimit).toMatchObject({ allowed: false, remaining: 3 });
    expect(tooMany.usage).toBeUndefined();
    // Nothing of the refused batch was counted: three single requests still fit in the window.
    for (let i = 0; i < 3; i++)
      expect((await admission.admit(key, later(2 + i))).rateLimit.allowed).toBe(true);
    // After the window, the usage limit (12, 10 used) refuses a batch of 3 whole and takes one of 2.
    const overUsage = await admission.admit(key, later(60_010), { requests: 3 });
    expect(overUsage.usage).toEqual({ allowed: false, used: 10 });
    expect((await admission.admit(key, later(60_011), { requests: 2 })).usage).toEqual({
      allowed: true,
      used: 12,
    });
  });

  it('charges the cost budget carried with a request only when the request is admitted', async () => {
    const keyPrefix = namespace();
    const { admission } = admissionOn(connection(), { keyPrefix, logger, max: 2 });
    const budget = budgetOn(connection(), keyPrefix, 100);
    const key = newKey({ usageLimit: 100 });
    const charge = (at: Date, cost: number) =>
      budget.prepare({ storeId: key.storeId, name: key.id }, cost, at);
    const first = await admission.admit(key, t0, { budget: charge(t0, 60) });
    expect(first.costBudget).toMatchObject({ allowed: true, limit: 100, remaining: 40 });
    const over = await admission.admit(key, later(1), { budget: charge(later(1), 60) });
    expect(over.costBudget).toMatchObject({ allowed: false, remaining: 40, retryAfterSeconds: 60 });
    // The rate limit (2) refuses the third: nothing is charged, and the budget's 40 are still there.
    const refused = await admission.admit(key, later(2), { budget: charge(later(2), 10) });
    expect(refused.rateLimit.allowed).toBe(false);
    expect(refused.costBudget).toBeUndefined();
    expect(await budget.charge(charge(later(3), 40))).toMatchObject({ allowed: true, remaining: 0 });

    const session = { staffUserId: `stf_${randomBytes(6).toString('hex')}`, storeId: 'str_x' };
    const staff = await admission.admitSession(session, t0, {
      budget: budget.prepare({ storeId: session.storeId, name: `staff:${session.staffUserId}` }, 30, t0),
    });
    expect(staff.costBudget).toMatchObject({ allowed: true, remaining: 70 });
  });

  it('counts a session request that stands for n n times', async () => {
    const { admission } = admissionOn(connection(), { keyPrefix: namespace(), logger, max: 5 });
    const session = { staffUserId: `stf_${randomBytes(6).toString('hex')}`, storeId: 'str_x' };
    expect((await admission.admitSession(session, t0, { requests: 5 })).rateLimit.remaining).toBe(0);
    expect((await admission.admitSession(session, later(1))).rateLimit.allowed).toBe(false);
  });
});

describe('admission in Redis', () => {
  it('is one command per request, the store data version included when asked for', async () => {
    const keyPrefix = namespace();
    const versions = new DataVersions(redis, { keyPrefix: `${keyPrefix}version:`, timeoutMs: 2000, logger });
    const { admission } = admissionOn(redis, { keyPrefix, logger, dataVersions: versions });
    const key = newKey({ usageLimit: 100 });
    await admission.admit(key, t0); // the script is loaded on the first call (EVALSHA, then EVAL)

    let result: Awaited<ReturnType<typeof admission.admit>> | undefined;
    const sent = await commandNames(redis, async () => {
      result = await admission.admit(key, later(1), { withDataVersion: true });
    });
    expect(sent).toEqual(['evalsha']);
    expect(result).toMatchObject({ rateLimit: { allowed: true }, usage: { allowed: true, used: 2 } });
    // The cost budget's charge too, in the same command
    const budget = budgetOn(redis, keyPrefix, 1000);
    const charged = await commandNames(redis, async () => {
      result = await admission.admit(key, later(2), {
        withDataVersion: true,
        budget: budget.prepare({ storeId: key.storeId, name: key.id }, 250, later(2)),
      });
    });
    expect(charged).toEqual(['evalsha']);
    expect(result).toMatchObject({ usage: { used: 3 }, costBudget: { allowed: true, remaining: 750 } });
    expect(result!.dataVersion).toEqual(expect.any(String));
    expect(result!.dataVersion).toEqual(expect.any(String));
    // The same version a session's request reads; a replacement shows at the next request.
    expect(await versions.current(key.storeId)).toBe(result!.dataVersion);
    await versions.bump(key.storeId);
    const next = await admission.admit(key, later(2), { withDataVersion: true });
    expect(next.dataVersion).toBe(await versions.current(key.storeId));
    expect(next.dataVersion).not.toBe(result!.dataVersion);
  });

  it('reads no data version for a refused request, nor when the read cache is off', async () => {
    const keyPrefix = namespace();
    const versions = new DataVersions(redis, { keyPrefix: `${keyPrefix}version:`, timeoutMs: 2000, logger });
    const { admission } = admissionOn(redis, { keyPrefix, logger, max: 1, dataVersions: versions });
    const key = newKey({ usageLimit: 100 });
    expect((await admission.admit(key, t0, { withDataVersion: true })).dataVersion).toEqual(
      expect.any(String),
    );
    expect((await admission.admit(key, later(1), { withDataVersion: true })).dataVersion).toBeUndefined();

    const overQuota = newKey({ usageLimit: 1, usageCount: 1n });
    const refusedByQuota = await admission.admit(overQuota, t0, { withDataVersion: true });
    expect(refusedByQuota.usage).toEqual({ allowed: false, used: 1 });
    expect(refusedByQuota.dataVersion).toBeUndefined();
    expect(await redis.exists(versions.key(overQuota.storeId))).toBe(0);

    const cacheOff = admissionOn(redis, { keyPrefix: namespace(), logger });
    const other = newKey();
    expect(
      (await cacheOff.admission.admit(other, t0, { withDataVersion: true })).dataVersion,
    ).toBeUndefined();
  });

  it('sends the admissions of one event-loop turn in one socket write, each with its own answer', async () => {
    const { admission } = admissionOn(redis, { keyPrefix: namespace(), logger, max: 1 });
    const key = newKey();
    await admission.admit(key, t0); // loads the script on this connection
    const socket = redis.stream as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const writes: number[] = [];
    const spies = (['_write', '_writev'] as const).map((method) => {
      const original = socket[method];
      socket[method] = function (this: unknown, ...args: unknown[]) {
        writes.push(method === '_writev' ? (args[0] as unknown[]).length : 1);
        return original.apply(this, args);
      };
      return () => {
        socket[method] = original;
      };
    });
    try {
      const others = [newKey(), newKey(), newKey(), newKey()];
      const results = await Promise.all([key, ...others].map((each) => admission.admit(each, later(1))));
      // The first key's window (max 1) is full; the others each have room.
      expect(results.map((r) => r.rateLimit.allowed)).toEqual([false, true, true, true, true]);
      expect(writes).toEqual([5]);
    } finally {
      for (const restore of spies) restore();
    }
  });
});
