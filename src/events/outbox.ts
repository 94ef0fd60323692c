import type { Prisma } from '../../prisma/generated/client/client';
import type { Tx } from '../db/client';
import { taskName } from '../task-catalog';
import type { EventType } from './catalog';

/**
 * The transactional outbox: writes the event row and enqueues its fan-out job in the caller's
 * transaction, so they commit or roll back together with the change that caused them. One statement
 * (the job is added for the row the INSERT returns): every write that emits an event holds its row
 * locks until commit, and each round trip before the commit is time other writers wait.
 */
export async function emitEvent(
  tx: Tx,
  event: { storeId: string; type: EventType; data: Prisma.InputJsonValue; now: Date },
): Promise<string> {
  const [row] = await tx.$queryRaw<[{ id: string }]>`
    WITH event AS (
      INSERT INTO "Event" ("storeId", type, data, "createdAt")
      VALUES (${event.storeId}, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${event.now})
      RETURNING id
    )
    SELECT event.id FROM event,
      LATERAL graphile_worker.add_job(${taskName.fan_out_event}, json_build_object('eventId', event.id), job_key := event.id)`;
  return row.id;
}
