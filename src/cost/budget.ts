import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript } from '../ratelimit/redis-script';
import type { RedisClient } from '../redis';
import { storeKey } from '../redis-keys';
import { costBudgetLua, costRefundLua } from './budget.lua';

/** What a charge decided: whether the cost fit, and what is left of the window's points. */
export interface CostDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** When refused: seconds until enough points have left the window for this cost. */
  retryAfterSeconds?: number;
  /** When allowed and not free: what the charge holds in the window, which its refund reduces. */
  reservation?: Reservation;
}

/**
 * An admitted charge's entry in its window — in Redis (its member, which encodes the cost) or in
 * this process's memory (the entry itself) — and the points it holds: the requested cost until the
 * refund after execution leaves the actual one.
 */
export type Reservation =
  | {
      readonly where: 'redis';
      readonly keys: [string, string];
      readonly member: string;
      readonly cost: number;
    }
  | { readonly where: 'memory'; readonly holder: string; readonly entry: WindowEntry; readonly cost: number };

interface WindowEntry {
  at: number;
  cost: number;
}

/**
 * A charge of one principal's budget, prepared for one request: what a script needs to make it in
 * Redis (an admission script carries it in its own round trip), and the same charge in memory.
 */
export interface BudgetCharge {
  /** cost_budget's two keys: the window's entries and the points they hold. */
  readonly keys: [string, string];
  /** cost_budget's arguments after the keys: now ms, window ms, budget points, member, cost. */
  readonly args: [number, number, number, string, number];
  /** The decision from cost_budget's answer {allowed, remaining, free at}. */
  decided(reply: [number, number, number]): CostDecision;
  /** The same charge in this process's memory (Redis missing, away or slow). */
  locally(): CostDecision;
}

export interface CostBudget {
  readonly windowSeconds: number;
  /** Prepares a charge of `cost` points to a holder's sliding window (./charge.ts names the holder). */
  prepare(holder: BudgetHolder, cost: number, now: Date): BudgetCharge;
  /** Makes a prepared charge on its own: a round trip of its own, or memory without Redis. */
  charge(charge: BudgetCharge): Promise<CostDecision>;
  /**
   * After execution, gives back to the window what an admitted charge reserved beyond the `actual`
   * cost, where the charge was made (Redis, or this process's memory), and answers the decision
   * with what is left after it. undefined when there is nothing to give back: the charge was
   * refused or free, or the answer cost what was asked.
   */
  refund(charged: CostDecision, actual: number, now: Date): Promise<CostDecision> | undefined;
}

/** Whose budget: a key's or a staff member's (`name`), kept in the store's shard (src/redis-keys.ts). */
export interface BudgetHolder {
  storeId: string;
  name: string;
}

const processTag = randomBytes(6).toString('hex');
let sequence = 0;

/**
 * Beside the request rate limit, each key and each signed-in staff member has a budget of query
 * cost per window (the cost the pipeline computes: a list costs its page size times its selection),
 * exact across API processes in Redis, and per process while Redis is away, as the rate limit does.
 * A charge reserves the requested cost; its refund after execution leaves the actual one (README
 * "Query limits and cost", reserve and refund). null when the budget is off (0 points).
 */
