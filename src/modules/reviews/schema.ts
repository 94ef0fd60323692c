import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder, requireScope } from '../../builder';
import { idempotencyArg } from '../idempotency-arg';
import { lookup } from '../lookup';
import { NodeRef } from '../node-interface';
import { pageArgs, pageType, SortDirectionEnum } from '../pagination/schema';
import { reviewStatuses } from './input';
import {
  countReviews,
  deleteReview,
  findReviewsForConnection,
  getReview,
  listReviews,
  moderateReview,
  reviewSortFields,
} from './service';

export const ReviewStatusEnum = builder.enumType('ReviewStatus', { values: reviewStatuses });

/**
 * The product as a review shows it. A variant of the Product model, so the products module stays free
 * to define the primary `Product` type; it is loaded through the review's relation in the same query.
 */
export const ReviewProductRef = builder.prismaObject('Product', {
  variant: 'ReviewProduct',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
  }),
});

export const ReviewRef = builder.prismaObject('Review', {
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    productId: t.exposeString('productId'),
    product: t.relation('product', { type: ReviewProductRef }),
    customerId: t.exposeString('customerId', { nullable: true }),
    rating: t.exposeInt('rating'),
    title: t.exposeString('title', { nullable: true }),
    body: t.exposeString('body', { nullable: true }),
    status: t.expose('status', { type: ReviewStatusEnum }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const ReviewSortFieldEnum = builder.enumType('ReviewSortField', { values: reviewSortFields });
const ReviewPage = pageType('Review', ReviewRef);

const filterArgs = (arg: Parameters<Parameters<typeof builder.queryFields>[0]>[0]['arg']) => ({
  q: arg.string({ description: 'Matches title or body' }),
  status: arg({ type: ReviewStatusEnum }),
  productId: arg.id(),
  rating: arg.int({ description: '1 to 5' }),
});

builder.queryFields((t) => ({
  reviews: t.field({
    type: ReviewPage,
    description: 'Reviews of the store, a page at a time',
    authScopes: requireScope('REVIEWS', 'READ'),
    args: { ...pageArgs(t.arg, ReviewSortFieldEnum), ...filterArgs(t.arg) },
    resolve: (_root, args, ctx, info) =>
      listReviews(
        ctx,
        { ...args, productId: args.productId == null ? args.productId : String(args.productId) },
        queryFromInfo({ context: ctx, info, path: ['items'] }),
      ),
  }),
  reviewsConnection: t.prismaConnection(
    {
      type: 'Review',
      cursor: 'id',
      description: 'Reviews as a Relay connection, for frontends',
      authScopes: requireScope('REVIEWS', 'READ'),
      args: {
        ...filterArgs(t.arg),
        sortBy: t.arg({ type: ReviewSortFieldEnum }),
        sortDirection: t.arg({ type: SortDirectionEnum }),
      },
      totalCount: (_parent, args, ctx) =>
        countReviews(ctx, {
          ...args,
          productId: args.productId == null ? args.productId : String(args.productId),
        }),
      resolve: (query, _root, args, ctx) =>
        findReviewsForConnection(ctx, query, {
          ...args,
          productId: args.productId == null ? args.productId : String(args.productId),
        }),
    },
    { name: 'ReviewConnection' },
    { name: 'ReviewEdge' },
  ),
  review: t.prismaField({
    ...lookup('review'),
    type: 'Review',
    authScopes: requireScope('REVIEWS', 'READ'),
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) => getReview(ctx, String(args.id), query),
  }),
}));

const ModerateReviewInput = builder.inputType('ModerateReviewInput', {
  description: 'Moderation sets the status only; rating, title and body stay as the customer wrote them',
  fields: (t) => ({ status: t.field({ type: ReviewStatusEnum, required: true }) }),
});

const DeletedReviewRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedReview').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  moderateReview: t.prismaField({
    type: 'Review',
    authScopes: requireScope('REVIEWS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: ModerateReviewInput, required: true }),
    },
    resolve: (query, _root, { id, input }, ctx) => moderateReview(ctx, String(id), input, query),
  }),
  deleteReview: t.field({
    type: DeletedReviewRef,
    authScopes: requireScope('REVIEWS', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteReview(ctx, String(id)),
  }),
}));
