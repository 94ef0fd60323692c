import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import { dropPartitionsBefore, ensurePartitions } from '../../src/request-log/partitions';

/** Days of partitions made ahead of today, so a missed run or two never sends rows to the default partition. */
const DAYS_AHEAD = 7;

/**
 * The request log's retention (README "Request log"): drops the day partitions older than
 * REQUEST_LOG_RETENTION_DAYS (whole days, so no row-by-row delete) and makes the coming days'.
 * Runs hourly from the crontab.
 */
export const makePruneRequestLog =
  (deps: { prisma: PrismaClient; retentionDays: number; now: () => Date }): Task =>
  async (_payload, helpers) => {
    const now = deps.now();
    const made = await ensurePartitions(deps.prisma, now, DAYS_AHEAD);
    const { dropped, deleted } = await dropPartitionsBefore(
      deps.prisma,
      new Date(now.getTime() - deps.retentionDays * 86_400_000),
    );
    // Periodic: a line only when it did something.
    if (made.length || dropped.length || deleted)
      helpers.logger.info(
        `request log: made ${made.length} day partition(s), dropped ${dropped.length}, deleted ${deleted} older row(s)`,
      );
  };
