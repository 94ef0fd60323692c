import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import { dropPartitionsBefore, ensurePartitions, sealPartitions } from '../../src/request-log/partitions';

/** Hours of partitions made ahead of this one, so a missed run or a day's outage never sends rows to the default partition. */
export const HOURS_AHEAD = 48;
/** How long after its hour a partition is sealed: the API processes' last batches of it are written by then. */
const SEAL_AFTER_MS = 60_000;

/**
 * The request log's partitions (README "Request log"): makes the coming hours', builds the
 * secondary indexes on each hour that has ended (sealPartitions), and drops the hours older than
 * REQUEST_LOG_RETENTION_DAYS (whole tables, so no row-by-row delete). Runs a few minutes past each
 * hour from the crontab.
 */
export const makeRequestLogPartitions =
  (deps: { prisma: PrismaClient; retentionDays: number; now: () => Date }): Task =>
  async (_payload, helpers) => {
    const now = deps.now();
    const made = await ensurePartitions(deps.prisma, now, HOURS_AHEAD);
    const sealed = await sealPartitions(deps.prisma, new Date(now.getTime() - SEAL_AFTER_MS));
    const { dropped, deleted } = await dropPartitionsBefore(
      deps.prisma,
      new Date(now.getTime() - deps.retentionDays * 86_400_000),
    );
    // Periodic: a line only when it did something.
    if (made.length || sealed.length || dropped.length || deleted)
      helpers.logger.info(
        `request log: made ${made.length} hour partition(s), sealed ${sealed.length} (${sealed.join(', ') || 'none'}), dropped ${dropped.length}, deleted ${deleted} older row(s)`,
      );
  };
