import { route } from '../route';

export const analyticsRoutes = [
  route({
    method: 'GET',
    path: '/analytics/summary',
    tag: 'Analytics',
    summary:
      'Orders, revenue, average order value, top products and orders and revenue per day over from…to (default: last 30 days)',
    operation: `query AnalyticsSummary($from: DateTime, $to: DateTime) {
      analyticsSummary(from: $from, to: $to) {
        from to currency ordersCount newCustomersCount paidOrdersCount revenueAmount averageOrderValueAmount
        byStatus { pending paid fulfilled cancelled }
        topProducts { productId name quantity revenueAmount }
        daily { date ordersCount revenueAmount }
      }
    }`,
    result: { kind: 'item', field: 'analyticsSummary' },
  }),
];
