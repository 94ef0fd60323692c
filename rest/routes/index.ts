import type { RestRoute } from '../route';
import { analyticsRoutes } from './analytics';
import { apiKeyRoutes } from './api-keys';
import { categoryRoutes } from './categories';
import { couponRoutes } from './coupons';
import { customerRoutes } from './customers';
import { orderRoutes } from './orders';
import { productRoutes } from './products';
import { requestLogRoutes } from './request-log';
import { reviewRoutes } from './reviews';
import { sessionRoutes } from './sessions';
import { staffRoutes } from './staff';
import { storeSettingsRoutes } from './store-settings';
import { webhookRoutes } from './webhooks';

/** Every REST route; the adapter and the OpenAPI document are both built from this table. */
export const routeTable: RestRoute[] = [
  ...analyticsRoutes,
  ...apiKeyRoutes,
  ...requestLogRoutes,
  ...categoryRoutes,
  ...productRoutes,
  ...couponRoutes,
  ...orderRoutes,
  ...customerRoutes,
  ...reviewRoutes,
  ...sessionRoutes,
  ...staffRoutes,
  ...storeSettingsRoutes,
  ...webhookRoutes,
];
