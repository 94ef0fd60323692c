import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { BudgetCharge, CostDecision } from '../cost/budget';
import { type RateLimitDecision, rateLimitDecision } from '../ratelimit/decision';
import { MemorySlidingWindow } from '../ratelimit/memory-window';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript, type ScriptCall } from '../ratelimit/redis-script';
import { type DataVersions, VERSION_TTL_SECONDS, versionToken } from '../read-cache/data-version';
import { firstConnection, type RedisClient, writesPerTurn } from '../redis';
import { storeKey } from '../redis-keys';
import type { UsageMeter } from '../usage/meter';
import { type MeteredKey, utcDay } from '../usage/pending';
import { TOTAL_TTL_SECONDS } from '../usage/redis-usage';
import { admissionLua, sessionAdmissionLua } from './admission.lua';

export interface AdmissionResult {
  rateLimit: RateLimitDecision;
  /** How the request counted toward the key's usage limit; absent when the rate limit refused it. */
  usage?: { allowed: boolean; used: number };
  /**
   * The store's data version, when asked for, the request was admitted and Redis answered (the read
   * cache answers nothing without it).
   */
  dataVersion?: string;
  /** The cost budget's decision, when a charge was carried and the request admitted. */
  costBudget?: CostDecision;
}

export interface AdmitOptions {
  withDataVersion?: boolean;
  /** How many requests this one counts as (default 1): an MCP batch counts each call. All or none. */
  requests?: number;
  /** A charge of the cost budget to make, only if the request is admitted, in the same round trip. */
  budget?: BudgetCharge;
}

export interface Admission {
  /**
   * Counts one request of a verified key: the sliding-window rate limit, then (only if it allowed the
   * request) the usage quota. Exact across API processes; one Redis round trip.
   */
  admit(key: MeteredKey, now: Date, options?: AdmitOptions): Promise<AdmissionResult>;
  /**
   * Counts one request of a signed-in staff member against their own sliding window (no usage: a
   * session is no key). The same exactness, fallback and round trip as a key's.
   */
  admitSession(
    session: { staffUserId: string; storeId: string },
    now: Date,
    options?: AdmitOptions,
  ): Promise<Omit<AdmissionResult, 'usage'>>;
}

/** Longest wait for the first connection: the connection's own connect timeout (1 s) and its ready check. */
const FIRST_CONNECTION_WAIT_MS = 2000;

const processTag = randomBytes(6).toString('hex');
/** The scripts' arguments for a step not asked for: no version token, no budget charge. */
const NO_VERSION: (string | number)[] = ['', 0];
const NO_CHARGE: (string | number)[] = ['', 0, 0, '', 0];
let sequence = 0;

/**
 * docs/design.md "Rate limit" and "API keys" (usage), applied together: one atomic script per request in
 * Redis (admission.lua.ts), shared by every API process, so a request the rate limit refuses is
 * never counted as usage. While Redis is missing, down or slower than ~100 ms, each process keeps the
 * same exact window and the usage count in memory (the usage meter flushes that too) and keeps
 * answering; the read cache then answers nothing.
 */
