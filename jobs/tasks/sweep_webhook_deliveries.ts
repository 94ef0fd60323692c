import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import { taskName } from '../../src/task-catalog';
import { enqueueDeliveries } from '../../src/webhook-delivery/queue';

/**
 * Hands work of dead workers to live ones. graphile-worker alone leaves a crashed worker's jobs locked
 * for 4 hours; here, every WEBHOOK_SWEEP_INTERVAL_MS:
 * - a delivery whose lease expired (its worker died mid-attempt) gets its lease cleared and a new job
 *   (add_job detaches the dead worker's locked job and marks it used up, so it never runs again);
 * - a fan-out job locked for longer than a lease gets the same treatment (fan-out is idempotent);
 * - so does a delivery job locked for longer than a lease: its worker died, or PostgreSQL went away as
 *   the worker reported the job done or failed (a claim that finds the delivery finished does nothing).
 * A delivery is attempted again within lease + interval + queue latency.
 */
export const makeSweepWebhookDeliveries =
  (deps: { prisma: PrismaClient; leaseSeconds: number; now: () => Date }): Task =>
  async (_payload, helpers) => {
    const now = deps.now();
    const recovered = await deps.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ id: string }>>`
        UPDATE "WebhookDelivery" SET "leaseToken" = NULL, "leaseExpiresAt" = NULL
         WHERE id IN (
           SELECT id FROM "WebhookDelivery"
            WHERE status IN ('pending', 'failed') AND "leaseExpiresAt" < ${now}
            ORDER BY "leaseExpiresAt" LIMIT 1000 FOR UPDATE SKIP LOCKED)
        RETURNING id`;
      await enqueueDeliveries(
        tx,
        rows.map((row) => row.id),
      );
      return rows.length;
    });
    const fanOuts = await deps.prisma.$executeRaw`
      SELECT graphile_worker.add_job(${taskName.fan_out_event}, json_build_object('eventId', key), job_key := key)
        FROM graphile_worker.jobs
       WHERE task_identifier = ${taskName.fan_out_event} AND key IS NOT NULL
         AND locked_at < now() - make_interval(secs => ${deps.leaseSeconds})`;
    const attempts = await deps.prisma.$executeRaw`
      SELECT graphile_worker.add_job(${taskName.deliver_webhook}, json_build_object('deliveryId', key), job_key := key,
                                     max_attempts := 10)
        FROM graphile_worker.jobs
       WHERE task_identifier = ${taskName.deliver_webhook} AND key IS NOT NULL
         AND locked_at < now() - make_interval(secs => ${deps.leaseSeconds})`;
    if (recovered > 0 || fanOuts > 0 || attempts > 0) {
      helpers.logger.warn(
        `took over ${recovered} deliveries, ${fanOuts} fan-outs and ${attempts} attempt jobs left by workers that stopped or lost their database`,
      );
    }
  };
