import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from '../redis';
import {
  consumeOne,
  type FailureLimit,
  failureLimiter,
  secondsLeft,
  TooManyFailuresError,
} from './failure-limiter';

export const DEFAULT_AUTH_FAILURES: FailureLimit = { points: 30, durationSeconds: 300 };

/** Addresses this process remembers as blocked at most; the oldest block is forgotten first. */
const MAX_BLOCKED = 10_000;

/**
 * Failed authentications per client address: well-formed API keys and session tokens that match
 * nothing, each of which cost a database lookup. Once an address has used its failures within the
 * window, lookups for it are refused with 429 before any query, until the window ends.
 *
 * Only failures talk to Redis (shared between API processes, process memory while Redis is down).
 * The check before a lookup reads this process's own "blocked until" view, fed by its counting, so
 * it costs a Map lookup; another process learns of a block at its own next failure, so each process
 * lets at most one more lookup through.
 */
export class AddressFailures {
  private readonly limiter: RateLimiterAbstract;
  private readonly blockedUntil = new Map<string, number>();

  constructor(options: { redis: RedisClient | null; keyPrefix: string; limit?: FailureLimit }) {
    this.limiter = failureLimiter(options.redis, options.keyPrefix, options.limit ?? DEFAULT_AUTH_FAILURES);
  }

  /** Throws 429 RATE_LIMIT_EXCEEDED (with Retry-After) while this process knows `address` blocked. */
  check(address: string | undefined): void {
    if (address === undefined || this.blockedUntil.size === 0) return;
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) {
      this.blockedUntil.delete(address);
      return;
    }
    throw new TooManyFailuresError(secondsLeft(left), 'authentications from this address');
  }

  /** Counts a lookup that matched nothing; the failure that uses up the address's points blocks it here. */
  async count(address: string | undefined): Promise<void> {
    if (address === undefined) return;
    const counted = await consumeOne(this.limiter, address);
    if (!counted || counted.res.remainingPoints > 0) return;
    this.blockedUntil.delete(address);
    if (this.blockedUntil.size >= MAX_BLOCKED) {
      const oldest = this.blockedUntil.keys().next().value;
      if (oldest !== undefined) this.blockedUntil.delete(oldest);
    }
    this.blockedUntil.set(address, Date.now() + counted.res.msBeforeNext);
  }
}
