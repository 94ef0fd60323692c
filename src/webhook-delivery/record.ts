import type { Pool } from 'pg';
import type { DeliveryStatus } from '../../prisma/generated/client/enums';
import { taskName } from '../task-catalog';
import { coalesce } from './coalesce';
import { ASYNC_COMMIT_SQL, type Queryable } from './queryable';

/** What one finished attempt writes: the delivery's new state, its attempt record, its next job. */
export interface AttemptRecord {
  deliveryId: string;
  /** The lease the attempt was made under: nothing is written unless it is still the delivery's. */
  leaseToken: string;
  status: DeliveryStatus;
  attempt: number;
  httpStatus: number;
  responseBody: string | null;
  errorMessage: string | null;
  /** After a failure: when the next attempt is due (its `deliver_webhook` job is queued for then). */
  retryAt: Date | null;
  at: Date;
  durationMs: number;
}

const UTC = (column: string) => `${column} AT TIME ZONE 'UTC'`;

/**
 * Any number of finished attempts in one statement: each delivery's result, its attempt record
 * and (after a failure) the next attempt's job. Rows whose lease is no longer theirs write nothing.
 * Returns the ids that were written. Timestamps travel as timestamptz and are stored as the UTC
 * `timestamp(3)` columns Prisma writes. Deliberately not a prepared statement: a cached generic plan
 * cannot know how many rows `input` holds and, planned while the table was small, joins by scanning
 * the whole WebhookDelivery table.
 */
const RECORD_SQL = `
WITH async_commit AS (${ASYNC_COMMIT_SQL}), input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::"DeliveryStatus"[], $4::int[], $5::int[], $6::text[], $7::text[],
                       $8::timestamptz[], $9::timestamptz[], $10::int[])
    AS i(id, token, status, attempt, "httpStatus", "responseBody", "errorMessage", "retryAt", at, "durationMs")
), updated AS (
  UPDATE "WebhookDelivery" AS d
     SET status = i.status, attempt = i.attempt, "httpStatus" = i."httpStatus", "responseBody" = i."responseBody",
         "errorMessage" = i."errorMessage", "nextRetryAt" = ${UTC('i."retryAt"')},
         "deliveredAt" = CASE WHEN i.status = 'success' THEN ${UTC('i.at')} ELSE d."deliveredAt" END,
         "exhaustedAt" = CASE WHEN i.status = 'exhausted' THEN ${UTC('i.at')} ELSE d."exhaustedAt" END,
         "leaseToken" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${UTC('i.at')}
    FROM input AS i
   WHERE d.id = i.id AND d."leaseToken" = i.token
  RETURNING d.id, d."endpointId"
), recorded AS (
  INSERT INTO "WebhookAttempt" ("deliveryId", "endpointId", number, status, "httpStatus", "durationMs", "responseBody", "errorMessage", "createdAt")
  SELECT i.id, updated."endpointId", (SELECT coalesce(max(a.number), 0) + 1 FROM "WebhookAttempt" AS a WHERE a."deliveryId" = i.id),
         i.status, i."httpStatus", i."durationMs", i."responseBody", i."errorMessage", ${UTC('i.at')}
    FROM input AS i JOIN updated USING (id)
  RETURNING 1
), retry AS (
  SELECT graphile_worker.add_job('${taskName.deliver_webhook}', json_build_object('deliveryId', i.id), job_key := i.id,
                                 run_at := i."retryAt", max_attempts := 10)
    FROM input AS i JOIN updated USING (id)
   WHERE i."retryAt" IS NOT NULL
)
SELECT array(SELECT id FROM updated) AS written, (SELECT count(*) FROM recorded)::int AS recorded,
       (SELECT count(*) FROM retry)::int AS queued, (SELECT async_commit FROM async_commit)`;

/** PostgreSQL text cannot hold NUL; a receiver's bytes must not break the log. */
const storable = (text: string | null) => (text === null ? null : text.replaceAll('\u0000', '\uFFFD'));

/** Writes the records in one statement; resolves to the ids whose lease still held. */
export async function writeRecords(db: Queryable, records: AttemptRecord[]): Promise<Set<string>> {
  const column = <T>(pick: (record: AttemptRecord) => T) => records.map(pick);
  const result = await db.query<{ written: string[] }>(RECORD_SQL, [
    column((r) => r.deliveryId),
    column((r) => r.leaseToken),
    column((r) => r.status),
    column((r) => r.attempt),
    column((r) => r.httpStatus),
    column((r) => storable(r.responseBody)),
    column((r) => storable(r.errorMessage)),
    column((r) => r.retryAt?.toISOString() ?? null),
    column((r) => r.at.toISOString()),
    column((r) => r.durationMs),
  ]);
  return new Set(result.rows[0]?.written ?? []);
}

export interface AttemptRecorder {
  /** Resolves to whether the record was written (false: the lease was lost to another worker). */
  record(record: AttemptRecord): Promise<boolean>;
}

/** Records finished attempts, several per statement while the worker is busy (see coalesce). */
export function createAttemptRecorder(pool: Pool): AttemptRecorder {
  return {
    record: coalesce(async (records: AttemptRecord[]) => {
      const written = await writeRecords(pool, records);
      return records.map((record) => written.has(record.deliveryId));
    }),
  };
}
