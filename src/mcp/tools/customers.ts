import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { amount, dateTime, id, page, pageHeadline, pageInput, sortBy } from './shapes';

const CUSTOMER_FIELDS =
  'id email firstName lastName phone acceptsMarketing orderCount totalSpentAmount createdAt';

const customer = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    phone: z.string().nullable(),
    acceptsMarketing: z.boolean(),
    orderCount: z.number().int(),
    totalSpentAmount: amount.describe('Total of the orders that are not cancelled, minor units'),
    createdAt: dateTime,
  })
  .strict();

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
        items { ${CUSTOMER_FIELDS} } ${PAGINATION_SELECTION}
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
    result: page(customer),
    headline: (result) => pageHeadline('customers', result),
  }),
  defineTool({
    name: 'get_customer',
    title: 'Get a customer',
    description: 'Returns one customer of the store by id, with order count and total spent (minor units).',
    operation: `query McpGetCustomer($id: ID!) { customer(id: $id) { ${CUSTOMER_FIELDS} } }`,
    input: z.object({ id: id('customer') }).strict(),
    resultKey: 'customer',
    result: customer,
    headline: (result) => `Customer ${result.id}.`,
  }),
];
