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

/** What a step of the sliding window means for the caller (headers, 429), wherever it was kept. */
export function rateLimitDecision(
  result: WindowResult,
  nowMs: number,
  window: { max: number; windowMs: number },
  source: RateLimitDecision['source'],
): RateLimitDecision {
  const resetSeconds =
    result.oldestMs === null ? 0 : Math.max(0, Math.ceil((result.oldestMs + window.windowMs - nowMs) / 1000));
  const decision: RateLimitDecision = {
    allowed: result.allowed,
    limit: window.max,
    remaining: Math.max(0, window.max - result.count),
    resetSeconds,
    source,
  };
  if (!result.allowed) decision.retryAfterSeconds = Math.max(1, resetSeconds);
  return decision;
}
