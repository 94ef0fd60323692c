import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

export const reviewRoutes = [
  route({
    method: 'GET',
    path: '/review',
    tag: 'Reviews',
    summary:
      'List reviews (filter with q on title/body, status, productId, rating; sortBy createdAt or rating)',
    operation: `query ListReviews($page: Int, $limit: Int, $q: String, $status: ReviewStatus, $productId: ID, $rating: Int, $sortBy: ReviewSortField, $sortDirection: SortDirection) {
      reviews(page: $page, limit: $limit, q: $q, status: $status, productId: $productId, rating: $rating, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...ReviewFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'reviews' },
  }),
  route({
    method: 'PATCH',
    path: '/review/{id}',
    tag: 'Reviews',
    summary: 'Moderate a review: set its status (pending, approved or rejected) and nothing else',
    operation: `mutation ModerateReview($id: ID!, $input: ModerateReviewInput!) {
      moderateReview(id: $id, input: $input) { ...ReviewFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'moderateReview' },
  }),
  route({
    method: 'DELETE',
    path: '/review/{id}',
    tag: 'Reviews',
    summary: 'Delete a review',
    operation: 'mutation DeleteReview($id: ID!) { deleteReview(id: $id) { id deleted } }',
    result: { kind: 'empty', field: 'deleteReview' },
  }),
];
