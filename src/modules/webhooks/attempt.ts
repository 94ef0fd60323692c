import { randomUUID } from 'node:crypto';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import type { DeliveryStatus } from '../../../prisma/generated/client/enums';
import type { DeliveryResponse, WebhookHttpClient } from '../../webhooks/http-client';
import { autoDisableIfFailing } from './auto-disable';
import { MAX_ATTEMPTS, nextRetryAt } from './backoff';
import { DELIVER_TASK } from './queue';
import type { SecretBox } from './secret';
import { signedHeaders } from './signing';

/** A pg pool or client: the hot path of the pipeline runs plain single statements, no ORM round trips. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<QueryResult<R>>;
}

export interface DeliveryDeps {
  pool: Pool;
  secrets: SecretBox;
  httpClient: WebhookHttpClient;
  /** Whole-attempt deadline (spec: 10 s). */
  timeoutMs: number;
  /** How long an attempt holds its delivery; longer than timeoutMs, so only a dead worker loses it. */
  leaseSeconds: number;
  now: () => Date;
  /** [0, 1): the retry jitter. */
  random: () => number;
}

/** A delivery whose lease this worker holds, with what an attempt needs. */
export interface Claimed {
  id: string;
  attempt: number;
  payload: string;
  eventType: string;
  endpointId: string;
  url: string;
  secretCiphertext: string;
}

export type AttemptOutcome = DeliveryStatus | 'skipped' | 'lease lost';

// Timestamps travel as ISO strings: the columns are UTC `timestamp(3)`, as Prisma writes them.

/**
 * The pipeline's statements commit without waiting for the WAL flush: each is followed by
 * graphile-worker's synchronously committed complete_job, whose flush covers it. A PostgreSQL crash
 * in between loses at most an uncompleted job's work, which then runs again (at-least-once delivery).
 * Spares one fsync per statement, the main cost of the pipeline.
 */
export const ASYNC_COMMIT_SQL = `SELECT set_config('synchronous_commit', 'off', true) AS async_commit`;
const UTC = (n: number) => `$${n}::timestamptz AT TIME ZONE 'UTC'`;

/** Takes the delivery if it is due, its endpoint active and no live worker holds it. */
const CLAIM_SQL = `
WITH async_commit AS (${ASYNC_COMMIT_SQL})
UPDATE "WebhookDelivery" AS d
   SET "leaseToken" = $2, "leaseExpiresAt" = ${UTC(3)}
  FROM "WebhookEndpoint" AS e, async_commit
 WHERE d.id = $1 AND e.id = d."endpointId" AND e."isActive"
   AND d.status IN ('pending', 'failed')
   AND (d."nextRetryAt" IS NULL OR d."nextRetryAt" <= ${UTC(4)})
   AND (d."leaseExpiresAt" IS NULL OR d."leaseExpiresAt" <= ${UTC(5)})
RETURNING d.id, d.attempt, d.payload, d."eventType", d."endpointId", e.url, e."secretCiphertext"`;

/**
 * The result of an attempt, its attempt record and (after a failure) the next attempt's job: one
 * statement. Nothing is written unless the lease is still ours.
 */
