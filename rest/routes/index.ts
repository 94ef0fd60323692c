import type { RestRoute } from '../route';
import { analyticsRoutes } from './analytics';
import { apiKeyRoutes } from './api-keys';
import { categoryRoutes } from './categories';
import { couponRoutes } from './coupons';
import { productRoutes } from './products';
import { reviewRoutes } from './reviews';
import { sessionRoutes } from './sessions';
import { staffRoutes } from './staff';
import { storeSettingsRoutes } from './store-settings';

/** Every REST route; the adapter and the OpenAPI document are both built from this table. */
export const routeTable: RestRoute[] = [
  ...analyticsRoutes,
  ...apiKeyRoutes,
  ...categoryRoutes,
  ...productRoutes,
  ...couponRoutes,
  ...reviewRoutes,
  ...sessionRoutes,
  ...staffRoutes,
  ...storeSettingsRoutes,
];
