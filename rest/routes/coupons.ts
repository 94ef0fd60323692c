import { resourceRoutes } from '../resource-routes';

export const couponRoutes = resourceRoutes({ tag: 'Coupons', path: '/coupon', type: 'Coupon' });
