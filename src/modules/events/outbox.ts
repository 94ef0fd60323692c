import type { Prisma } from '../../../prisma/generated/client/client';
import type { Tx } from '../../db';
import type { EventType } from './catalog';

/** The graphile-worker task that fans an event out to subscribed endpoints (jobs/tasks/fan_out_event.ts). */
export const FAN_OUT_TASK = 'fan_out_event';

/**
 * The transactional outbox: writes the event row and enqueues its fan-out job in the caller's
 * transaction, so they commit or roll back together with the change that caused them.
 */
export async function emitEvent(
  tx: Tx,
  event: { storeId: string; type: EventType; data: Prisma.InputJsonValue; now: Date },
): Promise<string> {
  const row = await tx.event.create({
    data: { storeId: event.storeId, type: event.type, data: event.data, createdAt: event.now },
    select: { id: true },
  });
  const payload = JSON.stringify({ eventId: row.id });
  await tx.$executeRaw`SELECT graphile_worker.add_job(${FAN_OUT_TASK}, ${payload}::json, job_key := ${row.id})`;
  return row.id;
}