const RECORD_SQL = `
WITH async_commit AS (${ASYNC_COMMIT_SQL}), updated AS (
  UPDATE "WebhookDelivery"
     SET status = $3::"DeliveryStatus", attempt = $4, "httpStatus" = $5, "responseBody" = $6, "errorMessage" = $7,
         "nextRetryAt" = ${UTC(8)},
         "deliveredAt" = CASE WHEN $3 = 'success' THEN ${UTC(9)} ELSE "deliveredAt" END,
         "exhaustedAt" = CASE WHEN $3 = 'exhausted' THEN ${UTC(9)} ELSE "exhaustedAt" END,
         "leaseToken" = NULL, "leaseExpiresAt" = NULL, "updatedAt" = ${UTC(9)}
   WHERE id = $1 AND "leaseToken" = $2
  RETURNING id
), recorded AS (
  INSERT INTO "WebhookAttempt" ("deliveryId", number, status, "httpStatus", "durationMs", "responseBody", "errorMessage", "createdAt")
  SELECT id, (SELECT coalesce(max(number), 0) + 1 FROM "WebhookAttempt" WHERE "deliveryId" = $1),
         $3::"DeliveryStatus", $5, $10, $6, $7, ${UTC(9)}
    FROM updated
  RETURNING 1
), retry AS (
  SELECT graphile_worker.add_job('${DELIVER_TASK}', json_build_object('deliveryId', id), job_key := id,
                                 run_at := $8::timestamptz, max_attempts := 10)
    FROM updated WHERE $8::timestamptz IS NOT NULL
)
SELECT (SELECT count(*) FROM updated)::int AS updated, (SELECT count(*) FROM recorded)::int AS recorded,
       (SELECT count(*) FROM retry)::int AS queued, (SELECT async_commit FROM async_commit)`;

/**
 * One attempt of one delivery: take its lease, POST the frozen envelope signed with the endpoint's
 * current secret, then record the result, the attempt and the next step atomically. A stale or
 * duplicate job finds nothing to take and does nothing.
 */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<AttemptOutcome> {
  const token = randomUUID();
  const now = deps.now();
  const claimed = (
    await deps.pool.query<Claimed>(CLAIM_SQL, [
      deliveryId,
      token,
      new Date(now.getTime() + deps.leaseSeconds * 1000).toISOString(),
      // A job may start a moment before this clock reaches nextRetryAt (PostgreSQL judges run_at).
      new Date(now.getTime() + 1000).toISOString(),
      now.toISOString(),
    ])
  ).rows[0];
  if (!claimed) return 'skipped';
  return sendAndRecord(deps, claimed, token);
}

/** POSTs a delivery whose lease is held under `token`, then records the outcome (see record()). */
export async function sendAndRecord(
  deps: DeliveryDeps,
  claimed: Claimed,
  token: string,
): Promise<AttemptOutcome> {
  const secret = deps.secrets.open(claimed.secretCiphertext, claimed.endpointId);
  const response = await deps.httpClient.post({
    url: claimed.url,
    headers: signedHeaders({
      secret,
      deliveryId: claimed.id,
      eventType: claimed.eventType,
      body: claimed.payload,
      timestamp: Math.floor(deps.now().getTime() / 1000),
    }),
    body: claimed.payload,
    timeoutMs: deps.timeoutMs,
  });
  return record(deps, claimed, token, response);
}

/** PostgreSQL text cannot hold NUL; a receiver's bytes must not break the log. */
const storable = (text: string | null) => (text === null ? null : text.replaceAll('\u0000', '\uFFFD'));

async function record(
  deps: DeliveryDeps,
  claimed: Claimed,
  token: string,
  response: DeliveryResponse,
): Promise<AttemptOutcome> {
  const now = deps.now();
  const attempt = claimed.attempt + 1;
  const status: DeliveryStatus = response.ok ? 'success' : attempt >= MAX_ATTEMPTS ? 'exhausted' : 'failed';
  const retryAt = status === 'failed' ? nextRetryAt(attempt, now, deps.random) : null;
  const params = [
    claimed.id,
    token,
    status,
    attempt,
    response.httpStatus,
    storable(response.responseBody),
    storable(response.ok ? null : (response.errorMessage ?? `HTTP ${response.httpStatus}`)),
    retryAt?.toISOString() ?? null,
    now.toISOString(),
    response.durationMs,
  ];
  if (status !== 'exhausted') {
    const result = await deps.pool.query<{ updated: number }>(RECORD_SQL, params);
    // Our lease ran out and another worker took the delivery over: its attempt is the one recorded.
    return result.rows[0]?.updated ? status : 'lease lost';
  }
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const result = await client.query<{ updated: number }>(RECORD_SQL, params);
    if (result.rows[0]?.updated) await autoDisableIfFailing(client, claimed.endpointId, now);
    await client.query('COMMIT');
    return result.rows[0]?.updated ? status : 'lease lost';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
