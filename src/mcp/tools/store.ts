import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { amount, dateTime, dateTimeInput, page, pageHeadline, pageInput, sortBy } from './shapes';

const store = z
  .object({
    id: z.string(),
    name: z.string(),
    currency: z.string().describe('ISO 4217'),
    timezone: z.string().describe('IANA time-zone name'),
    contactEmail: z.string().nullable(),
    plan: z.enum(['FREE', 'STARTER', 'PRO', 'SCALE']),
    status: z.enum(['ACTIVE', 'SUSPENDED']),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .strict();

const COUPON_FIELDS =
  'id code type value minSubtotalAmount maxRedemptions redemptionCount startsAt endsAt isActive createdAt updatedAt';

const coupon = z
  .object({
    id: z.string(),
    code: z.string(),
    type: z.enum(['fixed', 'percent']),
    value: z.number().int().describe('Percent (1–100), or minor units for fixed coupons'),
    minSubtotalAmount: amount.nullable(),
    maxRedemptions: z.number().int().nullable(),
    redemptionCount: z.number().int(),
    startsAt: dateTime.nullable(),
    endsAt: dateTime.nullable(),
    isActive: z.boolean(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .strict();

const staffRole = z.enum(['OWNER', 'ADMIN', 'STAFF']);

const staffMember = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: staffRole,
    isActive: z.boolean(),
    lastLoginAt: dateTime.nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .strict();

const summary = z
  .object({
    from: dateTime,
    to: dateTime,
    currency: z.string(),
    ordersCount: z.number().int().describe('Orders created in [from, to)'),
    paidOrdersCount: z.number().int().describe('Of those, paid or fulfilled'),
    revenueAmount: amount.describe('Total of paid and fulfilled orders, minor units'),
    averageOrderValueAmount: amount,
    byStatus: z
      .object({
        pending: z.number().int(),
        paid: z.number().int(),
        fulfilled: z.number().int(),
        cancelled: z.number().int(),
      })
      .strict(),
    topProducts: z.array(
      z
        .object({
          productId: z.string().nullable().describe('Null once the product was deleted'),
          name: z.string(),
          quantity: z.number().int(),
          revenueAmount: amount,
        })
        .strict(),
    ),
  })
  .strict();

export const storeTools = [
  defineTool({
    name: 'get_store_info',
    title: 'Get store information',
    description: 'Returns the store’s name, currency, time zone, contact e-mail, plan and status.',
    operation:
      'query McpGetStoreInfo { store: storeSettings { id name currency timezone contactEmail plan status createdAt updatedAt } }',
    input: z.object({}).strict(),
    resultKey: 'store',
    result: store,
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
        items { ${COUPON_FIELDS} } ${PAGINATION_SELECTION}
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
    result: page(coupon),
    headline: (result) => pageHeadline('coupons', result),
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
        items { id email name role isActive lastLoginAt createdAt updatedAt } ${PAGINATION_SELECTION}
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
    result: page(staffMember),
    headline: (result) => pageHeadline('staff members', result),
  }),
  defineTool({
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
    result: summary,
    headline: (result) =>
      `${result.ordersCount} orders from ${result.from} to ${result.to}; revenue ${result.revenueAmount} ` +
      `(minor units of ${result.currency}).`,
  }),
];
