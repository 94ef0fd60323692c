import { randomUUID } from 'node:crypto';
import type { Claimed, FanOut, Lease } from './claim';
import { coalesce } from './coalesce';
import { ENVELOPE_SQL } from './envelope';
import { ASYNC_COMMIT_SQL, prepared, type Queryable } from './queryable';

/**
 * Events → one delivery per active endpoint subscribed to each event's type (or to "*"), each row
 * with its envelope frozen — one statement, so one transaction, for any number of events. The rows
 * are created already leased to the fan-out (`$3` until `$4`): the fan-out task makes each first
 * attempt itself, at once, and should its worker die first, the sweeper finds the expired leases and
 * queues the attempts (no delivery can be left without either a live lease or a job). A repeated run
 * creates and returns nothing twice (one delivery per endpoint and event). A delivery's id is derived
 * from its endpoint and event, so should PostgreSQL lose the fan-out's asynchronous commit after the
 * first POSTs went out, the re-run sends the same `msg_` ids and receivers still de-duplicate.
 * `webhook.test` goes to its one endpoint.
 */
const FAN_OUT = prepared(
  'webhook_fan_out',
  `
WITH event AS (
  SELECT id, "storeId", type, "apiVersion", "createdAt", data FROM "Event" WHERE id = ANY($1::text[])
), target AS (
  SELECT event.id AS "eventId", e.id AS "endpointId", e.url, e."secretCiphertext", e."rateLimitPerSecond",
         'msg_' || md5(e.id || '/' || event.id) AS id
    FROM "WebhookEndpoint" e JOIN event ON e."storeId" = event."storeId"
   WHERE e."isActive"
     AND CASE WHEN event.type = 'webhook.test' THEN e.id = event.data #>> '{object,endpointId}'
              ELSE e.events && ARRAY[event.type, '*'] END
), created AS (
  INSERT INTO "WebhookDelivery" (id, "endpointId", "eventId", "storeId", "eventType", payload, "createdAt", "updatedAt",
                                 "leaseToken", "leaseExpiresAt")
  SELECT target.id, target."endpointId", event.id, event."storeId", event.type, ${ENVELOPE_SQL},
         $2::timestamptz AT TIME ZONE 'UTC', $2::timestamptz AT TIME ZONE 'UTC', $3, $4::timestamptz AT TIME ZONE 'UTC'
    FROM target JOIN event ON event.id = target."eventId"
  ON CONFLICT ("endpointId", "eventId") DO NOTHING
  RETURNING id, attempt, payload, "eventType", "endpointId", "eventId"
)
SELECT created.id, created.attempt, created.payload, created."eventType", created."endpointId", created."eventId",
       target.url, target."secretCiphertext", target."rateLimitPerSecond"
  FROM created JOIN target ON target.id = created.id CROSS JOIN (${ASYNC_COMMIT_SQL}) AS async_commit`,
);

/** Creates the events' deliveries, leased under `lease.token` until `lease.until`, and returns them. */
export async function fanOutEvents(
  db: Queryable,
  eventIds: string[],
  now: Date,
  lease: Lease,
): Promise<Array<Claimed & { eventId: string }>> {
  const result = await db.query<Claimed & { eventId: string }>(
    FAN_OUT([eventIds, now.toISOString(), lease.token, lease.until.toISOString()]),
  );
  return result.rows;
}

/**
 * The fan-out of one event at a time for the task, events fanned out together while the worker is
 * busy (see coalesce), each batch under a lease of its own.
 */
export function createFanOut(
  pool: Queryable,
  clock: { now: () => Date; leaseSeconds: number },
): (eventId: string) => Promise<FanOut> {
  return coalesce(async (eventIds: string[]) => {
    const now = clock.now();
    const lease = { token: randomUUID(), until: new Date(now.getTime() + clock.leaseSeconds * 1000) };
    const rows = await fanOutEvents(pool, eventIds, now, lease);
    // Two jobs of one event in one batch (a re-queued fan-out meeting its original): the first gets
    // the deliveries, the other nothing — as it would have, one statement later.
    const served = new Set<string>();
    return eventIds.map((eventId) => {
      const first = !served.has(eventId);
      served.add(eventId);
      return { lease, deliveries: first ? rows.filter((row) => row.eventId === eventId) : [] };
    });
  });
}
