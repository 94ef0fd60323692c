import { listRoute, writeRoute } from '../resource-routes';

const tag = 'Reviews';

/** Reviews are written by customers on the storefront; the API lists, moderates and deletes them. */
export const reviewRoutes = [
  listRoute({ tag, path: '/review', field: 'reviews' }),
  writeRoute({ tag, method: 'PATCH', path: '/review/{id}', field: 'moderateReview' }),
  writeRoute({ tag, method: 'DELETE', path: '/review/{id}', field: 'deleteReview' }),
];
