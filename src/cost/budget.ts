import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript } from '../ratelimit/redis-script';
import type { RedisClient } from '../redis';
import { storeKey } from '../redis-keys';
import { costBudgetLua } from './budget.lua';

/** What a charge decided: whether the cost fit, and what is left of the window's points. */
export interface CostDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** When refused: seconds until enough points have left the window for this cost. */
  retryAfterSeconds?: number;
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
 * null when the budget is off (0 points).
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
  const guard = new RedisGuard(options.logger.child({ component: 'cost-budget' }), 'query cost budget', {
    timeoutMs: options.redisTimeoutMs ?? 100,
    retryMs: 1000,
  });
  const memory = new Map<string, Array<{ at: number; cost: number }>>();

  const decision = (allowed: boolean, remaining: number, freeAt: number, nowMs: number): CostDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, remaining),
    windowSeconds,
    ...(allowed ? {} : { retryAfterSeconds: Math.max(1, Math.ceil((freeAt - nowMs) / 1000)) }),
  });

  /** The same window in this process's memory (Redis missing or away). */
  function chargeLocally(holder: string, cost: number, nowMs: number): CostDecision {
    const entries = (memory.get(holder) ?? []).filter((entry) => entry.at > nowMs - windowMs);
    const spent = entries.reduce((sum, entry) => sum + entry.cost, 0);
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
      memory.set(holder, entries);
      return decision(false, points - spent, freeAt, nowMs);
    }
    if (cost > 0) entries.push({ at: nowMs, cost });
    memory.set(holder, entries);
    return decision(true, points - spent - cost, 0, nowMs);
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
        decided: (reply) => decision(reply[0] === 1, reply[1], reply[2], nowMs),
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
  };
}
