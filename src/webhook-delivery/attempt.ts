import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { DeliveryStatus } from '../../prisma/generated/client/enums';
import type { SecretBox } from '../auth/secret-box';
import { retryWhileUnavailable } from '../db/availability';
import type { DeliveryResponse, WebhookHttpClient } from '../outbound-http/http-client';
import { autoDisableIfFailing } from './auto-disable';
import { nextRetryAt } from './backoff';
import type { Claimed, FanOut, Lease } from './claim';
import { ASYNC_COMMIT_SQL, prepared } from './queryable';
import type { DeliveryRateGate } from './rate';
import { waitForRate } from './rate-wait';
import { type AttemptRecord, type AttemptRecorder, writeRecords } from './record';
import { signedHeaders } from './signing';

export interface DeliveryDeps {
  pool: Pool;
  /** Writes finished attempts, several per statement when the worker is busy (record.ts). */
  recorder: AttemptRecorder;
  /** Creates an event's deliveries leased to this worker, several events per statement when busy (fan-out.ts). */
  fanOut: (eventId: string) => Promise<FanOut>;
  secrets: SecretBox;
  httpClient: WebhookHttpClient;
  /** Each endpoint's rate, held across worker processes (rate.ts). */
  rateGate: DeliveryRateGate;
  /** Whole-attempt deadline (docs/design.md "Retries": 10 s). */
  timeoutMs: number;
  /** How long an attempt holds its delivery; longer than timeoutMs, so only a dead worker loses it. */
  leaseSeconds: number;
  now: () => Date;
  /** [0, 1): the retry jitter. */
  random: () => number;
}

type AttemptOutcome = DeliveryStatus | 'skipped' | 'lease lost' | 'waiting for the endpoint rate';

// Timestamps travel as ISO strings: the columns are UTC `timestamp(3)`, as Prisma writes them.

const UTC = (n: number) => `$${n}::timestamptz AT TIME ZONE 'UTC'`;

/** Takes the delivery if it is due, its endpoint active and no live worker holds it. */
const CLAIM = prepared(
  'webhook_claim_delivery',
  `
WITH async_commit AS (${ASYNC_COMMIT_SQL})
UPDATE "WebhookDelivery" AS d
   SET "leaseToken" = $2, "leaseExpiresAt" = ${UTC(3)}
  FROM "WebhookEndpoint" AS e, async_commit
 WHERE d.id = $1 AND e.id = d."endpointId" AND e."isActive"
   AND d.status IN ('pending', 'failed')
   AND (d."nextRetryAt" IS NULL OR d."nextRetryAt" <= ${UTC(4)})
   AND (d."leaseExpiresAt" IS NULL OR d."leaseExpiresAt" <= ${UTC(5)})
RETURNING d.id, d.attempt, d.payload, d."eventType", d."endpointId", e.url, e."secretCiphertext", e."rateLimitPerSecond"`,
);

/**
 * One attempt of one delivery: take its lease, POST the frozen envelope signed with the endpoint's
 * current secret, then record the result, the attempt and the next step atomically. A stale or
 * duplicate job finds nothing to take and does nothing.
 */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<AttemptOutcome> {
  const now = deps.now();
  const lease = { token: randomUUID(), until: new Date(now.getTime() + deps.leaseSeconds * 1000) };
  const claimed = (
    await deps.pool.query<Claimed>(
      CLAIM([
        deliveryId,
        lease.token,
        lease.until.toISOString(),
        // A job may start a moment before this clock reaches nextRetryAt (PostgreSQL judges run_at).
        new Date(now.getTime() + 1000).toISOString(),
        now.toISOString(),
      ]),
    )
  ).rows[0];
  if (!claimed) return 'skipped';
  return sendAndRecord(deps, claimed, lease);
}

/**
 * POSTs a delivery whose lease is held under `lease.token`, then records the outcome (see record()).
 * Every attempt (the fan-out's first, and each deliver_webhook job) starts here, so the endpoint's
 * rate is asked here, once: beyond it, the delivery waits (rate-wait.ts) and no attempt is made.
 */
export async function sendAndRecord(
  deps: DeliveryDeps,
  claimed: Claimed,
  lease: Lease,
): Promise<AttemptOutcome> {
  let finishSlot: (() => Promise<void>) | undefined;
  if (claimed.rateLimitPerSecond !== null) {
    // The slot is held for the attempt's whole deadline, and a second more, should this worker die.
    const holdMs = deps.timeoutMs + 1000;
    const admission = await deps.rateGate.admit(claimed.endpointId, claimed.rateLimitPerSecond, holdMs);
    if (!admission.admitted) {
      await waitForRate(deps.pool, claimed, lease, admission.waitMs, deps.now());
      return 'waiting for the endpoint rate';
    }
    finishSlot = admission.finish;
  }
  let response: DeliveryResponse;
  try {
    const secret = deps.secrets.open(claimed.secretCiphertext, claimed.endpointId);
    response = await deps.httpClient.post({
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
  } finally {
    await finishSlot?.();
  }
  // The receiver has it: should PostgreSQL be away now, the outcome waits for it while the lease holds,
  // since a lease left to expire means the sweeper sends the delivery again.
  const leaseLeftMs = lease.until.getTime() - deps.now().getTime();
  return retryWhileUnavailable(() => record(deps, claimed, lease.token, response), leaseLeftMs);
}

async function record(
  deps: DeliveryDeps,
  claimed: Claimed,
  token: string,
  response: DeliveryResponse,
): Promise<AttemptOutcome> {
  const now = deps.now();
  const attempt = claimed.attempt + 1;
  // backoff.ts decides exhaustion: no next attempt after a failure means the delivery is exhausted.
  const retryAt = response.ok ? null : nextRetryAt(attempt, now, deps.random);
  const status: DeliveryStatus = response.ok ? 'success' : retryAt ? 'failed' : 'exhausted';
  const entry: AttemptRecord = {
    deliveryId: claimed.id,
    leaseToken: token,
    status,
    attempt,
    httpStatus: response.httpStatus,
    responseBody: response.responseBody,
    errorMessage: response.ok ? null : (response.errorMessage ?? `HTTP ${response.httpStatus}`),
    retryAt,
    at: now,
    durationMs: response.durationMs,
  };
  // Our lease ran out and another worker took the delivery over: its attempt is the one recorded.
  if (status !== 'exhausted') return (await deps.recorder.record(entry)) ? status : 'lease lost';
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const written = (await writeRecords(client, [entry])).has(claimed.id);
    if (written) await autoDisableIfFailing(client, claimed.endpointId, now);
    await client.query('COMMIT');
    return written ? status : 'lease lost';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
