import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from '../errors';
import type { RedisClient } from '../redis';

/** Failures allowed within a fixed window that starts at the first one. */
export interface FailureLimit {
  points: number;
  durationSeconds: number;
}

/** 429 RATE_LIMIT_EXCEEDED once failures are used up; `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyFailuresError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    what: string,
  ) {
    super('RATE_LIMIT_EXCEEDED', `Too many failed ${what}; try again in ${retryAfterSeconds} s`);
  }
}

/**
 * A counter of failures shared between API processes through Redis (consume is one atomic script),
 * in process memory without Redis and, through the insurance limiter, while Redis is down or slow.
 */
export function failureLimiter(
  redis: RedisClient | null,
  keyPrefix: string,
  limit: FailureLimit,
): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix, points: limit.points, duration: limit.durationSeconds });
  if (!redis) return memory;
  // ioredis: rate-limiter-flexible's default client mode (useRedisPackage is for node-redis v4+ only).
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points: limit.points,
    duration: limit.durationSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** Whole seconds (at least 1) until a moment `ms` milliseconds away: a Retry-After value. */
export const secondsLeft = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Consumes one point: the counter after it, `over` when the limit was already used up, or null when
 * neither Redis nor the insurance limiter could count (counting is best effort: it must never turn
 * an answer into a 500).
 */
export async function consumeOne(
  limiter: RateLimiterAbstract,
  key: string,
): Promise<{ res: RateLimiterRes; over: boolean } | null> {
  try {
    return { res: await limiter.consume(key), over: false };
  } catch (rejection) {
    return rejection instanceof RateLimiterRes ? { res: rejection, over: true } : null;
  }
}

/** Best effort, as consumeOne: gives back or clears a count without ever failing the answer. */
export async function quietly(operation: Promise<unknown>): Promise<void> {
  try {
    await operation;
  } catch {
    // Redis and the insurance limiter both failed: the count simply stays.
  }
}
