import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeMutations } from '../../resources/store-resource/mutations';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { moderateReviewInput, reviewStatuses } from './input';
import { deleteReview, moderateReview, reviewRows, reviewSortFields } from './service';

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
  extensions: resourceFragment({ relations: { product: true } }),
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
    ...timestamps(t),
  }),
});

storeQueries({
  ref: ReviewRef,
  fields: { list: 'reviews', item: 'review' },
  scope: requireScope('REVIEWS', 'READ'),
  // Only writeStore changes its rows (README "Conditional requests").
  versioned: true,
  descriptions: {
    list: 'Reviews of the store, a page at a time',
    connection: 'Reviews as a Relay connection, for frontends',
  },
  sortFields: reviewSortFields,
  filters: (arg) => ({
    q: arg.string({ description: 'Matches title or body' }),
    status: arg({ type: ReviewStatusEnum }),
    productId: arg.id(),
    rating: arg.int({ description: '1 to 5' }),
  }),
  rows: reviewRows,
});

const ModerateReviewInput = inputTypeOf('ModerateReviewInput', moderateReviewInput, {
  description: 'Moderation sets the status only; rating, title and body stay as the customer wrote them',
  types: { status: ReviewStatusEnum },
});

builder.mutationFields((t) => ({
  moderateReview: t.prismaField({
    description: 'Moderate a review: set its status (pending, approved or rejected) and nothing else',
    type: 'Review',
    authScopes: requireScope('REVIEWS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: ModerateReviewInput, required: true }),
    },
    resolve: (query, _root, { id, input }, ctx) => moderateReview(ctx, id, input, query),
  }),
}));

storeMutations({
  name: 'Review',
  resource: 'REVIEWS',
  delete: { description: 'Delete a review', run: deleteReview },
});
