import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { dateTimeInput, pageHeadline, pageInput, sortBy } from './shapes';

const staffRole = z.enum(['OWNER', 'ADMIN', 'STAFF']);

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
  defineTool({
    name: 'list_coupons',
    title: 'List coupons',
    description:
      'Lists the store’s discount coupons a page at a time, with type, value, limits and redemptions. ' +
      'Filter with q (code) and isActive.',
    operation: `query McpListCoupons($page: Int, $limit: Int, $q: String, $isActive: Boolean, $sortBy: CouponSortField,
      $sortDirection: SortDirection) {
      coupons(page: $page, limit: $limit, q: $q, isActive: $isActive, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...CouponFields } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Matches the code'),
        isActive: z.boolean().optional(),
        sortBy: sortBy(['createdAt', 'code', 'redemptionCount']),
      })
      .strict(),
    resultKey: 'coupons',
    headline: pageHeadline('coupons'),
  }),
  defineTool({
    name: 'list_staff',
    title: 'List staff members',
    description:
      'Lists the store’s staff users a page at a time, with role and last sign-in. Filter with q (name or ' +
      'e-mail) and role.',
    operation: `query McpListStaff($page: Int, $limit: Int, $q: String, $role: StaffRole, $sortBy: StaffSortField,
      $sortDirection: SortDirection) {
      staff: staffMembers(page: $page, limit: $limit, q: $q, role: $role, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...StaffMemberFields } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Matches name or e-mail'),
        role: staffRole.optional(),
        sortBy: sortBy(['createdAt', 'email', 'name']),
      })
      .strict(),
    resultKey: 'staff',
    headline: pageHeadline('staff members'),
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
