import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript, type ScriptCall } from '../ratelimit/redis-script';
import type { RedisClient } from '../redis';
import { storeKey } from '../redis-keys';

/**
 * A store's data version: a random token in Redis, shared by every API process, replaced after each
 * mutation of the store. Tokens are random rather than counted so that a Redis that lost its data
 * (a restart without persistence, an eviction) starts from a token no cached answer was ever made
 * under. A version key lives a day after its last change; a new token then is only a cache miss.
 */
export const VERSION_TTL_SECONDS = 24 * 3600;

/**
 * The store's version, set to `fresh` when there is none: a Lua function, also part of the
 * admission script (src/admission/admission.lua.ts), which reads it for API-key requests.
 */
export const currentVersionLua = `
local function current_version(key, fresh, ttl)
  local version = redis.call('GET', key)
  if version then return version end
  redis.call('SET', key, fresh, 'EX', ttl)
  return fresh
end
`;

/** The store's version alone (a session's or an MCP call's read), KEYS and ARGV as current_version's. */
export const dataVersionLua = `${currentVersionLua} return current_version(KEYS[1], ARGV[1], ARGV[2])`;

/**
 * A new version token. Node draws UUIDs from a batch of random bytes it fills ahead; a call of
 * randomBytes for a few bytes each time showed in a cached read's CPU here (per-call overhead:
 * bench/BASELINE.md, "Figures the code's comments relied on").
 */
export const versionToken = () => randomUUID();

/** Where the versions live under a deployment's Redis key prefix. */
export const versionKeyPrefix = (prefix: string) => `${prefix}version:`;

export class DataVersions {
  private readonly currentScript: ScriptCall;
  private readonly guard: RedisGuard;
  /** Replacing is tried after every mutation, also while reads skip a failing Redis. */
  private readonly bumpGuard: RedisGuard;

  constructor(
    private readonly redis: RedisClient,
    private readonly options: { keyPrefix: string; timeoutMs: number; logger: Logger },
  ) {
    this.currentScript = defineScript(redis, 'commerceDataVersion', dataVersionLua, 1);
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

  /**
   * The store's version now, or undefined when Redis cannot say (then nothing is cached). API-key
   * requests get it from the admission script instead, in the same round trip as the rate limit.
   */
  async current(storeId: string): Promise<string | undefined> {
    const version = await this.guard.attempt(() =>
      this.currentScript(this.key(storeId), versionToken(), VERSION_TTL_SECONDS),
    );
    return typeof version === 'string' ? version : undefined;
  }

  /** Replaces the store's version; false when Redis did not take it. */
  async bump(storeId: string): Promise<boolean> {
    const done = await this.bumpGuard.attempt(() =>
      this.redis.set(this.key(storeId), versionToken(), 'EX', VERSION_TTL_SECONDS),
    );
    return done === 'OK';
  }

  /** The Redis key holding the store's version (in the store's shard, with its other keys). */
  key(storeId: string) {
    return storeKey(this.options.keyPrefix, storeId, storeId);
  }
}
