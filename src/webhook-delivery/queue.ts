import { randomUUID } from 'node:crypto';
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
