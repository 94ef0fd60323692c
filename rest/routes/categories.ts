import { resourceRoutes, writeRoute } from '../resource-routes';

const tag = 'Categories';

export const categoryRoutes = [
  ...resourceRoutes({ tag, path: '/category', type: 'Category' }),
  writeRoute({ tag, method: 'POST', path: '/category/{id}/move', field: 'moveCategory' }),
];
