import { type ErrorDetail, validationError } from '../../errors';

/** DESIGN "Pagination": page ≥ 1 (default 1), limit 1…100 (default 25), sortDirection asc|desc (default desc). */
export const DEFAULT_PAGE_SIZE = 25;
export const MAX_PAGE_SIZE = 100;

export type SortDirection = 'asc' | 'desc';

export interface PageArgs<SortField extends string> {
  page?: number | null;
  limit?: number | null;
  sortBy?: SortField | null;
  sortDirection?: SortDirection | null;
}

export interface ResolvedPage<SortField extends string> {
  page: number;
  limit: number;
  skip: number;
  sortBy: SortField;
  direction: SortDirection;
}

export interface Page<T> {
  items: T[];
  totalResults: number;
  currentPage: number;
  limit: number;
  lastPage: number;
}

export function resolvePage<SortField extends string>(
  args: PageArgs<SortField>,
  defaultSort: SortField,
): ResolvedPage<SortField> {
  const page = args.page ?? 1;
  const limit = args.limit ?? DEFAULT_PAGE_SIZE;
  const details: ErrorDetail[] = [];
  if (!Number.isInteger(page) || page < 1)
    details.push({ path: 'page', message: 'must be an integer of at least 1' });
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    details.push({ path: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  }
  if (details.length > 0) throw validationError(details);
  return {
    page,
    limit,
    skip: (page - 1) * limit,
    sortBy: args.sortBy ?? defaultSort,
    direction: args.sortDirection ?? 'desc',
  };
}

/** A stable order: the chosen field, ties broken by id in the same direction. */
function stableOrder<SortField extends string>(order: { sortBy: SortField; direction: SortDirection }) {
  return [{ [order.sortBy]: order.direction }, { id: order.direction }] as Array<
    Record<SortField | 'id', SortDirection>
  >;
}

/** A Relay connection's order (Pothos supplies the cursor window): the same defaults as a page's. */
export function connectionOrder<SortField extends string>(
  args: { sortBy?: SortField | null; sortDirection?: SortDirection | null },
  defaultSort: SortField,
) {
  return stableOrder({ sortBy: args.sortBy ?? defaultSort, direction: args.sortDirection ?? 'desc' });
}

/** lastPage is at least 1, so a client iterating from 1 to lastPage always makes one request. */
function toPage<T>(items: T[], totalResults: number, resolved: { page: number; limit: number }): Page<T> {
  return {
    items,
    totalResults,
    currentPage: resolved.page,
    limit: resolved.limit,
    lastPage: Math.max(1, Math.ceil(totalResults / resolved.limit)),
  };
}

/** A resolved page as findMany arguments: the stable order and the window. */
export function pageWindow<SortField extends string>(resolved: ResolvedPage<SortField>) {
  return { orderBy: stableOrder(resolved), skip: resolved.skip, take: resolved.limit };
}

/** The reads of a list's parent row that `loadPage` makes (`ctx.prisma.store`, `ctx.prisma.webhookEndpoint`). */
export interface ParentReads {
  findFirst(args: object): PromiseLike<object | null>;
}

/**
 * One page of a list and its total in one statement: the rows are read through their parent's list
 * relation (a store's `products`, an endpoint's `deliveries`) with the relation's count beside them,
 * which Prisma writes as one SELECT with a LATERAL join for each (relationJoins). A findMany and a
 * count cost 2.7 times the API CPU of this (bench/page-statement.ts). Null when there is no such parent.
 */
export async function loadPage<T, SortField extends string>(
  resolved: ResolvedPage<SortField>,
  parent: { reads: ParentReads; where: object; relation: string },
  rows: { where: object } & Selection,
): Promise<Page<T> | null> {
  const { relation } = parent;
  const found = (await parent.reads.findFirst({
    where: parent.where,
    select: {
      [relation]: { ...rows, ...pageWindow(resolved) },
      _count: { select: { [relation]: { where: rows.where } } },
    },
  })) as (Record<string, T[]> & { _count: Record<string, number> }) | null;
  if (!found) return null;
  return toPage(found[relation] ?? [], found._count[relation] ?? 0, resolved);
}

/** A Prisma selection from Pothos (`{ select }` or `{ include }`) for the rows of a page. */
export type Selection = object;

/** The page of a parent that is gone: no rows (what a findMany of its rows would have said). */
export const emptyPage = <T>(resolved: { page: number; limit: number }): Page<T> =>
  toPage<T>([], 0, resolved);
