import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import { taskName } from '../../src/task-catalog';
import type { UsageMeter } from '../../src/usage/meter';

/**
 * Moves the usage counted since the last run (in Redis, and in this process's memory when Redis was
 * missing or down) to ApiKey.usageCount, lastUsedAt and the daily buckets. Runs every minute from the
 * crontab. The meter is the process's own, hence a factory rather than a plain task. Usage that moved
 * may have brought a key to its usage notice: send_key_notices is queued (one job key for all).
 */
export const makeFlushUsage =
  (meter: UsageMeter, prisma: PrismaClient): Task =>
  async (_payload, helpers) => {
    const keys = await meter.flush(prisma);
    if (keys === 0) return;
    helpers.logger.info(`flushed the usage of ${keys} API keys`);
    await helpers.addJob(
      taskName.send_key_notices,
      {},
      { jobKey: taskName.send_key_notices, jobKeyMode: 'preserve_run_at', maxAttempts: 3 },
    );
  };
