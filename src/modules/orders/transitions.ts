import type { OrderStatus } from '../../../prisma/generated/client/enums';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, type ErrorCode, notFound, stateConflict } from '../../errors';
import type { EventType } from '../../events/catalog';
import { emitEvent } from '../../events/outbox';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { cancelReasonInput } from './input';
import { loadOrderForPayload, ORDER_TX_OPTIONS, type OrderForPayload, orderPayload } from './service';

/** docs/design.md "The REST surface": pending → paid → fulfilled, pending|paid → cancelled; anything else is a 409. */
const transitions = {
  pay: {
    from: ['pending'],
    to: 'paid',
    stamp: 'paidAt',
    event: 'order.paid',
    refusal: 'ORDER_NOT_PAYABLE',
    verb: 'paid',
  },
  fulfill: {
    from: ['paid'],
    to: 'fulfilled',
    stamp: 'fulfilledAt',
    event: 'order.fulfilled',
    refusal: 'ORDER_NOT_FULFILLABLE',
    verb: 'fulfilled',
  },
  cancel: {
    from: ['pending', 'paid'],
    to: 'cancelled',
    stamp: 'cancelledAt',
    event: 'order.cancelled',
    refusal: 'ORDER_NOT_CANCELLABLE',
    verb: 'cancelled',
  },
} as const satisfies Record<
  string,
  {
    from: readonly OrderStatus[];
    to: OrderStatus;
    stamp: 'paidAt' | 'fulfilledAt' | 'cancelledAt';
    event: EventType;
    refusal: ErrorCode;
    verb: string;
  }
>;

type Transition = (typeof transitions)[keyof typeof transitions];

export const orderTransitionNames = Object.keys(transitions) as Array<keyof typeof transitions>;

/** The transitions an order in `status` may take now (the table above, for clients that show buttons). */
export const transitionsFrom = (status: OrderStatus) =>
  orderTransitionNames.filter((name) => (transitions[name].from as readonly OrderStatus[]).includes(status));

/**
 * Moves the order with one conditional update (`status IN (allowed)`), so of concurrent requests
 * exactly one wins; the others see the new status and get the 409 naming it (`details`: status).
 * `after` runs in the same transaction, only for the winner.
 */
async function move(
  ctx: Context,
  id: string,
  transition: Transition,
  extra: { cancelReason?: string | null } = {},
  after?: (tx: Tx, order: OrderForPayload) => Promise<void>,
) {
  const storeId = storeIdOf(ctx);
  return writeStore(
    ctx,
    storeId,
    async (tx) => {
      const now = ctx.now();
      const { count } = await tx.order.updateMany({
        where: { id, storeId, status: { in: [...transition.from] } },
        data: { status: transition.to, [transition.stamp]: now, updatedAt: now, ...extra },
      });
      if (count === 0) {
        const current = await tx.order.findFirst({
          where: { id, storeId },
          select: { number: true, status: true },
        });
        if (!current) throw notFound('Order');
        throw stateConflict(
          transition.refusal,
          `Order ${current.number} is ${current.status}; only ${transition.from.join(' or ')} orders can be ${transition.verb}`,
          { status: current.status },
        );
      }
      const order = await loadOrderForPayload(tx, id);
      if (after) await after(tx, order);
      await emitEvent(tx, { storeId, type: transition.event, data: { object: orderPayload(order) }, now });
      return order;
    },
    ORDER_TX_OPTIONS,
  );
}

export const payOrder = (ctx: Context, id: string) => move(ctx, id, transitions.pay);

export const fulfillOrder = (ctx: Context, id: string) => move(ctx, id, transitions.fulfill);

/**
 * Cancels a pending or paid order: its lines' quantities go back to stock (for products that still
 * exist, whatever their status) and its coupon redemption is released. Nothing is refunded here.
 */
export function cancelOrder(ctx: Context, id: string, reason: unknown, input?: { reason?: unknown } | null) {
  if (reason != null && input?.reason != null) {
    throw new AppError('VALIDATION_ERROR', 'reason: give the reason once, as an argument or in the input', [
      { path: 'reason', message: 'give the reason once, as an argument or in the input' },
    ]);
  }
  const cancelReason =
    input?.reason != null
      ? parseInput(cancelReasonInput, input.reason, 'input.reason')
      : parseInput(cancelReasonInput, reason, 'reason');
  const storeId = storeIdOf(ctx);
  return move(ctx, id, transitions.cancel, { cancelReason: cancelReason ?? null }, async (tx, order) => {
    const quantities = new Map<string, number>();
    for (const item of order.items) {
      if (item.productId)
        quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
    }
    // Same lock order as placing an order (products by id), so the two never deadlock.
    for (const productId of [...quantities.keys()].sort()) {
      await tx.product.updateMany({
        where: { id: productId, storeId },
        data: { stock: { increment: quantities.get(productId) as number } },
      });
    }
    if (order.couponId) {
      await tx.coupon.updateMany({
        where: { id: order.couponId, storeId, redemptionCount: { gt: 0 } },
        data: { redemptionCount: { decrement: 1 } },
      });
    }
  });
}
