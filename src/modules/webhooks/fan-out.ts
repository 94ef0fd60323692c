import { ASYNC_COMMIT_SQL, type Queryable } from './attempt';
import { ENVELOPE_SQL } from './envelope';
import { DELIVER_TASK } from './queue';

/**
 * An event → one delivery per active endpoint subscribed to its type (or to "*"), each row with its
 * envelope frozen and its first attempt queued — one statement, so one transaction. A repeated run
 * creates nothing twice (one delivery per endpoint and event). `webhook.test` goes to its one endpoint.
 */
const FAN_OUT_SQL = `
WITH event AS (
  SELECT id, "storeId", type, "apiVersion", "createdAt", data FROM "Event" WHERE id = $1
), target AS (
  SELECT e.id AS "endpointId", 'msg_' || replace(gen_random_uuid()::text, '-', '') AS id
    FROM "WebhookEndpoint" e JOIN event ON e."storeId" = event."storeId"
   WHERE e."isActive"
     AND CASE WHEN event.type = 'webhook.test' THEN e.id = event.data #>> '{object,endpointId}'
              ELSE e.events && ARRAY[event.type, '*'] END
), created AS (
  INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", "storeId", "eventType", payload, "createdAt", "updatedAt")
  SELECT target.id, target."endpointId", event.id, event."storeId", event.type, ${ENVELOPE_SQL},
         $2::timestamptz AT TIME ZONE 'UTC', $2::timestamptz AT TIME ZONE 'UTC'
    FROM target CROSS JOIN event
  ON CONFLICT ("endpointId", "eventId") DO NOTHING
  RETURNING id
)
SELECT graphile_worker.add_job('${DELIVER_TASK}', json_build_object('deliveryId', id), job_key := id, max_attempts := 10)
  FROM created, (${ASYNC_COMMIT_SQL}) AS async_commit`;

export async function fanOutEvent(db: Queryable, eventId: string, now: Date): Promise<number> {
  const result = await db.query(FAN_OUT_SQL, [eventId, now.toISOString()]);
  return result.rowCount ?? 0;
}
