import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

export const customerRoutes = [
  route({
    method: 'GET',
    path: '/customer',
    tag: 'Customers',
    summary:
      'List customers (filter with q on e-mail, first or last name; sortBy createdAt, email or lastName)',
    operation: `query ListCustomers($page: Int, $limit: Int, $q: String, $sortBy: CustomerSortField, $sortDirection: SortDirection) {
      customers(page: $page, limit: $limit, q: $q, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...CustomerFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'customers' },
  }),
  route({
    method: 'GET',
    path: '/customer/{id}',
    tag: 'Customers',
    summary: 'Get a customer, with its order count and total spent',
    operation: `query GetCustomer($id: ID!) { customer(id: $id) { ...CustomerFields } }`,
    result: { kind: 'item', field: 'customer' },
  }),
  route({
    method: 'POST',
    path: '/customer',
    tag: 'Customers',
    summary: 'Create a customer; the e-mail is unique in the store (emits customer.created)',
    operation: `mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ...CustomerFields } }`,
    body: 'input',
    result: { kind: 'item', field: 'createCustomer' },
    status: 201,
  }),
  route({
    method: 'PATCH',
    path: '/customer/{id}',
    tag: 'Customers',
    summary: 'Update a customer (emits customer.updated)',
    operation: `mutation UpdateCustomer($id: ID!, $input: UpdateCustomerInput!) {
      updateCustomer(id: $id, input: $input) { ...CustomerFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateCustomer' },
  }),
];
