import { z } from 'zod';
import { listTool } from '../resource-tools';
import { defineTool } from '../tool';
import { dateTimeInput } from './shapes';

export const storeTools = [
  defineTool<{ id: string }>({
    name: 'get_store_info',
    title: 'Get store information',
    description: 'Returns the store’s name, currency, time zone, contact e-mail, plan and status.',
    operation: 'query McpGetStoreInfo { store: storeSettings { ...StoreSettingsFields } }',
    input: z.object({}).strict(),
    resultKey: 'store',
    headline: (result) => `Store ${result.id}.`,
  }),
  listTool({
    name: 'list_coupons',
    title: 'List coupons',
    description:
      'Lists the store’s discount coupons a page at a time, with type, value, limits and redemptions. ' +
      'Filter with q (code) and isActive.',
    field: 'coupons',
    noun: 'coupons',
  }),
  listTool({
    name: 'list_staff',
    title: 'List staff members',
    description:
      'Lists the store’s staff users a page at a time, with role and last sign-in. Filter with q (name or ' +
      'e-mail) and role.',
    field: 'staffMembers',
    noun: 'staff members',
    resultKey: 'staff',
  }),
  defineTool<{ ordersCount: number; from: string; to: string; revenueAmount: number; currency: string }>({
    name: 'get_sales_summary',
    title: 'Get a sales summary',
    description:
      'Summarises orders created in [from, to): counts by status, revenue and average order value over paid ' +
      'and fulfilled orders (minor units), and the top 5 products by quantity. Defaults to the last 30 days; ' +
      'at most 366 days.',
    operation: `query McpGetSalesSummary($from: DateTime, $to: DateTime) {
      summary: analyticsSummary(from: $from, to: $to) {
        from to currency ordersCount paidOrdersCount revenueAmount averageOrderValueAmount
        byStatus { pending paid fulfilled cancelled }
        topProducts { productId name quantity revenueAmount }
      }
    }`,
    input: z
      .object({
        from: dateTimeInput('Start, inclusive (default 30 days before to)').optional(),
        to: dateTimeInput('End, exclusive (default now)').optional(),
      })
      .strict(),
    resultKey: 'summary',
    headline: (result) =>
      `${result.ordersCount} orders from ${result.from} to ${result.to}; revenue ${result.revenueAmount} ` +
      `(minor units of ${result.currency}).`,
  }),
];
