import type { Prisma, RequestLogEntry } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import { type ErrorDetail, validationError } from '../../errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../page-size';

/** RFC 9110's status classes, by name: 2xx, 3xx, 4xx, 5xx. */
export const statusClasses = ['SUCCESS', 'REDIRECTION', 'CLIENT_ERROR', 'SERVER_ERROR'] as const;
export type StatusClass = (typeof statusClasses)[number];
const STATUS_RANGE: Record<StatusClass, { gte: number; lt: number }> = {
  SUCCESS: { gte: 200, lt: 300 },
  REDIRECTION: { gte: 300, lt: 400 },
  CLIENT_ERROR: { gte: 400, lt: 500 },
  SERVER_ERROR: { gte: 500, lt: 600 },
};

export interface RequestLogFilter {
  keyId?: string | null;
  staffUserId?: string | null;
  statusClass?: StatusClass | null;
  /** A REST route template (`/api/v1/product/{id}`) or a GraphQL operation / MCP tool operation name. */
  route?: string | null;
  requestId?: string | null;
  since?: Date | null;
  until?: Date | null;
}

export interface RequestLogPage {
  items: RequestLogEntry[];
  /** Pass as `after` for the next (older) page; null on the last. */
  nextCursor: string | null;
}

/** How far ahead of this process's clock another API process may have stamped an entry. */
const CLOCK_ALLOWANCE_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

/**
 * The time ranges a page is read from, newest first, each bounded so that PostgreSQL plans only the
 * hour partitions it can touch (README "Request log", storage): never past now (plus a clock
 * allowance: the 48 hours of partitions made ahead are left out) or past the cursor; and without a
 * `since`, the last day first, the older days only when that day has too few entries for the page —
 * planning all of a week's ~200 partitions cost 10–40 ms (bench/BASELINE.md).
 */
function timeWindows(
  now: Date,
  args: RequestLogFilter,
  cursor: { at: Date } | null,
): Prisma.DateTimeFilter[] {
  let newest = now.getTime() + CLOCK_ALLOWANCE_MS;
  if (args.until) newest = Math.min(newest, args.until.getTime());
  const lte = cursor && cursor.at.getTime() < newest ? { lte: cursor.at } : { lt: new Date(newest) };
  if (args.since) return [{ gte: args.since, ...lte }];
  const dayBefore = new Date(Math.min(newest, cursor?.at.getTime() ?? newest) - DAY_MS);
  // The older days' range ends where the last day's begins, itself before `newest` and the cursor.
  return [{ gte: dayBefore, ...lte }, { lt: dayBefore }];
}

/** A position in the newest-first order: the last entry's time and id. */
const encodeCursor = (entry: RequestLogEntry) =>
  Buffer.from(`${entry.at.toISOString()}|${entry.id}`).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: bigint } | null {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!at || !id || !/^\d{1,19}$/.test(id)) return null;
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? null : { at: date, id: BigInt(id) };
}

/**
 * The store's request log, newest first, a page at a time (keyset: `after` the last page's
 * cursor), filtered by key or staff member, status class, route or operation, request id and time.
 * Another store's entries are never found: every statement is filtered by the caller's store.
 */
export async function listRequestLog(
  ctx: Context,
  args: RequestLogFilter & { limit?: number | null; after?: string | null },
): Promise<RequestLogPage> {
  const storeId = storeIdOf(ctx);
  const limit = args.limit ?? DEFAULT_PAGE_SIZE;
  const details: ErrorDetail[] = [];
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    details.push({ path: 'limit', message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` });
  const cursor = args.after ? decodeCursor(args.after) : null;
  if (args.after && !cursor) details.push({ path: 'after', message: 'is not a cursor this list gave' });
  if (args.since && args.until && args.since >= args.until)
    details.push({ path: 'until', message: 'must be after since' });
  if (details.length > 0) throw validationError(details);

  const where: Prisma.RequestLogEntryWhereInput = {
    storeId,
    ...(args.keyId ? { keyId: args.keyId } : {}),
    ...(args.staffUserId ? { staffUserId: args.staffUserId } : {}),
    ...(args.statusClass ? { status: STATUS_RANGE[args.statusClass] } : {}),
    ...(args.route ? { route: args.route } : {}),
    ...(args.requestId ? { requestId: args.requestId } : {}),
    ...(cursor ? { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] } : {}),
  };
  const rows: RequestLogEntry[] = [];
  for (const at of timeWindows(ctx.now(), args, cursor)) {
    if (rows.length > limit) break;
    rows.push(
      ...(await ctx.prisma.requestLogEntry.findMany({
        where: { ...where, at },
        orderBy: [{ at: 'desc' }, { id: 'desc' }],
        take: limit + 1 - rows.length,
      })),
    );
  }
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
