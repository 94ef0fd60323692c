import type { Context } from '../../context';
import { assertWebhookAccess, findEndpoint } from './service';

/**
 * docs/design.md "Endpoint health": the last 24 hours in hours, or the last 30 days in days of the
 * store's time zone; the current (partial) hour or day is the last bucket.
 */
export const healthWindows = {
  LAST_24_HOURS: { unit: 'hour', buckets: 24 },
  LAST_30_DAYS: { unit: 'day', buckets: 30 },
} as const;
export type HealthWindow = keyof typeof healthWindows;

export interface HealthBucket {
  /** The bucket's first instant (an hour, or midnight in the store's time zone). */
  start: Date;
  /** Deliveries attempted in the bucket, each once however many attempts it had there. */
  deliveries: number;
  /** Requests made to the endpoint in the bucket: every attempt, retries included. */
  attempts: number;
  /** Attempts answered 2xx. */
  succeeded: number;
  failed: number;
  /** succeeded / attempts; null when there was no attempt (no rate to show, not 0 %). */
  successRate: number | null;
  /** Median and 95th percentile of the attempts' durationMs; null when there was no attempt. */
  medianMs: number | null;
  p95Ms: number | null;
}

interface BucketRow {
  start: Date;
  deliveries: number;
  attempts: number;
  succeeded: number;
  median: number | null;
  p95: number | null;
}

/**
 * One statement: the window's buckets (every one, empty ones too), each aggregating its attempts
 * with one range scan of the ("endpointId", "createdAt") INCLUDE (status, "durationMs", "deliveryId") index.
 * Buckets are cut in the store's zone (a day of 23 or 25 hours at a DST change stays one day) and
 * compared as the UTC timestamps the attempts are stored in, so the index applies.
 */
const HEALTH_SQL = `
WITH zone AS (SELECT timezone AS tz FROM "Store" WHERE id = $2),
local_now AS (SELECT date_trunc($3, $4::timestamptz AT TIME ZONE tz) AS unit_start, tz FROM zone),
-- Hours step in absolute time (a DST change neither repeats nor skips one); days step on the
-- store's calendar, each from its local midnight to the next.
buckets AS (
  SELECT CASE WHEN $3 = 'hour' THEN (n.unit_start AT TIME ZONE n.tz) - k * interval '1 hour'
              ELSE (n.unit_start - k * interval '1 day') AT TIME ZONE n.tz END AS start,
         CASE WHEN $3 = 'hour' THEN (n.unit_start AT TIME ZONE n.tz) - (k - 1) * interval '1 hour'
              ELSE (n.unit_start - (k - 1) * interval '1 day') AT TIME ZONE n.tz END AS finish
    FROM local_now AS n, generate_series($5::int - 1, 0, -1) AS k
)
SELECT b.start, a.deliveries, a.attempts, a.succeeded, a.median, a.p95
  FROM buckets AS b
  CROSS JOIN LATERAL (
    SELECT count(DISTINCT at."deliveryId")::int AS deliveries,
           count(*)::int AS attempts,
           (count(*) FILTER (WHERE at.status = 'success'))::int AS succeeded,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY at."durationMs") AS median,
           percentile_cont(0.95) WITHIN GROUP (ORDER BY at."durationMs") AS p95
      FROM "WebhookAttempt" AS at
     WHERE at."endpointId" = $1
       AND at."createdAt" >= (b.start AT TIME ZONE 'UTC') AND at."createdAt" < (b.finish AT TIME ZONE 'UTC')
  ) AS a
 ORDER BY b.start`;

/** Runs the health statement (also what bench/webhook-health.ts times). */
export async function healthBuckets(
  db: { $queryRawUnsafe<T>(sql: string, ...values: unknown[]): Promise<T> },
  input: { endpointId: string; storeId: string; window: HealthWindow; now: Date },
): Promise<HealthBucket[]> {
  const { unit, buckets } = healthWindows[input.window];
  const rows = await db.$queryRawUnsafe<BucketRow[]>(
    HEALTH_SQL,
    input.endpointId,
    input.storeId,
    unit,
    input.now.toISOString(),
    buckets,
  );
  return rows.map((row) => ({
    start: row.start,
    deliveries: row.deliveries,
    attempts: row.attempts,
    succeeded: row.succeeded,
    failed: row.attempts - row.succeeded,
    successRate: row.attempts === 0 ? null : row.succeeded / row.attempts,
    medianMs: row.median === null ? null : Math.round(row.median),
    p95Ms: row.p95 === null ? null : Math.round(row.p95),
  }));
}

/** README "Webhooks": the endpoint's health over the window; another store's endpoint is NOT_FOUND. */
export async function endpointHealth(ctx: Context, endpointId: string, window: HealthWindow) {
  const storeId = assertWebhookAccess(ctx);
  await findEndpoint(ctx, endpointId, storeId);
  const buckets = await healthBuckets(ctx.prisma, { endpointId, storeId, window, now: ctx.now() });
  return { endpointId, window, unit: healthWindows[window].unit, buckets };
}
