import { taskName } from '../task-catalog';
import type { Queryable } from './queryable';

const AUTO_DISABLE_EXHAUSTED = 3;
const AUTO_DISABLE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * docs/design.md "Auto-disable and replay": the 3rd exhausted delivery within 7 days (counted since the endpoint was last
 * re-activated) turns the endpoint off and e-mails the store owner, in the caller's transaction. The
 * endpoint row is locked so two deliveries exhausting at once decide one after the other.
 */
export async function autoDisableIfFailing(tx: Queryable, endpointId: string, now: Date): Promise<boolean> {
  // The lock first, in a statement of its own: a statement that waited for the lock still reads with
  // the snapshot it began with, and would not count a delivery exhausted by the lock's holder.
  await tx.query(`SELECT 1 FROM "WebhookEndpoint" WHERE id = $1 FOR UPDATE`, [endpointId]);
  const { rows } = await tx.query<{
    isActive: boolean;
    url: string;
    storeName: string;
    to: string | null;
    exhausted: number;
  }>(
    `SELECT e."isActive", e.url, s.name AS "storeName", coalesce(o.email, s."contactEmail") AS "to",
            (SELECT count(*)::int FROM "WebhookDelivery" d
              WHERE d."endpointId" = e.id AND d.status = 'exhausted'
                AND d."exhaustedAt" >= greatest($2::timestamptz AT TIME ZONE 'UTC', e."reactivatedAt")) AS exhausted
       FROM "WebhookEndpoint" e JOIN "Store" s ON s.id = e."storeId" LEFT JOIN "StaffUser" o ON o.id = s."ownerId"
      WHERE e.id = $1`,
    [endpointId, new Date(now.getTime() - AUTO_DISABLE_WINDOW_MS).toISOString()],
  );
  const endpoint = rows[0];
  if (!endpoint?.isActive || endpoint.exhausted < AUTO_DISABLE_EXHAUSTED) return false;
  const reason = `${endpoint.exhausted} deliveries exhausted their retries within 7 days`;
  await tx.query(
    `UPDATE "WebhookEndpoint" SET "isActive" = false, "disabledAt" = $2::timestamptz AT TIME ZONE 'UTC',
            "disabledReason" = $3, "updatedAt" = $2::timestamptz AT TIME ZONE 'UTC'
      WHERE id = $1`,
    [endpointId, now.toISOString(), reason],
  );
  if (endpoint.to) {
    const message = {
      to: endpoint.to,
      subject: `Webhook endpoint disabled: ${endpoint.url}`,
      text: [
        `The webhook endpoint ${endpoint.url} (${endpointId}) of ${endpoint.storeName} was disabled: ${reason}.`,
        '',
        'It receives no events until it is activated again (PATCH /api/v1/store/webhooks/endpoints/' +
          `${endpointId} with {"isActive": true}); the exhausted deliveries can then be replayed ` +
          `(POST /api/v1/store/webhooks/endpoints/${endpointId}/replay-exhausted).`,
      ].join('\n'),
    };
    await tx.query(`SELECT graphile_worker.add_job('${taskName.send_email}', $1::json, max_attempts := 10)`, [
      JSON.stringify(message),
    ]);
  }
  return true;
}
