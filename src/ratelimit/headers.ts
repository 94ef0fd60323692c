import type { RateLimitDecision } from './decision';

/**
 * The rate-limit headers every key-authenticated response carries (docs/design.md "Rate limit");
 * the reset is in seconds, not a timestamp. Retry-After only on a rejection.
 */
export function rateLimitHeaders(decision: RateLimitDecision, windowSeconds: number): Record<string, string> {
  const headers: Record<string, string> = {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': `"default";q=${decision.limit};w=${windowSeconds}`,
    RateLimit: `"default";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed)
    headers['Retry-After'] = String(decision.retryAfterSeconds ?? Math.max(1, decision.resetSeconds));
  return headers;
}
