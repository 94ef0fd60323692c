import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { PrismaClient } from '../../prisma/generated/client/client';
import { MemoryUsageCounter } from './memory-usage';
import { type MeteredKey, type UsageDelta, utcDay } from './pending';
import { RedisUsageCounter } from './redis-usage';
import { writeUsage } from './write-usage';

export interface UsageMeter {
  /**
   * The Redis keys the admission script counts this API key's usage in (the total the limit is
   * enforced on, the pending hash, the dirty set); null without Redis.
   */
  redisKeys(keyId: string): [total: string, pending: string, dirty: string] | null;
  /**
   * Counts one request of the key in this process unless its usage limit is reached: without Redis
   * or while it fails (the limit then holds per process).
   */
  recordLocally(key: MeteredKey, now: Date, requests?: number): { allowed: boolean; used: number };
  /**
   * Moves counted usage to PostgreSQL: ApiKey.usageCount (+=), lastUsedAt (max), ApiKeyDailyUsage
   * (UTC day buckets, upsert +=). Returns the number of keys flushed.
   */
  flush(prisma: PrismaClient): Promise<number>;
}

/** Keys claimed from Redis and written to PostgreSQL per transaction. */
const FLUSH_BATCH = 200;

/**
 * docs/design.md "API keys", usage: counted exactly in Redis as requests arrive, by the admission script in
 * the same step as the rate limit (src/admission; the usage limit is enforced on that count), and
 * flushed to PostgreSQL by a periodic job. Without Redis, or while it fails, usage is counted in this
 * process (the limit then holds per process) and flushed by this process's flush().
 */
export function createUsageMeter(options: {
  redis: Redis | null;
  logger: Logger;
  keyPrefix?: string;
}): UsageMeter {
  const logger = options.logger.child({ component: 'usage' });
  const memory = new MemoryUsageCounter();
  const shared = options.redis ? new RedisUsageCounter(options.redis, options.keyPrefix ?? 'usage:') : null;

  /** Writes one batch; on failure the batch goes back where it came from, for the next flush. */
  const write = async (
    prisma: PrismaClient,
    deltas: UsageDelta[],
    putBack: (d: UsageDelta[]) => Promise<void>,
  ) => {
    try {
      return await writeUsage(prisma, deltas);
    } catch (error) {
      await putBack(deltas).catch((restoreError) =>
        logger.error(
          { err: restoreError, keys: deltas.length },
          'usage: could not put back unwritten usage; it is lost',
        ),
      );
      throw error;
    }
  };

  return {
    redisKeys: (keyId) => shared?.keysOf(keyId) ?? null,

    recordLocally: (key, now, requests) => memory.record(key, utcDay(now), now.getTime(), requests),

    async flush(prisma) {
      const flushed = new Set<string>();
      const local = memory.take();
      if (local.length > 0) {
        for (const id of await write(prisma, local, async (d) => memory.restore(d))) flushed.add(id);
      }
      if (!shared) return flushed.size;
      let dirty: string[];
      try {
        dirty = await shared.dirtyKeyIds();
      } catch (error) {
        logger.warn({ err: error }, 'usage: redis unavailable; its pending usage waits for the next flush');
        return flushed.size;
      }
      for (let start = 0; start < dirty.length; start += FLUSH_BATCH) {
        // A claim is destructive: once Redis has run it, the usage exists only in this batch (and is
        // lost should the reply never arrive: usage is flushed at most once, never twice).
        let deltas: UsageDelta[];
        try {
          deltas = await shared.claim(dirty.slice(start, start + FLUSH_BATCH));
        } catch (error) {
          logger.warn(
            { err: error },
            'usage: redis failed during the flush; the rest waits for the next one',
          );
          break;
        }
        for (const id of await write(prisma, deltas, (d) => shared.restore(d))) flushed.add(id);
      }
      return flushed.size;
    },
  };
}
