import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import type { UsageMeter } from '../../src/usage/meter';

/**
 * Moves the usage counted since the last run (in Redis, and in this process's memory when Redis was
 * missing or down) to ApiKey.usageCount, lastUsedAt and the daily buckets. Runs every minute from the
 * crontab. The meter is the process's own, hence a factory rather than a plain task.
 */
export const makeFlushUsage =
  (meter: UsageMeter, prisma: PrismaClient): Task =>
  async (_payload, helpers) => {
    const keys = await meter.flush(prisma);
    if (keys > 0) helpers.logger.info(`flushed the usage of ${keys} API keys`);
  };
