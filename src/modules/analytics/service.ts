import { type Context, storeIdOf } from '../../context';
import { validationError } from '../../errors';

export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;
export const TOP_PRODUCTS = 5;
const DAY_MS = 86_400_000;

/** Revenue counts orders that were paid (and possibly fulfilled since); pending and cancelled do not. */
const REVENUE_STATUSES = ['paid', 'fulfilled'];

export interface SummaryRange {
  from?: Date | null;
  to?: Date | null;
}

function resolveRange(ctx: Context, range: SummaryRange) {
  const to = range.to ?? ctx.now();
  const from = range.from ?? new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  if (from >= to) throw validationError([{ path: 'from', message: 'must be before to' }]);
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw validationError([{ path: 'to', message: `the range may span at most ${MAX_RANGE_DAYS} days` }]);
  }
  return { from, to };
}

/**
 * Orders, revenue, average order value, top products and orders and revenue per day (in the store's
 * time zone) over [from, to) by order creation time, and the customers new in it, computed in SQL (four aggregate queries,
 * whatever the number of orders).
 */
export async function analyticsSummary(ctx: Context, range: SummaryRange) {
  const storeId = storeIdOf(ctx);
  const { from, to } = resolveRange(ctx, range);
  const [totals, top, store, days, newCustomers] = await Promise.all([
    ctx.prisma.$queryRaw<
      Array<{
        orders: bigint;
        paid: bigint;
        revenue: bigint | null;
        pending: bigint;
        fulfilled: bigint;
        cancelled: bigint;
        paid_only: bigint;
      }>
    >`
      SELECT count(*) AS orders,
             count(*) FILTER (WHERE status::text = ANY(${REVENUE_STATUSES})) AS paid,
             sum("totalAmount") FILTER (WHERE status::text = ANY(${REVENUE_STATUSES})) AS revenue,
             count(*) FILTER (WHERE status = 'pending') AS pending,
             count(*) FILTER (WHERE status = 'paid') AS paid_only,
             count(*) FILTER (WHERE status = 'fulfilled') AS fulfilled,
             count(*) FILTER (WHERE status = 'cancelled') AS cancelled
      FROM "Order"
      WHERE "storeId" = ${storeId} AND "createdAt" >= ${from} AND "createdAt" < ${to}`,
    ctx.prisma.$queryRaw<
      Array<{ productId: string | null; name: string; quantity: bigint; revenue: bigint }>
    >`
      SELECT i."productId", max(i.name) AS name, sum(i.quantity) AS quantity, sum(i."totalAmount") AS revenue
      FROM "OrderItem" i JOIN "Order" o ON o.id = i."orderId"
      WHERE o."storeId" = ${storeId} AND o."createdAt" >= ${from} AND o."createdAt" < ${to}
        AND o.status::text = ANY(${REVENUE_STATUSES})
      GROUP BY i."productId", CASE WHEN i."productId" IS NULL THEN i.name END
      ORDER BY quantity DESC, revenue DESC, name ASC
      LIMIT ${TOP_PRODUCTS}`,
    ctx.prisma.store.findUniqueOrThrow({ where: { id: storeId }, select: { currency: true } }),
    // Every day of the range in the store's time zone, days without orders included ("createdAt" is
    // a UTC timestamp without zone: first read as UTC, then seen in the store's zone).
    ctx.prisma.$queryRaw<Array<{ date: string; orders: bigint; revenue: bigint }>>`
      WITH zone AS (SELECT timezone FROM "Store" WHERE id = ${storeId})
      SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
             count(o.id) AS orders,
             coalesce(sum(o."totalAmount") FILTER (WHERE o.status::text = ANY(${REVENUE_STATUSES})), 0) AS revenue
      FROM zone
      CROSS JOIN LATERAL generate_series(date_trunc('day', ${from}::timestamptz AT TIME ZONE zone.timezone),
                           date_trunc('day', (${to}::timestamptz - interval '1 microsecond') AT TIME ZONE zone.timezone),
                           interval '1 day') AS d(day)
      LEFT JOIN "Order" o
        ON o."storeId" = ${storeId} AND o."createdAt" >= ${from} AND o."createdAt" < ${to}
       AND date_trunc('day', (o."createdAt" AT TIME ZONE 'UTC') AT TIME ZONE zone.timezone) = d.day
      GROUP BY d.day
      ORDER BY d.day`,
    ctx.prisma.customer.count({ where: { storeId, createdAt: { gte: from, lt: to } } }),
  ]);
  const row = totals[0];
  const paidOrders = Number(row?.paid ?? 0);
  const revenue = Number(row?.revenue ?? 0);
  return {
    from,
    to,
    currency: store.currency,
    ordersCount: Number(row?.orders ?? 0),
    newCustomersCount: newCustomers,
    paidOrdersCount: paidOrders,
    revenueAmount: revenue,
    averageOrderValueAmount: paidOrders === 0 ? 0 : Math.round(revenue / paidOrders),
    byStatus: {
      pending: Number(row?.pending ?? 0),
      paid: Number(row?.paid_only ?? 0),
      fulfilled: Number(row?.fulfilled ?? 0),
      cancelled: Number(row?.cancelled ?? 0),
    },
    daily: days.map((day) => ({
      date: day.date,
      ordersCount: Number(day.orders),
      revenueAmount: Number(day.revenue),
    })),
    topProducts: top.map((product) => ({
      productId: product.productId,
      name: product.name,
      quantity: Number(product.quantity),
      revenueAmount: Number(product.revenue),
    })),
  };
}

export type AnalyticsSummary = Awaited<ReturnType<typeof analyticsSummary>>;
