import { itemTool, listTool } from '../resource-tools';

export const orderTools = [
  listTool({
    name: 'list_orders',
    title: 'List orders',
    description:
      'Lists the store’s orders a page at a time, newest first by default, with their lines and amounts ' +
      '(minor units). Filter with status, customerId, couponId, from/to (creation time, from inclusive, to ' +
      'exclusive) and q (order number such as 1001, or part of the e-mail).',
    field: 'orders',
    noun: 'orders',
  }),
  itemTool<{ id: string; number: number; status: string }>({
    name: 'get_order',
    title: 'Get an order',
    description: 'Returns one order of the store by id, with its lines, amounts (minor units) and timeline.',
    field: 'order',
    noun: 'order',
    headline: (result) => `Order ${result.number} (${result.id}), ${result.status}.`,
  }),
];