export function createCostBudget(options: {
  redis: RedisClient | null;
  points: number;
  windowSeconds: number;
  keyPrefix: string;
  logger: Logger;
  redisTimeoutMs?: number;
}): CostBudget | null {
  if (options.points <= 0) return null;
  const { points, windowSeconds } = options;
  const windowMs = windowSeconds * 1000;
  const script = options.redis ? defineScript(options.redis, 'commerceCostBudget', costBudgetLua) : null;
  const refundScript = options.redis
    ? defineScript(options.redis, 'commerceCostRefund', costRefundLua)
    : null;
  const guard = new RedisGuard(options.logger.child({ component: 'cost-budget' }), 'query cost budget', {
    timeoutMs: options.redisTimeoutMs ?? 100,
    retryMs: 1000,
  });
  const memory = new Map<string, WindowEntry[]>();

  const decision = (
    allowed: boolean,
    remaining: number,
    freeAt: number,
    nowMs: number,
    reservation?: Reservation,
  ): CostDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, remaining),
    windowSeconds,
    ...(allowed ? {} : { retryAfterSeconds: Math.max(1, Math.ceil((freeAt - nowMs) / 1000)) }),
    ...(reservation ? { reservation } : {}),
  });

  /** A holder's entries still in the window, and the points they hold. */
  function inWindow(holder: string, nowMs: number): { entries: WindowEntry[]; spent: number } {
    const entries = (memory.get(holder) ?? []).filter((entry) => entry.at > nowMs - windowMs);
    memory.set(holder, entries);
    return { entries, spent: entries.reduce((sum, entry) => sum + entry.cost, 0) };
  }

  /** The same window in this process's memory (Redis missing or away). */
  function chargeLocally(holder: string, cost: number, nowMs: number): CostDecision {
    const { entries, spent } = inWindow(holder, nowMs);
    if (spent + cost > points) {
      let freed = 0;
      let freeAt = nowMs + windowMs;
      for (const entry of entries) {
        freed += entry.cost;
        if (freed >= spent + cost - points) {
          freeAt = entry.at + windowMs;
          break;
        }
      }
      return decision(false, points - spent, freeAt, nowMs);
    }
    if (cost === 0) return decision(true, points - spent, 0, nowMs);
    const entry = { at: nowMs, cost };
    entries.push(entry);
    return decision(true, points - spent - cost, 0, nowMs, { where: 'memory', holder, entry, cost });
  }

  /**
   * The refund in memory: the entry holds the actual cost, once (an entry that no longer holds the
   * requested cost was refunded already; one that left the window is no longer counted).
   */
  function refundLocally(reservation: Reservation & { where: 'memory' }, actual: number, nowMs: number) {
    const { entry } = reservation;
    if (entry.cost === reservation.cost) entry.cost = Math.min(entry.cost, actual);
    return decision(true, points - inWindow(reservation.holder, nowMs).spent, 0, nowMs);
  }

  return {
    windowSeconds,
    prepare(holder, cost, now) {
      const nowMs = now.getTime();
      const key = storeKey(options.keyPrefix, holder.storeId, holder.name);
      const member = `${nowMs}:${processTag}:${(sequence++).toString(36)}:${cost}`;
      return {
        keys: [key, `${key}:spent`],
        args: [nowMs, windowMs, points, member, cost],
        decided: (reply) =>
          decision(
            reply[0] === 1,
            reply[1],
            reply[2],
            nowMs,
            reply[0] === 1 && cost > 0
              ? { where: 'redis', keys: [key, `${key}:spent`], member, cost }
              : undefined,
          ),
        locally: () => chargeLocally(holder.name, cost, nowMs),
      };
    },
    async charge(charge) {
      if (script) {
        const reply = (await guard.attempt(() => script(2, ...charge.keys, ...charge.args))) as
          | [number, number, number]
          | undefined;
        if (reply) return charge.decided(reply);
      }
      return charge.locally();
    },
    refund(charged, actual, now) {
      const { reservation } = charged;
      if (!reservation || actual >= reservation.cost) return undefined;
      const given = Math.max(0, Math.floor(actual));
      const nowMs = now.getTime();
      if (reservation.where === 'memory') return Promise.resolve(refundLocally(reservation, given, nowMs));
      return (async () => {
        const remaining = refundScript
          ? ((await guard.attempt(() =>
              refundScript(2, ...reservation.keys, nowMs, windowMs, points, reservation.member, given),
            )) as number | undefined)
          : undefined;
        // Redis did not answer: the points stay reserved until the entry leaves the window.
        return remaining === undefined ? charged : decision(true, remaining, 0, nowMs);
      })();
    },
  };
}
