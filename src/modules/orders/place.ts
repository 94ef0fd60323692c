import type { Coupon, Order, OrderItem } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, type ErrorDetail, validationError } from '../../errors';
import { emitEvent } from '../../events/outbox';
import { writeStore } from '../../resources/store-writes';
import { MAX_INT4, parseInput } from '../../validation';
import { couponDiscount, couponProblem } from '../coupons/redemption';
import { type PlaceOrderInput, placeOrderInput } from './input';
import { ORDER_TX_OPTIONS, orderPayload, orderPayloadInclude } from './service';

const detail = (path: string, message: string): ErrorDetail => ({ path, message });

interface ReservedLine {
  productId: string;
  name: string;
  sku: string | null;
  unitAmount: number;
  quantity: number;
  totalAmount: number;
}

/**
 * Places an order in one transaction: checks the customer, the products and the coupon, reserves
 * stock line by line with conditional updates (products in id order, so concurrent orders never
 * deadlock), redeems the coupon under its cap, allocates the store's next order number, writes the
 * order with a snapshot of each line and emits `order.placed`. Any failure rolls all of it back.
 */
export async function placeOrder(ctx: Context, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(placeOrderInput, input, 'input');
  return writeStore(
    ctx,
    storeId,
    async (tx) => {
      const now = ctx.now();
      const store = await tx.store.findUniqueOrThrow({
        where: { id: storeId },
        select: {
          currency: true,
          products: {
            where: { id: { in: fields.items.map((item) => item.productId) } },
            select: { id: true, status: true, currency: true },
          },
        },
      });
      const { email, customer } = await resolveCustomer(tx, storeId, fields);
      checkProducts(store, fields);
      const lines = await reserveStock(tx, storeId, fields);
      const subtotal = lines.reduce((sum, line) => sum + line.totalAmount, 0);
      if (subtotal > MAX_INT4) {
        throw validationError([detail('input.items', `the order total may be at most ${MAX_INT4}`)]);
      }
      const coupon = fields.couponCode
        ? await redeemCoupon(tx, storeId, fields.couponCode, subtotal, now)
        : null;
      const discount = coupon ? couponDiscount(coupon, subtotal) : 0;
      const order = await insertOrder(tx, {
        storeId,
        customerId: fields.customerId ?? null,
        email,
        currency: store.currency,
        subtotalAmount: subtotal,
        discountAmount: discount,
        totalAmount: subtotal - discount,
        couponId: coupon?.id ?? null,
        note: fields.note ?? null,
        now,
        lines,
      });
      const placed = { ...order, coupon: coupon ? { code: coupon.code } : null, customer };
      await emitEvent(tx, { storeId, type: 'order.placed', data: { object: orderPayload(placed) }, now });
      return placed;
    },
    ORDER_TX_OPTIONS,
  );
}

/**
 * Takes the store's next order number and writes the order and its lines: one statement, the last
 * before the event. The store row (which every order of the store needs) and the reserved products
 * stay locked until commit, so what follows the number is kept to this statement and the event's.
 */
async function insertOrder(
  tx: Tx,
  order: Pick<
    Order,
    | 'storeId'
    | 'customerId'
    | 'email'
    | 'currency'
    | 'subtotalAmount'
    | 'discountAmount'
    | 'totalAmount'
    | 'couponId'
    | 'note'
  > & { now: Date; lines: ReservedLine[] },
): Promise<Order & { items: OrderItem[] }> {
  // The lines come back in the order orderPayload shows them (orderItemOrder: name, then id).
  const [row] = await tx.$queryRaw<[Order & { items: OrderItem[] }]>`
    WITH numbered AS (
      UPDATE "Store" SET "nextOrderNumber" = "nextOrderNumber" + 1
      WHERE id = ${order.storeId} RETURNING "nextOrderNumber" - 1 AS number
    ), placed AS (
      INSERT INTO "Order" ("storeId", number, "customerId", email, currency, "subtotalAmount", "discountAmount",
        "totalAmount", "couponId", note, "createdAt", "updatedAt")
      SELECT ${order.storeId}, number, ${order.customerId}, ${order.email}, ${order.currency}, ${order.subtotalAmount},
        ${order.discountAmount}, ${order.totalAmount}, ${order.couponId}, ${order.note}, ${order.now}, ${order.now}
      FROM numbered
      RETURNING *
    ), lines AS (
      INSERT INTO "OrderItem" ("orderId", "productId", name, sku, "unitAmount", quantity, "totalAmount")
      SELECT placed.id, line."productId", line.name, line.sku, line."unitAmount", line.quantity, line."totalAmount"
      FROM placed, jsonb_to_recordset(${JSON.stringify(order.lines)}::jsonb) AS line("productId" text, name text,
        sku text, "unitAmount" int, quantity int, "totalAmount" int)
      RETURNING *
    )
    SELECT placed.*, (SELECT jsonb_agg(to_jsonb(lines) ORDER BY lines.name, lines.id) FROM lines) AS items
    FROM placed`;
  return row;
}

