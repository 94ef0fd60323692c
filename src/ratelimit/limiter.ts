import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { MemorySlidingWindow } from './memory-window';
import { RedisGuard } from './redis-guard';
import { RedisSlidingWindow } from './redis-window';
import type { WindowResult } from './window';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Whole seconds (rounded up) until the oldest counted request leaves the window, i.e. until one
   * more request fits. An allowed request is itself counted, so this is at least 1 then; 0 only
   * when nothing is counted.
   */
  resetSeconds: number;
  /** Only on a rejection: equal to resetSeconds, at least 1. */
  retryAfterSeconds?: number;
  /** Where the window was kept: shared in Redis, or this process's fallback. */
  source: 'redis' | 'memory';
}

export interface RateLimiter {
  consume(keyId: string, nowMs: number): Promise<RateLimitDecision>;
}

/**
 * DESIGN "Rate limit": an exact sliding window per API key, shared by every API process through
 * Redis (one atomic script per request). While Redis is missing, down or slower than ~100 ms, each
 * process keeps the same exact window in memory and keeps answering.
 */
export function createRateLimiter(options: {
  redis: Redis | null;
  max: number;
  windowSeconds: number;
  logger: Logger;
  keyPrefix?: string;
  /** Longest wait for Redis before this request uses the in-memory window (default 100 ms). */
  redisTimeoutMs?: number;
}): RateLimiter {
  const { max } = options;
  const windowMs = options.windowSeconds * 1000;
  const memory = new MemorySlidingWindow({ max, windowMs });
  const shared = options.redis
    ? new RedisSlidingWindow(options.redis, { max, windowMs, keyPrefix: options.keyPrefix ?? 'ratelimit:' })
    : null;
  const guard = new RedisGuard(options.logger.child({ component: 'ratelimit' }), 'rate limit', {
    timeoutMs: options.redisTimeoutMs ?? 100,
    retryMs: 1000,
  });

  const decide = (result: WindowResult, nowMs: number, source: RateLimitDecision['source']) => {
    const resetSeconds =
      result.oldestMs === null ? 0 : Math.max(0, Math.ceil((result.oldestMs + windowMs - nowMs) / 1000));
    const decision: RateLimitDecision = {
      allowed: result.allowed,
      limit: max,
      remaining: Math.max(0, max - result.count),
      resetSeconds,
      source,
    };
    if (!result.allowed) decision.retryAfterSeconds = Math.max(1, resetSeconds);
    return decision;
  };

  return {
    async consume(keyId, nowMs) {
      if (shared) {
        const result = await guard.attempt(() => shared.hit(keyId, nowMs));
        if (result) return decide(result, nowMs, 'redis');
      }
      return decide(memory.hit(keyId, nowMs), nowMs, 'memory');
    },
  };
}
