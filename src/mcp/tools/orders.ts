import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { dateTimeInput, id, pageHeadline, pageInput, sortBy } from './shapes';

const orderStatus = z.enum(['pending', 'paid', 'fulfilled', 'cancelled']);

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
        items { ...OrderFields } ${PAGINATION_SELECTION}
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
    headline: pageHeadline('orders'),
  }),
  defineTool<{ id: string; number: number; status: string }>({
    name: 'get_order',
    title: 'Get an order',
    description: 'Returns one order of the store by id, with its lines, amounts (minor units) and timeline.',
    operation: `query McpGetOrder($id: ID!) { order(id: $id) { ...OrderFields } }`,
    input: z.object({ id: id('order') }).strict(),
    resultKey: 'order',
    headline: (result) => `Order ${result.number} (${result.id}), ${result.status}.`,
  }),
];