export function createAdmission(options: {
  redis: RedisClient | null;
  rateLimit: { max: number; windowSeconds: number };
  /** Per staff member; defaults to the keys' rate limit. */
  sessionRateLimit?: { max: number; windowSeconds: number };
  usage: UsageMeter;
  /** The read cache's store data versions; null when the read cache is off. */
  dataVersions: DataVersions | null;
  logger: Logger;
  /** Prefix of the rate-limit windows' keys. */
  keyPrefix?: string;
  /** Longest wait for Redis before this request is counted in memory (default 100 ms). */
  redisTimeoutMs?: number;
}): Admission {
  const { redis, usage, dataVersions } = options;
  const window = { max: options.rateLimit.max, windowMs: options.rateLimit.windowSeconds * 1000 };
  const windowPrefix = options.keyPrefix ?? 'ratelimit:';
  const memory = new MemorySlidingWindow(window);
  const script = redis ? defineScript(redis, 'commerceAdmission', admissionLua) : null;
  const sessionLimit = options.sessionRateLimit ?? options.rateLimit;
  const sessionWindow = { max: sessionLimit.max, windowMs: sessionLimit.windowSeconds * 1000 };
  const sessionMemory = new MemorySlidingWindow(sessionWindow);
  const sessionScript = redis ? defineScript(redis, 'commerceSessionAdmission', sessionAdmissionLua) : null;
  const holdWrites = redis ? writesPerTurn(redis) : () => {};
  // A request (key or session) that arrives before Redis's first connection (the process just
  // started) waits for it, so it is counted where every process counts, not in this one's memory alone.
  const connecting = redis ? firstConnection(redis) : null;
  const guard = new RedisGuard(options.logger.child({ component: 'admission' }), 'rate limit and usage', {
    timeoutMs: options.redisTimeoutMs ?? 100,
    retryMs: 1000,
  });

  /**
   * One admission script in Redis: the window's key first, the rule's own keys and arguments after,
   * then — each only when asked — the store's version key and a fresh token, and the budget's keys
   * and charge. Both scripts answer the window's three values first, then their own, then the
   * version and the budget's three. undefined: Redis did not answer in time.
   */
  const inRedis = async <Reply extends unknown[]>(
    run: ScriptCall | null,
    limit: { max: number; windowMs: number },
    now: Date,
    call: {
      keys: string[];
      args: (string | number)[];
      storeId: string;
      withDataVersion: boolean;
      requests: number;
      budget: BudgetCharge | undefined;
    },
  ) => {
    if (!run) return undefined;
    if (connecting && !connecting.settled) await connecting.wait(FIRST_CONNECTION_WAIT_MS);
    const nowMs = now.getTime();
    const keys = [...call.keys];
    const args = call.args;
    // The version's arguments (a random token) are only made when the script is to read it.
    let versionArgs: (string | number)[] = NO_VERSION;
    if (call.withDataVersion && dataVersions) {
      keys.push(dataVersions.key(call.storeId));
      versionArgs = [versionToken(), VERSION_TTL_SECONDS];
    }
    if (call.budget) keys.push(...call.budget.keys);
    const member = `${nowMs}:${processTag}:${(sequence++).toString(36)}`;
    const reply = (await guard.attempt(() => {
      holdWrites();
      return run(
        keys.length,
        ...keys,
        nowMs,
        limit.windowMs,
        limit.max,
        member,
        call.requests,
        ...args,
        ...versionArgs,
        ...(call.budget?.args ?? NO_CHARGE),
      );
    })) as Reply | undefined;
    if (!reply) return undefined;
    const [allowed, count, oldest] = reply as unknown as [number, number, string];
    const [version, charged, ...budgetReply] = reply.slice(-4) as [string, number, number, number];
    const result = { allowed: allowed === 1, count, oldestMs: oldest === '' ? null : Number(oldest) };
    return {
      rateLimit: rateLimitDecision(result, nowMs, limit, 'redis'),
      ...(version !== '' ? { dataVersion: version } : {}),
      ...(call.budget && charged !== -1
        ? { costBudget: call.budget.decided([charged, ...budgetReply] as [number, number, number]) }
        : {}),
      reply,
    };
  };

  return {
    async admit(key, now, admitOptions) {
      const requests = admitOptions?.requests ?? 1;
      const usageKeys = usage.redisKeys(key);
      const shared = usageKeys
        ? await inRedis<[number, number, string, number, number, string, number, number, number]>(
            script,
            window,
            now,
            {
              keys: [storeKey(windowPrefix, key.storeId, key.id), ...usageKeys],
              args: [
                key.id,
                key.usageCount.toString(),
                key.usageLimit === null ? '' : key.usageLimit,
                utcDay(now),
                TOTAL_TTL_SECONDS,
              ],
              storeId: key.storeId,
              withDataVersion: admitOptions?.withDataVersion ?? false,
              requests,
              budget: admitOptions?.budget,
            },
          )
        : undefined;
      if (shared) {
        const { reply, ...result } = shared;
        const [, , , usageAllowed, used] = reply;
        return usageAllowed === -1 ? result : { ...result, usage: { allowed: usageAllowed === 1, used } };
      }
      const hit = memory.hit(key.id, now.getTime(), requests);
      const rateLimit = rateLimitDecision(hit, now.getTime(), window, 'memory');
      if (!rateLimit.allowed) return { rateLimit };
      const counted = usage.recordLocally(key, now, requests);
      const budget = counted.allowed ? admitOptions?.budget?.locally() : undefined;
      return { rateLimit, usage: counted, ...(budget ? { costBudget: budget } : {}) };
    },
    async admitSession(session, now, admitOptions) {
      const requests = admitOptions?.requests ?? 1;
      const windowKey = storeKey(windowPrefix, session.storeId, `staff:${session.staffUserId}`);
      const shared = await inRedis<[number, number, string, string, number, number, number]>(
        sessionScript,
        sessionWindow,
        now,
        {
          keys: [windowKey],
          args: [],
          storeId: session.storeId,
          withDataVersion: admitOptions?.withDataVersion ?? false,
          requests,
          budget: admitOptions?.budget,
        },
      );
      if (shared) {
        const { reply: _, ...result } = shared;
        return result;
      }
      const hit = sessionMemory.hit(windowKey, now.getTime(), requests);
      const rateLimit = rateLimitDecision(hit, now.getTime(), sessionWindow, 'memory');
      const budget = rateLimit.allowed ? admitOptions?.budget?.locally() : undefined;
      return { rateLimit, ...(budget ? { costBudget: budget } : {}) };
    },
  };
}
