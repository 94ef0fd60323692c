import { Prisma } from '../../../prisma/generated/client/client';
import type { DeliveryStatus } from '../../../prisma/generated/client/enums';
import type { Context } from '../../context';
import { notFound } from '../../errors';
import { emitEvent } from '../../events/outbox';
import { mayReadEventData } from '../../events/read-rights';
import { loadPage, type PageArgs, pageWindow, resolvePage } from '../../resources/pagination/page';
import { writeStore } from '../../resources/store-writes';
import { requeueFresh } from '../../webhook-delivery/queue';
import type { WebhookTestEvent } from './event-types';
import { assertWebhookAccess, endpointStateConflict, findEndpoint, lockEndpoint } from './service';

export const deliverySortFields = ['createdAt', 'updatedAt'] as const;
export type DeliverySortField = (typeof deliverySortFields)[number];

/** docs/design.md "Delivery log": the delivery log of one endpoint, newest first by default. */
export async function listDeliveries(
  ctx: Context,
  endpointId: string,
  args: PageArgs<DeliverySortField> & { status?: DeliveryStatus | null },
) {
  const storeId = assertWebhookAccess(ctx);
  await findEndpoint(ctx, endpointId, storeId);
  const where = { endpointId, storeId, ...(args.status ? { status: args.status } : {}) };
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.webhookDelivery.findMany({ where, ...pageWindow(page) }),
    ctx.prisma.webhookDelivery.count({ where }),
  );
}

/** How far back `consecutiveFailures` looks: enough to say "many", bounded for an endpoint with years of history. */
export const CONSECUTIVE_FAILURES_CAP = 100;

/**
 * The endpoint's newest attempted deliveries (not pending) up to its last successful one whose last
 * attempt failed: failing now or exhausted. Read from the (endpointId, createdAt, id) index, at most
 * CONSECUTIVE_FAILURES_CAP rows, rather than kept as a counter the delivery hot path would update.
 */
export async function consecutiveFailures(ctx: Context, endpointId: string): Promise<number> {
  const [row] = await ctx.prisma.$queryRaw<[{ failures: number }]>`
    WITH recent AS (
      SELECT status, row_number() OVER () AS n
        FROM (SELECT status FROM "WebhookDelivery"
               WHERE "endpointId" = ${endpointId} AND status <> 'pending'
               ORDER BY "createdAt" DESC, id DESC LIMIT ${CONSECUTIVE_FAILURES_CAP}) AS newest
    )
    SELECT coalesce((SELECT min(n) - 1 FROM recent WHERE status = 'success'), (SELECT count(*) FROM recent))::int
      AS failures`;
  return row.failures;
}

export async function getDelivery(ctx: Context, id: string) {
  const storeId = assertWebhookAccess(ctx);
  const delivery = await ctx.prisma.webhookDelivery.findFirst({ where: { id, storeId } });
  if (!delivery) throw notFound('Webhook delivery');
  return delivery;
}

/**
 * A delivery's request body holds its event's resource (an order, a customer), so only a caller
 * holding that resource's read right sees it; for others it is null (README "Webhooks").
 */
export const visiblePayload = (ctx: Context, delivery: { eventType: string; payload: string }) =>
  mayReadEventData(ctx.principal, delivery.eventType) ? delivery.payload : null;

/**
 * docs/design.md "Auto-disable and replay": every exhausted delivery of the endpoint goes back into the normal pipeline with fresh
 * retries (8 attempts again; attempt records keep counting). The endpoint must be active; its row is
 * locked meanwhile, so a deactivation waits. Of concurrent replays the first re-queues the deliveries
 * (one conditional statement, `WHERE status = 'exhausted'`) and the others find none: `{ replayed: 0 }`.
 */
export async function replayExhausted(ctx: Context, endpointId: string): Promise<{ replayed: number }> {
  const storeId = assertWebhookAccess(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const endpoint = await lockEndpoint(tx, endpointId, storeId);
    if (!endpoint.isActive) {
      throw endpointStateConflict(
        endpoint,
        'The endpoint is inactive: activate it (isActive: true) before replaying',
      );
    }
    const replayed = await requeueFresh(
      tx,
      Prisma.sql`"endpointId" = ${endpointId} AND status = 'exhausted'`,
      ctx.now(),
    );
    return { replayed: replayed.length };
  });
}

/** Sends a `webhook.test` event to this one endpoint through the normal pipeline (outbox → fan-out → delivery). */
export async function testEndpoint(ctx: Context, endpointId: string): Promise<{ eventId: string }> {
  const storeId = assertWebhookAccess(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const endpoint = await lockEndpoint(tx, endpointId, storeId);
    if (!endpoint.isActive) throw endpointStateConflict(endpoint, 'The endpoint is inactive');
    const eventId = await emitEvent(tx, {
      storeId,
      type: 'webhook.test',
      data: {
        object: { endpointId, message: 'A test event sent from the store' } satisfies WebhookTestEvent,
      },
      now: ctx.now(),
    });
    return { eventId };
  });
}
