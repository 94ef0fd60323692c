import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder';
import './scalars';
import './modules/analytics/schema';
import './modules/api-keys/schema';
import './modules/audit/schema';
import './modules/request-log/schema';
import './modules/categories/schema';
import './modules/products/schema';
import './modules/coupons/schema';
import './modules/orders/schema';
import './modules/customers/schema';
import './modules/reviews/schema';
import './modules/sessions/schema';
import './modules/staff/schema';
import './modules/store-settings/schema';
import './modules/webhooks/schema';
import './modules/webhooks/health-schema';
import './resources/node/node';

// Fields keep the order their types declare (id first): introspection and the resource fragments
// (src/graphql/resource-fragment.ts) show them so; schema.graphql is printed sorted.
export const schema = builder.toSchema({ sortSchema: false });

export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
