import { type Context, storeIdOf } from '../../context';
import { notFound } from '../../errors';
import {
  connectionOrder,
  loadPage,
  type Page,
  type PageArgs,
  pageWindow,
  resolvePage,
  type SortDirection,
  type ThenBy,
} from '../pagination/page';

/**
 * The reads every store-scoped resource has — a page of a list, a Relay connection's rows and count,
 * one row by id — written once. A domain hands in only what differs: its Prisma model, its filter
 * (as a `where`) and its default sort.
 */

/**
 * The Prisma model calls these reads make. Typed loosely on purpose: each domain passes its own model
 * (`ctx.prisma.category`), whose generated argument types differ from model to model.
 */
export interface ModelReads<Row> {
  findMany(args: object): PromiseLike<Row[]>;
  findFirst(args: object): PromiseLike<Row | null>;
  count(args: { where: object }): PromiseLike<number>;
}

/** A Prisma selection from Pothos (`{ select }` or `{ include }`), merged into the reads' queries. */
export type Selection = object;

export interface SortArgs<Sort extends string> {
  sortBy?: Sort | null;
  sortDirection?: SortDirection | null;
}

export interface StoreRows<Row, Filter, Sort extends string> {
  /** A page of the store's rows that match the filter, with the totals (docs/design.md "Envelopes"); without them if `count` is false. */
  page(
    ctx: Context,
    args: PageArgs<Sort> & Filter,
    selection?: Selection,
    options?: { count?: boolean },
  ): Promise<Page<Row>>;
  /** How many match the filter: a Relay connection's totalCount. */
  count(ctx: Context, filter: Filter): Promise<number>;
  /** A Relay connection's rows: Pothos supplies the cursor window and selection in `query`. */
  connection(ctx: Context, query: Selection, args: Filter & SortArgs<Sort>): Promise<Row[]>;
  /** One row of the store; NOT_FOUND when the store has none with this id. */
  get(ctx: Context, id: string, selection?: Selection): Promise<Row>;
}

export function storeRows<Row, Filter, Sort extends string>(spec: {
  /** What the resource is called in a NOT_FOUND message: 'Category', 'Staff member'. */
  name: string;
  model: (ctx: Context) => ModelReads<Row>;
  /** The store's rows matching the filter; throws VALIDATION_ERROR for a filter out of bounds. */
  where: (storeId: string, filter: Filter) => object;
  defaultSort: Sort;
  /** Where a sort field has few values, what orders each group of equals (pagination/page.ts). */
  thenBy?: ThenBy<Sort>;
}): StoreRows<Row, Filter, Sort> {
  const { model, defaultSort, thenBy } = spec;
  const where = (ctx: Context, filter: Filter) => spec.where(storeIdOf(ctx), filter);
  return {
    async page(ctx, args, selection = {}, options = {}) {
      const filtered = where(ctx, args);
      const page = resolvePage(args, defaultSort);
      const rows = model(ctx);
      return loadPage(
        page,
        rows.findMany({ ...selection, where: filtered, ...pageWindow(page, thenBy) }),
        options.count === false ? null : rows.count({ where: filtered }),
      );
    },
    count: async (ctx, filter) => model(ctx).count({ where: where(ctx, filter) }),
    connection: async (ctx, query, args) =>
      model(ctx).findMany({
        ...query,
        where: where(ctx, args),
        orderBy: connectionOrder(args, defaultSort, thenBy),
      }),
    async get(ctx, id, selection) {
      const row = await model(ctx).findFirst({ ...selection, where: { id, storeId: storeIdOf(ctx) } });
      if (!row) throw notFound(spec.name);
      return row;
    },
  };
}
