import { builder } from '../../builder';
import { listSize, requireScope } from '../../field-extensions';
import { type AnalyticsSummary, analyticsSummary } from './service';

const StatusCountsRef = builder.objectRef<AnalyticsSummary['byStatus']>('OrderStatusCounts').implement({
  fields: (t) => ({
    pending: t.exposeInt('pending'),
    paid: t.exposeInt('paid'),
    fulfilled: t.exposeInt('fulfilled'),
    cancelled: t.exposeInt('cancelled'),
  }),
});

const TopProductRef = builder.objectRef<AnalyticsSummary['topProducts'][number]>('TopProduct').implement({
  fields: (t) => ({
    productId: t.exposeString('productId', {
      nullable: true,
      description: 'null once the product was deleted',
    }),
    name: t.exposeString('name'),
    quantity: t.field({ type: 'Long', resolve: (p) => p.quantity }),
    revenueAmount: t.field({ type: 'Long', resolve: (p) => p.revenueAmount }),
  }),
});

const DailySalesRef = builder.objectRef<AnalyticsSummary['daily'][number]>('DailySales').implement({
  description: "One day of the range, in the store's time zone",
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD' }),
    ordersCount: t.exposeInt('ordersCount', { description: 'Orders created that day' }),
    revenueAmount: t.field({
      type: 'Long',
      description: 'Paid and fulfilled orders of that day, minor units',
      resolve: (d) => d.revenueAmount,
    }),
  }),
});

const SummaryRef = builder.objectRef<AnalyticsSummary>('AnalyticsSummary').implement({
  description: 'Orders created in [from, to); revenue counts paid and fulfilled orders, in minor units',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime' }),
    to: t.expose('to', { type: 'DateTime' }),
    currency: t.exposeString('currency'),
    ordersCount: t.exposeInt('ordersCount'),
    newCustomersCount: t.exposeInt('newCustomersCount', { description: 'Customers created in the range' }),
    paidOrdersCount: t.exposeInt('paidOrdersCount'),
    revenueAmount: t.field({ type: 'Long', resolve: (s) => s.revenueAmount }),
    averageOrderValueAmount: t.field({ type: 'Long', resolve: (s) => s.averageOrderValueAmount }),
    byStatus: t.field({ type: StatusCountsRef, resolve: (s) => s.byStatus }),
    topProducts: t.field({ type: [TopProductRef], resolve: (s) => s.topProducts, extensions: listSize(5) }),
    daily: t.field({
      type: [DailySalesRef],
      description: 'Orders and revenue per day of the range',
      resolve: (s) => s.daily,
      extensions: listSize(366),
    }),
  }),
});

builder.queryField('analyticsSummary', (t) =>
  t.field({
    type: SummaryRef,
    description: 'Defaults to the last 30 days; at most 366 days',
    authScopes: requireScope('ANALYTICS', 'READ'),
    args: { from: t.arg({ type: 'DateTime' }), to: t.arg({ type: 'DateTime' }) },
    resolve: (_root, args, ctx) => analyticsSummary(ctx, args),
  }),
);
