import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterRes,
} from 'rate-limiter-flexible';
import type { LoginThrottle } from '../context';
import { AppError } from '../errors';

export type { LoginThrottle };

export interface ThrottleLimit {
  /** Failed sign-ins allowed within the window; the next attempt is refused. */
  points: number;
  durationSeconds: number;
}

export const DEFAULT_PER_ACCOUNT: ThrottleLimit = { points: 5, durationSeconds: 15 * 60 };
export const DEFAULT_PER_IP: ThrottleLimit = { points: 50, durationSeconds: 15 * 60 };

/** 429 RATE_LIMIT_EXCEEDED for sign-ins; `retryAfterSeconds` is for a Retry-After header. */
export class LoginThrottledError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMIT_EXCEEDED', `Too many failed sign-ins; try again in ${retryAfterSeconds} s`);
  }
}

/** The same normalisation as sign-in and staff creation: an address is one account however it is typed. */
const normalizeEmail = (email: string) => email.trim().toLowerCase();
/** Redis keys carry a digest, not the e-mail address itself. */
const accountKey = (email: string) =>
  createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 32);

function limiter(redis: Redis | null, keyPrefix: string, limit: ThrottleLimit): RateLimiterAbstract {
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

/** Counting is best effort: a failure to count must never turn a sign-in into a 500. */
async function quietly(operation: Promise<unknown>): Promise<void> {
  try {
    await operation;
  } catch {
    // Over the limit already (a RateLimiterRes), or Redis and the insurance limiter both failed.
  }
}

/**
 * Failed sign-ins, counted per account (e-mail) and per client address, shared between API
 * processes through Redis (in process memory while Redis is down, or without Redis). Once an
 * account or address has used its failures within the window, `check` refuses every attempt, with
 * the right password too, until the window ends. A successful sign-in clears the account's count.
 */
export function createLoginThrottle(options: {
  redis: Redis | null;
  keyPrefix?: string;
  perAccount?: ThrottleLimit;
  perIp?: ThrottleLimit;
}): LoginThrottle {
  const prefix = options.keyPrefix ?? 'login:';
  const perAccount = options.perAccount ?? DEFAULT_PER_ACCOUNT;
  const perIp = options.perIp ?? DEFAULT_PER_IP;
  const accounts = limiter(options.redis, `${prefix}account`, perAccount);
  const addresses = limiter(options.redis, `${prefix}ip`, perIp);

  /** Seconds until the key may try again, or 0 when it may now. */
  async function blockedFor(rl: RateLimiterAbstract, key: string, points: number): Promise<number> {
    let res: RateLimiterRes | null;
    try {
      res = await rl.get(key);
    } catch {
      return 0;
    }
    if (!res || res.consumedPoints < points) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  return {
    async check(email, ip) {
      const [account, address] = await Promise.all([
        blockedFor(accounts, accountKey(email), perAccount.points),
        ip ? blockedFor(addresses, ip, perIp.points) : Promise.resolve(0),
      ]);
      const wait = Math.max(account, address);
      if (wait > 0) throw new LoginThrottledError(wait);
    },
    async fail(email, ip) {
      await Promise.all([
        quietly(accounts.consume(accountKey(email))),
        ip ? quietly(addresses.consume(ip)) : Promise.resolve(),
      ]);
    },
    async succeed(email) {
      await quietly(accounts.delete(accountKey(email)));
    },
  };
}
