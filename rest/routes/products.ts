import { resourceRoutes } from '../resource-routes';

export const productRoutes = resourceRoutes({ tag: 'Products', path: '/product', type: 'Product' });
