import DataLoader from 'dataloader';
import { type Context, storeIdOf } from '../../context';
import type { Db, Tx } from '../../db/client';

/** What a customer's orders add up to. */
export interface CustomerStats {
  /** Every order of the customer, whatever its status. */
  orderCount: number;
  /** Sum of totalAmount over the customer's orders that are not cancelled (minor units). */
  totalSpentAmount: number;
}

export const noStats: CustomerStats = { orderCount: 0, totalSpentAmount: 0 };

/** One grouped query for any number of customers of a store. */
export async function customerStatsFor(
  db: Db | Tx,
  storeId: string,
  customerIds: readonly string[],
): Promise<Map<string, CustomerStats>> {
  const stats = new Map<string, CustomerStats>();
  if (customerIds.length === 0) return stats;
  const rows = await db.$queryRaw<Array<{ customerId: string; orderCount: number; totalSpent: bigint }>>`
    SELECT "customerId",
           COUNT(*)::int AS "orderCount",
           COALESCE(SUM("totalAmount") FILTER (WHERE status <> 'cancelled'), 0)::bigint AS "totalSpent"
      FROM "Order"
     WHERE "storeId" = ${storeId} AND "customerId" = ANY(${[...customerIds]}::text[])
     GROUP BY "customerId"`;
  for (const row of rows) {
    stats.set(row.customerId, { orderCount: row.orderCount, totalSpentAmount: Number(row.totalSpent) });
  }
  return stats;
}

/**
 * Per request: the stats of every customer asked for while a result is being built are loaded
 * together by one DataLoader (its scheduling: after the current promise jobs, in one grouped query),
 * so a list page costs one query for its stats however many customers it holds. Nothing is cached
 * after a batch (`cache: false`), so a later mutation in the same document never reads stale numbers.
 */
const loaders = new WeakMap<Context, DataLoader<string, CustomerStats>>();

/** The stats of one customer of the caller's store, batched with the others of the same result. */
export function loadCustomerStats(ctx: Context, customerId: string): Promise<CustomerStats> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (ids: readonly string[]) => {
        const stats = await customerStatsFor(ctx.prisma, storeIdOf(ctx), ids);
        return ids.map((id) => stats.get(id) ?? noStats);
      },
      { cache: false },
    );
    loaders.set(ctx, loader);
  }
  return loader.load(customerId);
}
