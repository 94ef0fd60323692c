import { taskName } from '../task-catalog';
import type { Claimed, Lease } from './claim';
import { ASYNC_COMMIT_SQL, prepared, type Queryable } from './queryable';

/**
 * A delivery its endpoint's rate did not admit (rate.ts) gives up its lease and gets its attempt job
 * again, due when the window has room: its status, attempt counter and retry schedule stay as they
 * are (nothing was sent, so nothing is recorded). Only while the lease is still ours: a worker that
 * took it over meanwhile decides. The job key is the delivery id, as everywhere (queue.ts).
 */
const WAIT = prepared(
  'webhook_wait_for_rate',
  `
WITH async_commit AS (${ASYNC_COMMIT_SQL}), released AS (
  UPDATE "WebhookDelivery" SET "leaseToken" = NULL, "leaseExpiresAt" = NULL
   WHERE id = $1 AND "leaseToken" = $2
  RETURNING id
)
SELECT graphile_worker.add_job('${taskName.deliver_webhook}', json_build_object('deliveryId', id), job_key := id,
                               run_at := $3::timestamptz, max_attempts := 10), (SELECT async_commit FROM async_commit)
  FROM released`,
);

/** Re-queues the delivery `waitMs` from `now` (the gate spaces the waiting ones a slot apart). */
export async function waitForRate(
  db: Queryable,
  claimed: Claimed,
  lease: Lease,
  waitMs: number,
  now: Date,
): Promise<void> {
  const runAt = new Date(now.getTime() + waitMs);
  await db.query(WAIT([claimed.id, lease.token, runAt.toISOString()]));
}
