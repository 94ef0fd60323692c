import type { Prisma } from '../../../prisma/generated/client/client';
import type { OrderStatus } from '../../../prisma/generated/client/enums';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db';
import { type ErrorDetail, notFound, validationError } from '../../errors';
import { MAX_INT4 } from '../../validation';
import { connectionOrder, loadPage, type PageArgs, pageWindow, resolvePage } from '../pagination/page';

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
}

/** A Prisma selection from Pothos (`{ include }` or `{ select }`), merged into the service's queries. */
type Selection = { include?: Prisma.OrderInclude; select?: Prisma.OrderSelect };

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

/**
 * A page of orders. `query` is the Pothos selection of the page's items (queryFromInfo), merged into
 * the one findMany so that their lines, customer and coupon load in a fixed number of queries.
 */
export async function listOrders(
  ctx: Context,
  args: PageArgs<OrderSortField> & OrderFilter,
  query: Selection = {},
) {
  const where = orderWhere(storeIdOf(ctx), args);
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.order.findMany({ ...query, where, ...pageWindow(page) }),
    ctx.prisma.order.count({ where }),
  );
}

/** For Relay connections: Pothos supplies the cursor window and selection in `query`. */
/** How many match the filter: a Relay connection's totalCount. */
export const countOrders = (ctx: Context, filter: OrderFilter) =>
  ctx.prisma.order.count({ where: orderWhere(storeIdOf(ctx), filter) });

export function findOrdersForConnection<Q extends object>(
  ctx: Context,
  query: Q,
  args: OrderFilter & { sortBy?: OrderSortField | null; sortDirection?: 'asc' | 'desc' | null },
) {
  return ctx.prisma.order.findMany({
    ...query,
    where: orderWhere(storeIdOf(ctx), args),
    orderBy: connectionOrder(args, 'createdAt'),
  });
}

export async function getOrder<Q extends object>(ctx: Context, id: string, query?: Q) {
  const order = await ctx.prisma.order.findFirst({ ...query, where: { id, storeId: storeIdOf(ctx) } });
  if (!order) throw notFound('Order');
  return order;
}

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
