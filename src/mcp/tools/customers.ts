import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { id, pageHeadline, pageInput, sortBy } from './shapes';

export const customerTools = [
  defineTool({
    name: 'list_customers',
    title: 'List customers',
    description:
      'Lists the store’s customers a page at a time, with their order count and total spent (minor units). ' +
      'Filter with q (name or e-mail).',
    operation: `query McpListCustomers($page: Int, $limit: Int, $q: String, $sortBy: CustomerSortField,
      $sortDirection: SortDirection) {
      customers(page: $page, limit: $limit, q: $q, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...CustomerFields } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Matches name or e-mail'),
        sortBy: sortBy(['createdAt', 'email', 'lastName']),
      })
      .strict(),
    resultKey: 'customers',
    headline: pageHeadline('customers'),
  }),
  defineTool<{ id: string }>({
    name: 'get_customer',
    title: 'Get a customer',
    description: 'Returns one customer of the store by id, with order count and total spent (minor units).',
    operation: `query McpGetCustomer($id: ID!) { customer(id: $id) { ...CustomerFields } }`,
    input: z.object({ id: id('customer') }).strict(),
    resultKey: 'customer',
    headline: (result) => `Customer ${result.id}.`,
  }),
];
