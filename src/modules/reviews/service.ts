import type { Prisma, Review } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import { notFound, validationError } from '../../errors';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { moderateReviewInput, type reviewStatuses } from './input';

/** `status` ascending is the moderation queue's order: pending, then approved, then rejected, each newest first. */
export const reviewSortFields = ['createdAt', 'rating', 'status'] as const;
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

/** The store's reviews: a page, a Relay connection's rows and count, one by id. */
export const reviewRows = storeRows<Review, ReviewFilter, ReviewSortField>({
  name: 'Review',
  model: (ctx) => ctx.prisma.review,
  where: reviewWhere,
  defaultSort: 'createdAt',
  // The moderation queue: pending first, each status newest first.
  thenBy: { status: 'createdAt' },
});

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