/** The customer must belong to the store; the order's e-mail defaults to theirs. */
async function resolveCustomer(tx: Tx, storeId: string, fields: PlaceOrderInput) {
  if (!fields.customerId) return { email: fields.email as string, customer: null };
  const customer = await tx.customer.findFirst({
    where: { id: fields.customerId, storeId },
    ...orderPayloadInclude.customer,
  });
  if (!customer) throw validationError([detail('input.customerId', 'no such customer')]);
  return { email: fields.email ?? customer.email, customer };
}

/**
 * Every line names an active product of the store, priced in the store's currency (the store's row
 * and the lines' products are read in one statement).
 */
function checkProducts(
  store: { currency: string; products: Array<{ id: string; status: string; currency: string }> },
  fields: PlaceOrderInput,
) {
  const { currency, products } = store;
  const byId = new Map(products.map((product) => [product.id, product]));
  const details: ErrorDetail[] = [];
  fields.items.forEach((item, index) => {
    const path = `input.items.${index}.productId`;
    const product = byId.get(item.productId);
    if (!product) details.push(detail(path, 'no such product'));
    else if (product.status !== 'active')
      details.push(detail(path, `the product is ${product.status}, not for sale`));
    else if (product.currency !== currency) {
      details.push(
        detail(path, `the product is priced in ${product.currency}; the store sells in ${currency}`),
      );
    }
  });
  if (details.length > 0) throw validationError(details);
}

/**
 * Takes each line's quantity from stock with `UPDATE … WHERE stock >= quantity RETURNING …`: the row
 * lock makes concurrent orders queue, and the price, name and sku are read from the locked row.
 */
async function reserveStock(tx: Tx, storeId: string, fields: PlaceOrderInput): Promise<ReservedLine[]> {
  const indexed = fields.items.map((item, index) => ({ ...item, index }));
  indexed.sort((a, b) => (a.productId < b.productId ? -1 : a.productId > b.productId ? 1 : 0));
  const lines: ReservedLine[] = [];
  for (const item of indexed) {
    const [row] = await tx.$queryRaw<Array<{ name: string; sku: string | null; priceAmount: number }>>`
      UPDATE "Product" SET stock = stock - ${item.quantity}
      WHERE id = ${item.productId} AND "storeId" = ${storeId} AND status = 'active' AND stock >= ${item.quantity}
      RETURNING name, sku, "priceAmount"`;
    if (!row) throw await reservationFailure(tx, storeId, item);
    lines.push({
      productId: item.productId,
      name: row.name,
      sku: row.sku,
      unitAmount: row.priceAmount,
      quantity: item.quantity,
      totalAmount: row.priceAmount * item.quantity,
    });
  }
  return lines;
}

async function reservationFailure(
  tx: Tx,
  storeId: string,
  item: { productId: string; quantity: number; index: number },
): Promise<AppError> {
  const product = await tx.product.findFirst({
    where: { id: item.productId, storeId },
    select: { stock: true, status: true },
  });
  if (product?.status !== 'active') {
    // Deleted or withdrawn between the check and the reservation.
    return validationError([
      detail(`input.items.${item.index}.productId`, 'the product is no longer for sale'),
    ]);
  }
  const message = `only ${product.stock} in stock, ${item.quantity} ordered`;
  return new AppError('INSUFFICIENT_STOCK', `input.items.${item.index}.quantity: ${message}`, [
    detail(`input.items.${item.index}.quantity`, message),
  ]);
}

/**
 * Applies the coupon: found by code in the store (any case), valid now for this subtotal, and redeemed
 * with a conditional increment that holds the row lock, so its cap holds under concurrent orders.
 */
async function redeemCoupon(
  tx: Tx,
  storeId: string,
  code: string,
  subtotal: number,
  now: Date,
): Promise<Coupon> {
  const path = 'input.couponCode';
  const found = await tx.coupon.findFirst({
    where: { storeId, code: { equals: code, mode: 'insensitive' } },
    select: { id: true },
  });
  if (!found) throw validationError([detail(path, 'no such coupon')]);
  const [coupon] = await tx.$queryRaw<Coupon[]>`
    UPDATE "Coupon" SET "redemptionCount" = "redemptionCount" + 1
    WHERE id = ${found.id} AND "storeId" = ${storeId}
    RETURNING *`;
  if (!coupon) throw validationError([detail(path, 'no such coupon')]);
  const problem = couponProblem({ ...coupon, redemptionCount: coupon.redemptionCount - 1 }, subtotal, now);
  if (problem?.reason === 'exhausted') {
    throw new AppError('COUPON_REDEMPTION_LIMIT_REACHED', `${path}: ${problem.message}`, [
      detail(path, problem.message),
    ]);
  }
  if (problem) throw validationError([detail(path, problem.message)]);
  return coupon;
}
