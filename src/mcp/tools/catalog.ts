import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { id, pageHeadline, pageInput, sortBy } from './shapes';

export const catalogTools = [
  defineTool({
    name: 'list_products',
    title: 'List products',
    description:
      'Lists the store’s products a page at a time, with price (minor units), stock, status and category. ' +
      'Filter with q (name or sku), status, categoryId, minPrice and maxPrice.',
    operation: `query McpListProducts($page: Int, $limit: Int, $q: String, $status: ProductStatus, $categoryId: ID,
      $minPrice: Int, $maxPrice: Int, $sortBy: ProductSortField, $sortDirection: SortDirection) {
      products(page: $page, limit: $limit, q: $q, status: $status, categoryId: $categoryId, minPrice: $minPrice,
        maxPrice: $maxPrice, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...ProductFields } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Matches name or sku'),
        status: z.enum(['active', 'archived', 'draft']).optional(),
        categoryId: id('category').optional(),
        minPrice: z.number().int().min(0).optional().describe('Lowest priceAmount, minor units'),
        maxPrice: z.number().int().min(0).optional().describe('Highest priceAmount, minor units'),
        sortBy: sortBy(['createdAt', 'name', 'priceAmount', 'stock']),
      })
      .strict(),
    resultKey: 'products',
    headline: pageHeadline('products'),
  }),
  defineTool<{ id: string }>({
    name: 'get_product',
    title: 'Get a product',
    description: 'Returns one product of the store by id, with its category.',
    operation: `query McpGetProduct($id: ID!) { product(id: $id) { ...ProductFields } }`,
    input: z.object({ id: id('product') }).strict(),
    resultKey: 'product',
    headline: (result) => `Product ${result.id}.`,
  }),
  defineTool({
    name: 'list_categories',
    title: 'List categories',
    description: 'Lists the store’s product categories a page at a time. Filter with q (name or slug).',
    operation: `query McpListCategories($page: Int, $limit: Int, $q: String, $sortBy: CategorySortField,
      $sortDirection: SortDirection) {
      categories(page: $page, limit: $limit, q: $q, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...CategoryFields } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Matches name or slug'),
        sortBy: sortBy(['createdAt', 'name', 'position']),
      })
      .strict(),
    resultKey: 'categories',
    headline: pageHeadline('categories'),
  }),
  defineTool({
    name: 'list_reviews',
    title: 'List product reviews',
    description:
      'Lists customer reviews of the store’s products a page at a time, with rating (1–5) and moderation ' +
      'status. Filter with q (title or body), productId, rating and status.',
    operation: `query McpListReviews($page: Int, $limit: Int, $q: String, $productId: ID, $rating: Int,
      $status: ReviewStatus, $sortBy: ReviewSortField, $sortDirection: SortDirection) {
      reviews(page: $page, limit: $limit, q: $q, productId: $productId, rating: $rating, status: $status,
        sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...ReviewFields } ${PAGINATION_SELECTION}
      }
    }`,
    input: z
      .object({
        ...pageInput,
        q: z.string().max(200).optional().describe('Matches title or body'),
        productId: id('product').optional(),
        rating: z.number().int().min(1).max(5).optional(),
        status: z.enum(['approved', 'pending', 'rejected']).optional(),
        sortBy: sortBy(['createdAt', 'rating']),
      })
      .strict(),
    resultKey: 'reviews',
    headline: pageHeadline('reviews'),
  }),
];
