import { resourceRoutes } from '../resource-routes';

export const categoryRoutes = resourceRoutes({ tag: 'Categories', path: '/category', type: 'Category' });
