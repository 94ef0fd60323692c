import { PAGINATION_SELECTION } from '../../src/modules/pagination/schema';
import { route } from '../route';

export const categoryRoutes = [
  route({
    method: 'GET',
    path: '/category',
    tag: 'Categories',
    summary: 'List categories (filter with q; sortBy createdAt, name or position)',
    operation: `query ListCategories($page: Int, $limit: Int, $q: String, $sortBy: CategorySortField, $sortDirection: SortDirection) {
      categories(page: $page, limit: $limit, q: $q, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...CategoryFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'categories' },
  }),
  route({
    method: 'GET',
    path: '/category/{id}',
    tag: 'Categories',
    summary: 'Get a category',
    operation: `query GetCategory($id: ID!) { category(id: $id) { ...CategoryFields } }`,
    result: { kind: 'item', field: 'category' },
  }),
  route({
    method: 'POST',
    path: '/category',
    tag: 'Categories',
    summary: 'Create a category (emits category.created)',
    operation: `mutation CreateCategory($input: CreateCategoryInput!) { createCategory(input: $input) { ...CategoryFields } }`,
    body: 'input',
    result: { kind: 'item', field: 'createCategory' },
    status: 201,
  }),
  route({
    method: 'PATCH',
    path: '/category/{id}',
    tag: 'Categories',
    summary: 'Update a category (emits category.updated)',
    operation: `mutation UpdateCategory($id: ID!, $input: UpdateCategoryInput!) {
      updateCategory(id: $id, input: $input) { ...CategoryFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateCategory' },
  }),
  route({
    method: 'DELETE',
    path: '/category/{id}',
    tag: 'Categories',
    summary: 'Delete a category; its products stay, uncategorised (emits category.deleted)',
    operation: 'mutation DeleteCategory($id: ID!) { deleteCategory(id: $id) { id deleted } }',
    result: { kind: 'empty', field: 'deleteCategory' },
  }),
];
