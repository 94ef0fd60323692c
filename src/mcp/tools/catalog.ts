import { itemTool, listTool } from '../resource-tools';

export const catalogTools = [
  listTool({
    name: 'list_products',
    title: 'List products',
    description:
      'Lists the store’s products a page at a time, with price (minor units), stock, status and category. ' +
      'Filter with q (name or sku), status, categoryId, minPrice and maxPrice.',
    field: 'products',
    noun: 'products',
  }),
  itemTool({
    name: 'get_product',
    title: 'Get a product',
    description: 'Returns one product of the store by id, with its category.',
    field: 'product',
    noun: 'product',
  }),
  listTool({
    name: 'list_categories',
    title: 'List categories',
    description:
      'Lists the store’s product categories a page at a time, with parent, position, childCount and productCount. ' +
      'Filter with q (name or slug), parentId (the children of a category) or topLevelOnly.',
    field: 'categories',
    noun: 'categories',
  }),
  listTool({
    name: 'list_reviews',
    title: 'List product reviews',
    description:
      'Lists customer reviews of the store’s products a page at a time, with rating (1–5) and moderation ' +
      'status. Filter with q (title or body), productId, rating and status.',
    field: 'reviews',
    noun: 'reviews',
  }),
];
