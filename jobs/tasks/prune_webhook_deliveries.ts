import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';

/**
 * Deletes finished delivery log entries (success, exhausted) and their attempts older than
 * WEBHOOK_LOG_RETENTION_DAYS, then events older than that with no delivery left. Deliveries still
 * retrying are kept whatever their age. Runs hourly from the crontab.
 */
export const makePruneWebhookDeliveries =
  (deps: { prisma: PrismaClient; retentionDays: number; now: () => Date }): Task =>
  async (_payload, helpers) => {
    const cutoff = new Date(deps.now().getTime() - deps.retentionDays * 86_400_000);
    const deliveries = await deps.prisma.webhookDelivery.deleteMany({
      where: { status: { in: ['success', 'exhausted'] }, createdAt: { lt: cutoff } },
    });
    const events = await deps.prisma.event.deleteMany({
      where: { createdAt: { lt: cutoff }, deliveries: { none: {} } },
    });
    // Periodic: a line only when it did something.
    if (deliveries.count || events.count)
      helpers.logger.info(`pruned ${deliveries.count} webhook deliveries and ${events.count} events`);
  };
