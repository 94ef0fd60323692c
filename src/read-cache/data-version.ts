import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript, type ScriptCall } from '../ratelimit/redis-script';

/**
 * A store's data version: a random token in Redis, shared by every API process, replaced after each
 * mutation of the store. Tokens are random rather than counted so that a Redis that lost its data
 * (a restart without persistence, an eviction) starts from a token no cached answer was ever made
 * under. A version key lives a day after its last change; a new token then is only a cache miss.
 */
const VERSION_TTL_SECONDS = 24 * 3600;

/** KEYS[1] the store's version; ARGV[1] a fresh token, used when there is none; ARGV[2] TTL seconds. */
const currentVersionLua = `
local version = redis.call('GET', KEYS[1])
if version then return version end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
`;

const token = () => randomBytes(9).toString('base64url');

export class DataVersions {
  private readonly currentScript: ScriptCall;
  private readonly guard: RedisGuard;
  /** Replacing is tried after every mutation, also while reads skip a failing Redis. */
  private readonly bumpGuard: RedisGuard;

  constructor(
    private readonly redis: Redis,
    private readonly options: { keyPrefix: string; timeoutMs: number; logger: Logger },
  ) {
    this.currentScript = defineScript(redis, 'commerceDataVersion', currentVersionLua, 1);
    this.guard = new RedisGuard(options.logger, 'read cache', {
      timeoutMs: options.timeoutMs,
      retryMs: 1000,
      fallback: 'nothing is answered from the cache until it answers',
    });
    this.bumpGuard = new RedisGuard(options.logger, 'read cache versions', {
      timeoutMs: options.timeoutMs,
      retryMs: 0,
      fallback: 'stores whose version could not be replaced are not cached here for READ_CACHE_TTL_MS',
    });
  }

  /** The store's version now, or undefined when Redis cannot say (then nothing is cached). */
  async current(storeId: string): Promise<string | undefined> {
    const version = await this.guard.attempt(() =>
      this.currentScript(this.key(storeId), token(), VERSION_TTL_SECONDS),
    );
    return typeof version === 'string' ? version : undefined;
  }

  /** Replaces the store's version; false when Redis did not take it. */
  async bump(storeId: string): Promise<boolean> {
    const done = await this.bumpGuard.attempt(() =>
      this.redis.set(this.key(storeId), token(), 'EX', VERSION_TTL_SECONDS),
    );
    return done === 'OK';
  }

  private key(storeId: string) {
    return `${this.options.keyPrefix}${storeId}`;
  }
}
