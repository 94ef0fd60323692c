import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis';
import {
  consumeOne,
  type FailureLimit,
  failureLimiter,
  quietly,
  secondsLeft,
  TooManyFailuresError,
} from './failure-limiter';

/** Sign-in attempts are throttled per account and per client address. */
export interface LoginThrottle {
  /** Counts an attempt before its password is checked; throws 429 once the account or address is over. */
  attempt(email: string, ip: string | undefined): Promise<void>;
  /** The attempt signed in: clears the account's count, gives the address its point back. */
  succeed(email: string, ip: string | undefined): Promise<void>;
  /** The attempt was not a wrong password (a suspended store, an outage): both points back. */
  giveBack(email: string, ip: string | undefined): Promise<void>;
}

export const DEFAULT_PER_ACCOUNT: FailureLimit = { points: 5, durationSeconds: 15 * 60 };
export const DEFAULT_PER_IP: FailureLimit = { points: 50, durationSeconds: 15 * 60 };

/** 429 RATE_LIMIT_EXCEEDED for sign-ins; `retryAfterSeconds` is for a Retry-After header. */
export class LoginThrottledError extends TooManyFailuresError {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds, 'sign-ins');
  }
}

/** The same normalisation as sign-in and staff creation: an address is one account however it is typed. */
const normalizeEmail = (email: string) => email.trim().toLowerCase();
/** Redis keys carry a digest, not the e-mail address itself. */
const accountKey = (email: string) =>
  createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 32);

/**
 * Sign-in attempts, counted per account (e-mail) and per client address BEFORE the password is
 * checked, shared between API processes through Redis (in process memory while Redis is down, or
 * without Redis). Counting first is what makes the limit hold under parallel guesses: consume is
 * atomic, so of any number of simultaneous attempts only the account's remaining points reach the
 * password check. Once an account or address has used its points within the window, every attempt
 * is refused, with the right password too, until the window ends. A successful sign-in clears the
 * account's count and gives the address its point back; an attempt that was no wrong password (a
 * suspended store, the database away) gives both back; a refused one keeps them.
 */
export function createLoginThrottle(options: {
  redis: RedisClient | null;
  keyPrefix?: string;
  perAccount?: FailureLimit;
  perIp?: FailureLimit;
}): LoginThrottle {
  const prefix = options.keyPrefix ?? 'login:';
  const accounts = failureLimiter(
    options.redis,
    `${prefix}account`,
    options.perAccount ?? DEFAULT_PER_ACCOUNT,
  );
  const addresses = failureLimiter(options.redis, `${prefix}ip`, options.perIp ?? DEFAULT_PER_IP);

  return {
    async attempt(email, ip) {
      const account = accountKey(email);
      const [byAccount, byAddress] = await Promise.all([
        consumeOne(accounts, account),
        ip ? consumeOne(addresses, ip) : Promise.resolve(null),
      ]);
      // A refused attempt keeps its points: giving them back could race a success's clearing of the
      // account into a negative count, and an address hammering a blocked account uses up its own.
      const waits = [byAccount, byAddress].flatMap((counted) =>
        counted?.over ? [secondsLeft(counted.res.msBeforeNext)] : [],
      );
      if (waits.length > 0) throw new LoginThrottledError(Math.max(...waits));
    },
    async succeed(email, ip) {
      await Promise.all([
        quietly(accounts.delete(accountKey(email))),
        ip ? quietly(addresses.reward(ip)) : undefined,
      ]);
    },
    async giveBack(email, ip) {
      await Promise.all([
        quietly(accounts.reward(accountKey(email))),
        ip ? quietly(addresses.reward(ip)) : undefined,
      ]);
    },
  };
}
