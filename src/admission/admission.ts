import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type RateLimitDecision, rateLimitDecision } from '../ratelimit/decision';
import { MemorySlidingWindow } from '../ratelimit/memory-window';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript } from '../ratelimit/redis-script';
import { type DataVersions, VERSION_TTL_SECONDS, versionToken } from '../read-cache/data-version';
import { firstConnection, writesPerTurn } from '../redis';
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
}

export interface Admission {
  /**
   * Counts one request of a verified key: the sliding-window rate limit, then (only if it allowed the
   * request) the usage quota. Exact across API processes; one Redis round trip.
   */
  admit(key: MeteredKey, now: Date, options?: { withDataVersion?: boolean }): Promise<AdmissionResult>;
  /**
   * Counts one request of a signed-in staff member against their own sliding window (no usage: a
   * session is no key). The same exactness, fallback and round trip as a key's.
   */
  admitSession(
    session: { staffUserId: string; storeId: string },
    now: Date,
    options?: { withDataVersion?: boolean },
  ): Promise<Omit<AdmissionResult, 'usage'>>;
}

const processTag = randomBytes(6).toString('hex');

/** Longest wait for the first connection: the connection's own connect timeout (1 s) and its ready check. */
const FIRST_CONNECTION_WAIT_MS = 2000;
let sequence = 0;

/**
 * DESIGN "Rate limit" and "API keys" (usage), applied together: one atomic script per request in
 * Redis (admission.lua.ts), shared by every API process, so a request the rate limit refuses is
 * never counted as usage. While Redis is missing, down or slower than ~100 ms, each process keeps the
 * same exact window and the usage count in memory (the usage meter flushes that too) and keeps
 * answering; the read cache then answers nothing.
 */
export function createAdmission(options: {
  redis: Redis | null;
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
  // A request that arrives before Redis's first connection (the process just started) waits for it,
  // so it is counted where every process counts, not in this one's memory alone.
  const connecting = redis ? firstConnection(redis) : null;
  const guard = new RedisGuard(options.logger.child({ component: 'admission' }), 'rate limit and usage', {
    timeoutMs: options.redisTimeoutMs ?? 100,
    retryMs: 1000,
  });

  const inRedis = async (key: MeteredKey, now: Date, withDataVersion: boolean) => {
    const usageKeys = usage.redisKeys(key.id);
    if (!script || !usageKeys) return undefined;
    const nowMs = now.getTime();
    const keys = [windowPrefix + key.id, ...usageKeys];
    // The version's arguments (a random token) are only made when the script is to read it.
    const versionArgs: (string | number)[] = [];
    if (withDataVersion && dataVersions) {
      keys.push(dataVersions.key(key.storeId));
      versionArgs.push(versionToken(), VERSION_TTL_SECONDS);
    }
    const reply = await guard.attempt(() => {
      holdWrites();
      return script(
        keys.length,
        ...keys,
        nowMs,
        window.windowMs,
        window.max,
        `${nowMs}:${processTag}:${(sequence++).toString(36)}`,
        key.id,
        key.usageCount.toString(),
        key.usageLimit === null ? '' : key.usageLimit,
        utcDay(now),
        TOTAL_TTL_SECONDS,
        ...versionArgs,
      ) as Promise<[number, number, string, number, number, string]>;
    });
    if (!reply) return undefined;
    const [allowed, count, oldest, usageAllowed, used, dataVersion] = reply;
    const result: AdmissionResult = {
      rateLimit: rateLimitDecision(
        { allowed: allowed === 1, count, oldestMs: oldest === '' ? null : Number(oldest) },
        nowMs,
        window,
        'redis',
      ),
    };
    if (usageAllowed !== -1) result.usage = { allowed: usageAllowed === 1, used };
    if (dataVersion !== '') result.dataVersion = dataVersion;
    return result;
  };

  const sessionInRedis = async (windowKey: string, storeId: string, now: Date, withDataVersion: boolean) => {
    if (!sessionScript) return undefined;
    const nowMs = now.getTime();
    const keys = [windowKey];
    const versionArgs: (string | number)[] = [];
    if (withDataVersion && dataVersions) {
      keys.push(dataVersions.key(storeId));
      versionArgs.push(versionToken(), VERSION_TTL_SECONDS);
    }
    const reply = await guard.attempt(() => {
      holdWrites();
      return sessionScript(
        keys.length,
        ...keys,
        nowMs,
        sessionWindow.windowMs,
        sessionWindow.max,
        `${nowMs}:${processTag}:${(sequence++).toString(36)}`,
        ...versionArgs,
      ) as Promise<[number, number, string, string]>;
    });
    if (!reply) return undefined;
    const [allowed, count, oldest, dataVersion] = reply;
    const window = { allowed: allowed === 1, count, oldestMs: oldest === '' ? null : Number(oldest) };
    const result: Omit<AdmissionResult, 'usage'> = {
      rateLimit: rateLimitDecision(window, nowMs, sessionWindow, 'redis'),
    };
    if (dataVersion !== '') result.dataVersion = dataVersion;
    return result;
  };

  return {
    async admit(key, now, admitOptions) {
      if (connecting && !connecting.settled) await connecting.wait(FIRST_CONNECTION_WAIT_MS);
      const shared = await inRedis(key, now, admitOptions?.withDataVersion ?? false);
      if (shared) return shared;
      const rateLimit = rateLimitDecision(memory.hit(key.id, now.getTime()), now.getTime(), window, 'memory');
      return rateLimit.allowed ? { rateLimit, usage: usage.recordLocally(key, now) } : { rateLimit };
    },
    async admitSession(session, now, admitOptions) {
      const windowKey = `${windowPrefix}staff:${session.staffUserId}`;
      const shared = await sessionInRedis(
        windowKey,
        session.storeId,
        now,
        admitOptions?.withDataVersion ?? false,
      );
      if (shared) return shared;
      const hit = sessionMemory.hit(windowKey, now.getTime());
      return { rateLimit: rateLimitDecision(hit, now.getTime(), sessionWindow, 'memory') };
    },
  };
}
