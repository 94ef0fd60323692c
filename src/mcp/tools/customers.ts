import { itemTool, listTool } from '../resource-tools';

export const customerTools = [
  listTool({
    name: 'list_customers',
    title: 'List customers',
    description:
      'Lists the store’s customers a page at a time, with their order count and total spent (minor units). ' +
      'Filter with q (name or e-mail).',
    field: 'customers',
    noun: 'customers',
  }),
  itemTool({
    name: 'get_customer',
    title: 'Get a customer',
    description: 'Returns one customer of the store by id, with order count and total spent (minor units).',
    field: 'customer',
    noun: 'customer',
  }),
];
