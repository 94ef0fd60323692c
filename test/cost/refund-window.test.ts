import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { type CostBudget, type CostDecision, createCostBudget } from '../../src/cost/budget';
import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import { redisUrl } from '../helpers/databases';
import { deleteKeys, ready, testPrefix } from '../helpers/redis-prefix';

/**
 * Issue 32 item 3, the window itself (src/cost/budget.ts, src/cost/budget.lua.ts): the requested
 * cost is reserved before execution and the difference to the actual cost given back after it, in
 * the same sliding window — so what is left is always the budget less the actual costs still in the
 * window — in Redis and in one process's memory alike.
 */
const POINTS = 1000;
const WINDOW_SECONDS = 60;
const WINDOW_MS = WINDOW_SECONDS * 1000;

let redis: Redis;
const prefix = testPrefix('refund');
beforeAll(async () => {
  redis = connectRedis(redisUrl, createLogger('silent'), { commandTimeoutMs: 2000 });
  await ready(redis);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

const budgets: Array<[string, () => CostBudget]> = [
  [
    'in Redis',
    () =>
      createCostBudget({
        redis,
        points: POINTS,
        windowSeconds: WINDOW_SECONDS,
        keyPrefix: prefix,
        logger: createLogger('silent'),
        redisTimeoutMs: 2000,
      }) as CostBudget,
  ],
  [
    'in one process’s memory',
    () =>
      createCostBudget({
        redis: null,
        points: POINTS,
        windowSeconds: WINDOW_SECONDS,
        keyPrefix: prefix,
        logger: createLogger('silent'),
      }) as CostBudget,
  ],
];

let holders = 0;
const newHolder = () => `holder-${process.pid}-${holders++}`;

describe.each(budgets)('reserve and refund %s', (where, make) => {
  let budget: CostBudget;
  // Made once the connection is (describe's body runs before beforeAll)
  beforeAll(() => {
    budget = make();
  });
  const charge = (holder: string, cost: number, at: number) =>
    budget.charge(budget.prepare({ storeId: 'str_refund', name: holder }, cost, new Date(at)));
  const refund = async (charged: CostDecision, actual: number, at: number) =>
    (await budget.refund(charged, actual, new Date(at))) ?? charged;

  it('reserves the requested cost, and leaves the actual one after the refund', async () => {
    const holder = newHolder();
    const t0 = Date.UTC(2026, 10, 26, 6);
    const charged = await charge(holder, 400, t0);
    expect(charged).toMatchObject({ allowed: true, remaining: POINTS - 400 });
    expect(charged.reservation?.where).toBe(where === 'in Redis' ? 'redis' : 'memory');
    const after = await refund(charged, 30, t0 + 5);
    expect(after).toMatchObject({ allowed: true, limit: POINTS, remaining: POINTS - 30 });
    // What was given back is spendable at once; the 30 points leave with the request's own time
    expect((await charge(holder, POINTS - 30, t0 + 10)).allowed).toBe(true);
    expect((await charge(holder, 1, t0 + 20)).allowed).toBe(false);
    expect((await charge(holder, 30, t0 + WINDOW_MS)).allowed).toBe(true);
  });

  it('gives nothing back twice, nothing for an answer that cost what it asked, and nothing once the entry has left the window', async () => {
    const holder = newHolder();
    const t0 = Date.UTC(2026, 10, 26, 7);
    const charged = await charge(holder, 200, t0);
    expect(budget.refund(charged, 200, new Date(t0 + 1))).toBeUndefined();
    expect((await refund(charged, 50, t0 + 1)).remaining).toBe(POINTS - 50);
    expect((await refund(charged, 50, t0 + 2)).remaining).toBe(POINTS - 50);
    expect((await refund(charged, 0, t0 + 3)).remaining).toBe(POINTS - 50);

    const late = await charge(holder, 300, t0 + 10);
    expect(late.remaining).toBe(POINTS - 350);
    // Both have left the window by the time this refund comes: it changes nothing
    expect((await refund(late, 0, t0 + 10 + WINDOW_MS)).remaining).toBe(POINTS);
    expect((await charge(holder, POINTS, t0 + 10 + WINDOW_MS)).allowed).toBe(true);
  });

  it('keeps nothing for a refused charge: a refund of it gives nothing', async () => {
    const holder = newHolder();
    const t0 = Date.UTC(2026, 10, 26, 8);
    expect((await charge(holder, 900, t0)).allowed).toBe(true);
    const refused = await charge(holder, 200, t0 + 1);
    expect(refused).toMatchObject({ allowed: false, remaining: 100 });
    expect(budget.refund(refused, 0, new Date(t0 + 2))).toBeUndefined();
  });

  it('always leaves the budget less the actual costs still in the window (fast-check)', async () => {
    const step = fc.record({
      requested: fc.integer({ min: 0, max: 600 }),
      usedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      advanceMs: fc.integer({ min: 0, max: 25_000 }),
      refundAfterMs: fc.integer({ min: 0, max: 70_000 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const holder = newHolder();
        let now = Date.UTC(2026, 10, 26, 9);
        // The model: each admitted request's time and the points it holds
        const held: Array<{ at: number; points: number }> = [];
        const spentAt = (t: number) =>
          held.filter((entry) => entry.at > t - WINDOW_MS).reduce((sum, entry) => sum + entry.points, 0);
        for (const { requested, usedShare, advanceMs, refundAfterMs } of steps) {
          now += advanceMs;
          const charged = await charge(holder, requested, now);
          expect(charged.allowed).toBe(spentAt(now) + requested <= POINTS);
          expect(charged.remaining).toBe(
            Math.max(0, POINTS - spentAt(now) - (charged.allowed ? requested : 0)),
          );
          if (!charged.allowed) continue;
          const entry = { at: now, points: requested };
          held.push(entry);
          const actual = Math.floor(requested * usedShare);
          const refundAt = now + refundAfterMs;
          const refunded = budget.refund(charged, actual, new Date(refundAt));
          // A refund after the entry has left the window gives nothing (nothing is held then)
          if (refundAt < now + WINDOW_MS) entry.points = actual;
          if (refunded) expect((await refunded).remaining).toBe(POINTS - spentAt(refundAt));
          else expect(actual).toBe(requested);
          now = refundAt;
        }
      }),
      { numRuns: 40 },
    );
  });
});
