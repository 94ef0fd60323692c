import type { Order, Prisma } from '../../../prisma/generated/client/client';
import type { OrderStatus } from '../../../prisma/generated/client/enums';
import type { Tx } from '../../db/client';
import { type ErrorDetail, validationError } from '../../errors';
import { storeRows } from '../../resources/store-resource/rows';
import { MAX_INT4 } from '../../validation';

export const orderSortFields = ['createdAt', 'number', 'totalAmount'] as const;
export type OrderSortField = (typeof orderSortFields)[number];

export interface OrderFilter {
  /** An order number (`1001` or `#1001`) or part of the e-mail address. */
  q?: string | null;
  status?: OrderStatus | null;
  /** createdAt ≥ from (inclusive). */
  from?: Date | null;
  /** createdAt < to (exclusive). */
  to?: Date | null;
  /** The orders of one customer. */
  customerId?: string | null;
  /** The orders that used one coupon (its redemptions). */
  couponId?: string | null;
}

function orderWhere(storeId: string, filter: OrderFilter): Prisma.OrderWhereInput {
  const details: ErrorDetail[] = [];
  for (const name of ['from', 'to'] as const) {
    const value = filter[name];
    if (value != null && Number.isNaN(value.getTime()))
      details.push({ path: name, message: 'must be a date-time' });
  }
  if (filter.from && filter.to && filter.from.getTime() >= filter.to.getTime()) {
    details.push({ path: 'to', message: 'must be after from' });
  }
  if (details.length > 0) throw validationError(details);
  const q = filter.q?.trim();
  const number = q && /^#?\d{1,10}$/.test(q) ? Number(q.replace('#', '')) : null;
  const createdAt: Prisma.DateTimeFilter = {
    ...(filter.from ? { gte: filter.from } : {}),
    ...(filter.to ? { lt: filter.to } : {}),
  };
  return {
    storeId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.couponId ? { couponId: filter.couponId } : {}),
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
    ...(q
      ? {
          OR: [
            { email: { contains: q, mode: 'insensitive' } },
            ...(number != null && number <= MAX_INT4 ? [{ number }] : []),
          ],
        }
      : {}),
  };
}

/** The store's orders: a page, a Relay connection's rows and count, one by id. */
export const orderRows = storeRows<Order, OrderFilter, OrderSortField>({
  name: 'Order',
  model: (ctx) => ctx.prisma.order,
  where: orderWhere,
  defaultSort: 'createdAt',
});

/** Lines in a fixed order (by name, then id): the GraphQL relation and the event payload agree. */
export const orderItemOrder = [
  { name: 'asc' },
  { id: 'asc' },
] satisfies Prisma.OrderItemOrderByWithRelationInput[];

/** What an order payload needs besides the order row. */
export const orderPayloadInclude = {
  items: { orderBy: orderItemOrder },
  coupon: { select: { code: true } },
  customer: { select: { id: true, email: true, firstName: true, lastName: true } },
} satisfies Prisma.OrderInclude;

export type OrderForPayload = Prisma.OrderGetPayload<{ include: typeof orderPayloadInclude }>;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The order as REST, GraphQL and event payloads show it (the REST item: lines, customer, coupon code). */
export const orderPayload = (order: OrderForPayload) => ({
  id: order.id,
  number: order.number,
  status: order.status,
  email: order.email,
  customerId: order.customerId,
  customer: order.customer
    ? {
        id: order.customer.id,
        email: order.customer.email,
        firstName: order.customer.firstName,
        lastName: order.customer.lastName,
      }
    : null,
  currency: order.currency,
  subtotalAmount: order.subtotalAmount,
  discountAmount: order.discountAmount,
  totalAmount: order.totalAmount,
  couponId: order.couponId,
  couponCode: order.coupon?.code ?? null,
  note: order.note,
  items: order.items.map((item) => ({
    id: item.id,
    productId: item.productId,
    name: item.name,
    sku: item.sku,
    unitAmount: item.unitAmount,
    quantity: item.quantity,
    totalAmount: item.totalAmount,
  })),
  paidAt: iso(order.paidAt),
  fulfilledAt: iso(order.fulfilledAt),
  cancelledAt: iso(order.cancelledAt),
  cancelReason: order.cancelReason,
  createdAt: order.createdAt.toISOString(),
  updatedAt: order.updatedAt.toISOString(),
});

/**
 * The order with what its payload needs, one relation per query: Prisma runs the queries of a
 * multi-relation include concurrently, which a transaction's single connection can only queue.
 */
export async function loadOrderForPayload(tx: Tx, id: string): Promise<OrderForPayload> {
  const order = await tx.order.findUniqueOrThrow({ where: { id } });
  const items = await tx.orderItem.findMany({ where: { orderId: id }, orderBy: orderItemOrder });
  const coupon = order.couponId
    ? await tx.coupon.findUnique({ where: { id: order.couponId }, ...orderPayloadInclude.coupon })
    : null;
  const customer = order.customerId
    ? await tx.customer.findUnique({ where: { id: order.customerId }, ...orderPayloadInclude.customer })
    : null;
  return { ...order, items, coupon, customer };
}

/** Bursts of orders queue for a connection and for the rows they lock: give them time, not a 500. */
export const ORDER_TX_OPTIONS = { maxWait: 15_000, timeout: 20_000 };
