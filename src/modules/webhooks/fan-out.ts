import { ASYNC_COMMIT_SQL, type Claimed, type Queryable } from './attempt';
import { ENVELOPE_SQL } from './envelope';

/**
 * An event → one delivery per active endpoint subscribed to its type (or to "*"), each row with its
 * envelope frozen — one statement, so one transaction. The rows are created already leased to the
 * fan-out (`$3` until `$4`): the fan-out task makes each first attempt itself, at once, and should its
 * worker die first, the sweeper finds the expired leases and queues the attempts (no delivery can be
 * left without either a live lease or a job). A repeated run creates and returns nothing twice (one
 * delivery per endpoint and event). `webhook.test` goes to its one endpoint.
 */
const FAN_OUT_SQL = `
WITH event AS (
  SELECT id, "storeId", type, "apiVersion", "createdAt", data FROM "Event" WHERE id = $1
), target AS (
  SELECT e.id AS "endpointId", e.url, e."secretCiphertext", 'msg_' || replace(gen_random_uuid()::text, '-', '') AS id
    FROM "WebhookEndpoint" e JOIN event ON e."storeId" = event."storeId"
   WHERE e."isActive"
     AND CASE WHEN event.type = 'webhook.test' THEN e.id = event.data #>> '{object,endpointId}'
              ELSE e.events && ARRAY[event.type, '*'] END
), created AS (
  INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", "storeId", "eventType", payload, "createdAt", "updatedAt",
                                 "leaseToken", "leaseExpiresAt")
  SELECT target.id, target."endpointId", event.id, event."storeId", event.type, ${ENVELOPE_SQL},
         $2::timestamptz AT TIME ZONE 'UTC', $2::timestamptz AT TIME ZONE 'UTC', $3, $4::timestamptz AT TIME ZONE 'UTC'
    FROM target CROSS JOIN event
  ON CONFLICT ("endpointId", "eventId") DO NOTHING
  RETURNING id, attempt, payload, "eventType", "endpointId"
)
SELECT created.id, created.attempt, created.payload, created."eventType", created."endpointId",
       target.url, target."secretCiphertext"
  FROM created JOIN target ON target.id = created.id CROSS JOIN (${ASYNC_COMMIT_SQL}) AS async_commit`;

/** Creates the event's deliveries, leased under `token` until `leaseUntil`, and returns them. */
export async function fanOutEvent(
  db: Queryable,
  eventId: string,
  now: Date,
  lease: { token: string; until: Date },
): Promise<Claimed[]> {
  const result = await db.query<Claimed>(FAN_OUT_SQL, [
    eventId,
    now.toISOString(),
    lease.token,
    lease.until.toISOString(),
  ]);
  return result.rows;
}
