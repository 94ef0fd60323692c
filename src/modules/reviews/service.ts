import type { Prisma } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import { notFound, validationError } from '../../errors';
import { parseInput } from '../../validation';
import { connectionOrder, loadPage, type PageArgs, pageWindow, resolvePage } from '../pagination/page';
import { writeStore } from '../store-writes';
import { moderateReviewInput, type reviewStatuses } from './input';

export const reviewSortFields = ['createdAt', 'rating'] as const;
export type ReviewSortField = (typeof reviewSortFields)[number];

export interface ReviewFilter {
  q?: string | null;
  status?: (typeof reviewStatuses)[number] | null;
  productId?: string | null;
  rating?: number | null;
}

function reviewWhere(storeId: string, filter: ReviewFilter): Prisma.ReviewWhereInput {
  if (filter.rating != null && (!Number.isInteger(filter.rating) || filter.rating < 1 || filter.rating > 5)) {
    throw validationError([{ path: 'rating', message: 'must be an integer from 1 to 5' }]);
  }
  const q = filter.q?.trim();
  return {
    storeId,
    ...(q
      ? {
          OR: [
            { title: { contains: q, mode: 'insensitive' } },
            { body: { contains: q, mode: 'insensitive' } },
          ],
        }
      : {}),
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.productId ? { productId: filter.productId } : {}),
    ...(filter.rating != null ? { rating: filter.rating } : {}),
  };
}

/**
 * `query` is the Prisma plugin's selection for the page's items (relations such as `product`
 * included), so a page is one findMany however many relations the client asks for.
 */
export async function listReviews<Q extends object>(
  ctx: Context,
  args: PageArgs<ReviewSortField> & ReviewFilter,
  query?: Q,
) {
  const where = reviewWhere(storeIdOf(ctx), args);
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.review.findMany({ ...query, where, ...pageWindow(page) }),
    ctx.prisma.review.count({ where }),
  );
}

/** For Relay connections: Pothos supplies the cursor window and selection in `query`. */
/** How many match the filter: a Relay connection's totalCount. */
export const countReviews = (ctx: Context, filter: ReviewFilter) =>
  ctx.prisma.review.count({ where: reviewWhere(storeIdOf(ctx), filter) });

export function findReviewsForConnection<Q extends object>(
  ctx: Context,
  query: Q,
  args: ReviewFilter & { sortBy?: ReviewSortField | null; sortDirection?: 'asc' | 'desc' | null },
) {
  return ctx.prisma.review.findMany({
    ...query,
    where: reviewWhere(storeIdOf(ctx), args),
    orderBy: connectionOrder(args, 'createdAt'),
  });
}

export async function getReview<Q extends object>(ctx: Context, id: string, query?: Q) {
  const review = await ctx.prisma.review.findFirst({ ...query, where: { id, storeId: storeIdOf(ctx) } });
  if (!review) throw notFound('Review');
  return review;
}

export async function moderateReview<Q extends object>(ctx: Context, id: string, input: unknown, query?: Q) {
  const storeId = storeIdOf(ctx);
  const { status } = parseInput(moderateReviewInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    const { count } = await tx.review.updateMany({
      where: { id, storeId },
      data: { status, updatedAt: ctx.now() },
    });
    if (count === 0) throw notFound('Review');
    return tx.review.findUniqueOrThrow({ ...query, where: { id } });
  });
}

export async function deleteReview(ctx: Context, id: string) {
  const storeId = storeIdOf(ctx);
  const { count } = await writeStore(ctx, storeId, (tx) => tx.review.deleteMany({ where: { id, storeId } }));
  if (count === 0) throw notFound('Review');
  return { id, deleted: true };
}
