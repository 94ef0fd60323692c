import { queryFromInfo } from '@pothos/plugin-prisma';
import { holdsPair, refusal } from '../auth/principal';
import type { ScopePair } from '../auth/scopes';
import { builder } from '../builder';
import type { Context } from '../context';
import { notFound } from '../errors';
import { getCategory } from './categories/service';
import { getCoupon } from './coupons/service';
import { getCustomer } from './customers/service';
import { lookup } from './lookup';
import { nodeTypeOf } from './node-ids';
import { NodeRef } from './node-interface';
import { getOrder } from './orders/service';
import { getProduct } from './products/service';
import { getReview } from './reviews/service';
import { getStaffMember } from './staff/service';
import { getDelivery } from './webhooks/deliveries';
import { getEndpoint } from './webhooks/service';

type Load = (ctx: Context, id: string, query?: object) => Promise<{ id: string }>;

/** Each node type's lookup and the pair its own root lookup declares (the same check, the same store scope). */
const nodes: Record<string, { scope: ScopePair; load: Load }> = {
  Product: { scope: 'PRODUCTS:READ', load: getProduct },
  Category: { scope: 'CATEGORIES:READ', load: getCategory },
  Coupon: { scope: 'COUPONS:READ', load: getCoupon },
  Customer: { scope: 'CUSTOMERS:READ', load: getCustomer },
  Order: { scope: 'ORDERS:READ', load: getOrder },
  Review: { scope: 'REVIEWS:READ', load: getReview },
  StaffMember: { scope: 'STAFF:READ', load: getStaffMember },
  WebhookEndpoint: { scope: 'STORE_SETTINGS:READ', load: (ctx, id) => getEndpoint(ctx, id) },
  WebhookDelivery: { scope: 'STORE_SETTINGS:READ', load: (ctx, id) => getDelivery(ctx, id) },
};

builder.queryField('node', (t) =>
  t.field({
    ...lookup('object'),
    type: NodeRef,
    description:
      'Any object by its id (Relay): the same answer, scope check and NOT_FOUND as its own lookup (product(id:), order(id:), …)',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx, info) => {
      const id = String(args.id);
      const typeName = nodeTypeOf(id);
      const node = typeName ? nodes[typeName] : undefined;
      if (!typeName || !node) throw notFound('Node');
      if (!holdsPair(ctx.principal, node.scope)) throw refusal(ctx.principal, node.scope);
      return node.load(ctx, id, queryFromInfo({ context: ctx, info, typeName }));
    },
  }),
);
