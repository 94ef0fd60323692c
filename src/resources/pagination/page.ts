import { type ErrorDetail, validationError } from '../../errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../page-size';

/** docs/design.md "Pagination": page ≥ 1 (default 1), limit 1…100 (default 25), sortDirection asc|desc (default desc). */
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

/**
 * For a sort field with few values (a status), the field that orders each group of equals, newest
 * or highest first, before the id: `{ status: 'createdAt' }` lists the pending reviews newest first.
 */
export type ThenBy<SortField extends string> = Partial<Record<SortField, string>>;

/** A stable order: the chosen field, then its `thenBy` field (descending), ties broken by id in the same direction. */
function stableOrder<SortField extends string>(
  order: { sortBy: SortField; direction: SortDirection },
  thenBy: ThenBy<SortField> = {},
) {
  const then = thenBy[order.sortBy];
  return [
    { [order.sortBy]: order.direction },
    ...(then ? [{ [then]: 'desc' }] : []),
    { id: order.direction },
  ] as Array<Record<string, SortDirection>>;
}

/** A Relay connection's order (Pothos supplies the cursor window): the same defaults as a page's. */
export function connectionOrder<SortField extends string>(
  args: { sortBy?: SortField | null; sortDirection?: SortDirection | null },
  defaultSort: SortField,
  thenBy?: ThenBy<SortField>,
) {
  return stableOrder({ sortBy: args.sortBy ?? defaultSort, direction: args.sortDirection ?? 'desc' }, thenBy);
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
export function pageWindow<SortField extends string>(
  resolved: ResolvedPage<SortField>,
  thenBy?: ThenBy<SortField>,
) {
  return { orderBy: stableOrder(resolved, thenBy), skip: resolved.skip, take: resolved.limit };
}

/**
 * A page whose rows were not counted, because its answer does not show the totals
 * (pagination/totals.ts): reading them is a bug, and fails rather than answering a wrong number.
 */
function uncountedPage<T>(items: T[], resolved: { page: number; limit: number }): Page<T> {
  const uncounted = () => {
    throw new Error('The page was loaded without its count, but its totals were read');
  };
  return Object.defineProperties(
    { items, currentPage: resolved.page, limit: resolved.limit },
    { totalResults: { get: uncounted, enumerable: true }, lastPage: { get: uncounted, enumerable: true } },
  ) as Page<T>;
}

/** One page of a list: its rows and the total count, queried side by side; `total` null: not counted. */
export async function loadPage<T, SortField extends string>(
  resolved: ResolvedPage<SortField>,
  rows: PromiseLike<T[]>,
  total: PromiseLike<number> | null,
): Promise<Page<T>> {
  if (total === null) return uncountedPage(await rows, resolved);
  const [items, totalResults] = await Promise.all([rows, total]);
  return toPage(items, totalResults, resolved);
}
