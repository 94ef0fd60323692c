import type { Logger } from 'pino';
import type { PrismaClient } from '../../prisma/generated/client/client';
import type { RedisClient } from '../redis';
import { STORE_SHARDS } from '../redis-keys';
import { MemoryUsageCounter } from './memory-usage';
import { type MeteredKey, type UsageDelta, utcDay } from './pending';
import { RedisUsageCounter } from './redis-usage';
import { writeUsage } from './write-usage';

export interface UsageMeter {
  /**
   * The Redis keys the admission script counts this API key's usage in (the total the limit is
   * enforced on, the pending hash, the dirty set); null without Redis.
   */
  redisKeys(key: { id: string; storeId: string }): [total: string, pending: string, dirty: string] | null;
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
/** Shards whose dirty sets are read at once. */
const SHARDS_PER_READ = 128;

/**
 * docs/design.md "API keys", usage: counted exactly in Redis as requests arrive, by the admission script in
 * the same step as the rate limit (src/admission; the usage limit is enforced on that count), and
 * flushed to PostgreSQL by a periodic job. Without Redis, or while it fails, usage is counted in this
 * process (the limit then holds per process) and flushed by this process's flush().
 */
export function createUsageMeter(options: {
  redis: RedisClient | null;
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
    redisKeys: (key) => shared?.keysOf(key) ?? null,

    recordLocally: (key, now, requests) => memory.record(key, utcDay(now), now.getTime(), requests),

    async flush(prisma) {
      const flushed = new Set<string>();
      const local = memory.take();
      if (local.length > 0) {
        for (const id of await write(prisma, local, async (d) => memory.restore(d))) flushed.add(id);
      }
      if (!shared) return flushed.size;
      // Every shard's dirty set (src/redis-keys.ts), a batch of shards at a time: SMEMBERS of an
      // empty set is cheap, and a shard on a node that is down waits for the next flush.
      let failed = 0;
      for (let first = 0; first < STORE_SHARDS; first += SHARDS_PER_READ) {
        const shards = Array.from(
          { length: Math.min(SHARDS_PER_READ, STORE_SHARDS - first) },
          (_, i) => first + i,
        );
        const dirty = await Promise.all(
          shards.map((shard) =>
            shared.dirtyKeyIds(shard).catch(() => {
              failed++;
              return [] as string[];
            }),
          ),
        );
        for (const [index, ids] of dirty.entries()) {
          const shard = shards[index]!;
          for (let start = 0; start < ids.length; start += FLUSH_BATCH) {
            // A claim is destructive: once Redis has run it, the usage exists only in this batch (and is
            // lost should the reply never arrive: usage is flushed at most once, never twice).
            let deltas: UsageDelta[];
            try {
              deltas = await shared.claim(shard, ids.slice(start, start + FLUSH_BATCH));
            } catch {
              failed++;
              break;
            }
            for (const id of await write(prisma, deltas, (d) => shared.restore(shard, d))) flushed.add(id);
          }
        }
      }
      if (failed > 0)
        logger.warn(
          { shards: failed },
          'usage: redis unavailable for some store shards; their pending usage waits for the next flush',
        );
      return flushed.size;
    },
  };
}
