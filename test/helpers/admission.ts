import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createAdmission } from '../../src/admission/admission';
import type { DataVersions } from '../../src/read-cache/data-version';
import { createUsageMeter } from '../../src/usage/meter';
import type { MeteredKey } from '../../src/usage/pending';

/**
 * An API process's admission and usage meter on one Redis namespace (`<keyPrefix>rl:` for windows,
 * `<keyPrefix>usage:` for usage), with a rate limit of `max` per `windowSeconds`.
 */
export function admissionOn(
  redis: Redis | null,
  options: {
    keyPrefix: string;
    logger: Logger;
    max?: number;
    windowSeconds?: number;
    redisTimeoutMs?: number;
    dataVersions?: DataVersions | null;
  },
) {
  const { keyPrefix, logger } = options;
  const usage = createUsageMeter({ redis, logger, keyPrefix: `${keyPrefix}usage:` });
  const admission = createAdmission({
    redis,
    rateLimit: { max: options.max ?? 1_000_000, windowSeconds: options.windowSeconds ?? 60 },
    usage,
    dataVersions: options.dataVersions ?? null,
    logger,
    keyPrefix: `${keyPrefix}rl:`,
    // Generous unless a test is about Redis being slow: a loaded CI machine can take over the
    // production 100 ms to load a script, and the request would then be counted in memory instead.
    redisTimeoutMs: options.redisTimeoutMs ?? 2000,
  });
  return {
    admission,
    usage,
    /** The rate limit's decision for one request of a key without a usage limit. */
    consume: async (keyId: string, nowMs: number) =>
      (
        await admission.admit(
          { id: keyId, storeId: 'str_test', usageLimit: null, usageCount: 0n },
          new Date(nowMs),
        )
      ).rateLimit,
    /** How one request counted toward the key's usage (the rate limit must allow it). */
    record: async (key: MeteredKey, now: Date) => {
      const { usage: counted } = await admission.admit(key, now);
      if (!counted) throw new Error('the rate limit refused the request');
      return counted;
    },
  };
}
