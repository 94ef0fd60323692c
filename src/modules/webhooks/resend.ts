import type { Context } from '../../context';
import { AppError, notFound } from '../../errors';
import { writeStore } from '../../resources/store-writes';
import { enqueueDeliveries } from '../../webhook-delivery/queue';
import { assertWebhookAccess, endpointStateConflict, lockEndpoint } from './service';

/**
 * Sends one delivery again now, whatever its status (as Stripe's and Svix's "resend"): a fresh round
 * of retries for the same event and envelope — the same delivery id, so a receiver that
 * de-duplicates sees it for what it is — with every earlier attempt kept in its history. The
 * endpoint must be active; a delivery whose attempt is in flight (its lease unexpired) is 409.
 */
export async function resendDelivery(ctx: Context, deliveryId: string) {
  const storeId = assertWebhookAccess(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const found = await tx.webhookDelivery.findFirst({
      where: { id: deliveryId, storeId },
      select: { endpointId: true },
    });
    if (!found) throw notFound('Webhook delivery');
    const endpoint = await lockEndpoint(tx, found.endpointId, storeId);
    if (!endpoint.isActive)
      throw endpointStateConflict(endpoint, 'The endpoint is inactive: activate it first');
    const now = ctx.now();
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lte: now } }] },
      data: {
        status: 'pending',
        attempt: 0,
        nextRetryAt: null,
        exhaustedAt: null,
        leaseToken: null,
        leaseExpiresAt: null,
        updatedAt: now,
      },
    });
    if (count === 0)
      throw new AppError('CONFLICT', 'An attempt of this delivery is in progress; try again shortly');
    await enqueueDeliveries(tx, [deliveryId]);
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  });
}
