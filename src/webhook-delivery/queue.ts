import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../prisma/generated/client/client';
import type { Tx } from '../db/client';
import { taskName } from '../task-catalog';

/** Endpoint ids are made here rather than by PostgreSQL: the secret's associated data needs it first. */
export const newId = (prefix: 'whe') => `${prefix}_${randomUUID().replaceAll('-', '')}`;

/**
 * Queues an attempt, due now, for each delivery (replay, re-activation, the sweeper). The job key is the
 * delivery id: at most one waiting job per delivery; a job still locked by a worker (the running
 * attempt, or one whose worker died) is detached and used up by add_job, and a new one created.
 */
export async function enqueueDeliveries(tx: Tx, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await tx.$executeRaw`SELECT graphile_worker.add_job(${taskName.deliver_webhook}, json_build_object('deliveryId', id), job_key := id, max_attempts := 10) FROM unnest(${deliveryIds}::text[]) AS id`;
}

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Puts the deliveries `condition` selects back into the pipeline with a fresh round of retries (the
 * attempt records keep counting) and queues an attempt each: replay and recover. One conditional
 * statement, so a delivery another request re-queued meanwhile is not taken twice. Answers their ids.
 */
export async function requeueFresh(tx: Tx, condition: Prisma.Sql, now: Date): Promise<string[]> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE "WebhookDelivery"
       SET status = 'pending', attempt = 0, "nextRetryAt" = NULL, "exhaustedAt" = NULL, "httpStatus" = NULL,
           "responseBody" = NULL, "errorMessage" = NULL, "leaseToken" = NULL, "leaseExpiresAt" = NULL,
           "updatedAt" = ${now}
     WHERE ${condition}
    RETURNING id`;
  const ids = rows.map((row) => row.id);
  await enqueueDeliveries(tx, ids);
  return ids;
}
