import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { amount, dateTime, dateTimeInput, id, page, pageHeadline, pageInput, sortBy } from './shapes';

const ORDER_FIELDS = `id number status email customerId currency subtotalAmount discountAmount totalAmount couponCode note
  items { productId name sku unitAmount quantity totalAmount } paidAt fulfilledAt cancelledAt createdAt`;

const orderStatus = z.enum(['pending', 'paid', 'fulfilled', 'cancelled']);

const order = z
  .object({
    id: z.string(),
    number: z.number().int().describe('Sequential per store, from 1001'),
    status: orderStatus,
    email: z.string(),
    customerId: z.string().nullable(),
    currency: z.string(),
    subtotalAmount: amount,
    discountAmount: amount,
    totalAmount: amount,
    couponCode: z.string().nullable(),
    note: z.string().nullable(),
    items: z.array(
      z
        .object({
          productId: z.string().nullable().describe('Null once the product is deleted'),
          name: z.string(),
          sku: z.string().nullable(),
          unitAmount: amount,
          quantity: z.number().int(),
          totalAmount: amount,
        })
        .strict(),
    ),
    paidAt: dateTime.nullable(),
    fulfilledAt: dateTime.nullable(),
    cancelledAt: dateTime.nullable(),
    createdAt: dateTime,
  })
  .strict();

export const orderTools = [
  defineTool({
    name: 'list_orders',
    title: 'List orders',
    description:
      'Lists the store’s orders a page at a time, newest first by default, with their lines and amounts ' +
      '(minor units). Filter with status, from/to (creation time, from inclusive, to exclusive) and q ' +
      '(order number such as 1001, or part of the e-mail).',
    operation: `query McpListOrders($page: Int, $limit: Int, $q: String, $status: OrderStatus, $from: DateTime,
      $to: DateTime, $sortBy: OrderSortField, $sortDirection: SortDirection) {
      orders(page: $page, limit: $limit, q: $q, status: $status, from: $from, to: $to, sortBy: $sortBy,
        sortDirection: $sortDirection) {
        items { ${ORDER_FIELDS} } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Order number (1001 or #1001) or part of the e-mail'),
        status: orderStatus.optional(),
        from: dateTimeInput('Created at or after this time').optional(),
        to: dateTimeInput('Created before this time').optional(),
        sortBy: sortBy(['createdAt', 'number', 'totalAmount']),
      })
      .strict(),
    resultKey: 'orders',
    result: page(order),
    headline: (result) => pageHeadline('orders', result),
  }),
  defineTool({
    name: 'get_order',
    title: 'Get an order',
    description: 'Returns one order of the store by id, with its lines, amounts (minor units) and timeline.',
    operation: `query McpGetOrder($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`,
    input: z.object({ id: id('order') }).strict(),
    resultKey: 'order',
    result: order,
    headline: (result) => `Order ${result.number} (${result.id}), ${result.status}.`,
  }),
];
