import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

export const productRoutes = [
  route({
    method: 'GET',
    path: '/product',
    tag: 'Products',
    summary:
      'List products (filter with q on name or sku, status, categoryId, minPrice, maxPrice; sortBy createdAt, name, priceAmount or stock)',
    operation: `query ListProducts($page: Int, $limit: Int, $q: String, $sortBy: ProductSortField, $sortDirection: SortDirection,
      $status: ProductStatus, $categoryId: ID, $minPrice: Int, $maxPrice: Int) {
      products(page: $page, limit: $limit, q: $q, sortBy: $sortBy, sortDirection: $sortDirection,
        status: $status, categoryId: $categoryId, minPrice: $minPrice, maxPrice: $maxPrice) {
        items { ...ProductFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'products' },
  }),
  route({
    method: 'GET',
    path: '/product/{id}',
    tag: 'Products',
    summary: 'Get a product',
    operation: `query GetProduct($id: ID!) { product(id: $id) { ...ProductFields } }`,
    result: { kind: 'item', field: 'product' },
  }),
  route({
    method: 'POST',
    path: '/product',
    tag: 'Products',
    summary: 'Create a product (emits product.created)',
    operation: `mutation CreateProduct($input: CreateProductInput!) { createProduct(input: $input) { ...ProductFields } }`,
    body: 'input',
    result: { kind: 'item', field: 'createProduct' },
    status: 201,
  }),
  route({
    method: 'PATCH',
    path: '/product/{id}',
    tag: 'Products',
    summary: 'Update a product (emits product.updated)',
    operation: `mutation UpdateProduct($id: ID!, $input: UpdateProductInput!) {
      updateProduct(id: $id, input: $input) { ...ProductFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateProduct' },
  }),
  route({
    method: 'DELETE',
    path: '/product/{id}',
    tag: 'Products',
    summary: 'Delete a product; order items keep their copy (emits product.deleted)',
    operation: 'mutation DeleteProduct($id: ID!) { deleteProduct(id: $id) { id deleted } }',
    result: { kind: 'empty', field: 'deleteProduct' },
  }),
];
