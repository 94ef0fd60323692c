import { z } from 'zod';
import { PAGINATION_SELECTION } from '../../modules/pagination/schema';
import { defineTool } from '../tool';
import { amount, dateTime, id, page, pageHeadline, pageInput, sortBy } from './shapes';

const PRODUCT_FIELDS =
  'id name slug description sku priceAmount compareAtAmount currency stock status categoryId category { id name } createdAt updatedAt';

const product = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    sku: z.string().nullable(),
    priceAmount: amount,
    compareAtAmount: amount.nullable().describe('The "was" price, minor units'),
    currency: z.string(),
    stock: z.number().int(),
    status: z.enum(['active', 'archived', 'draft']),
    categoryId: z.string().nullable(),
    category: z.object({ id: z.string(), name: z.string() }).strict().nullable(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .strict();

const CATEGORY_FIELDS = 'id name slug description parentId position createdAt updatedAt';

const category = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    parentId: z.string().nullable(),
    position: z.number().int(),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .strict();

const REVIEW_FIELDS =
  'id productId product { id name } customerId rating title body status createdAt updatedAt';

const review = z
  .object({
    id: z.string(),
    productId: z.string(),
    product: z.object({ id: z.string(), name: z.string() }).strict(),
    customerId: z.string().nullable(),
    rating: z.number().int().min(1).max(5),
    title: z.string().nullable(),
    body: z.string().nullable(),
    status: z.enum(['approved', 'pending', 'rejected']),
    createdAt: dateTime,
    updatedAt: dateTime,
  })
  .strict();

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
        items { ${PRODUCT_FIELDS} } ${PAGINATION_SELECTION}
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
    result: page(product),
    headline: (result) => pageHeadline('products', result),
  }),
  defineTool({
    name: 'get_product',
    title: 'Get a product',
    description: 'Returns one product of the store by id, with its category.',
    operation: `query McpGetProduct($id: ID!) { product(id: $id) { ${PRODUCT_FIELDS} } }`,
    input: z.object({ id: id('product') }).strict(),
    resultKey: 'product',
    result: product,
    headline: (result) => `Product ${result.id}.`,
  }),
  defineTool({
    name: 'list_categories',
    title: 'List categories',
    description: 'Lists the store’s product categories a page at a time. Filter with q (name or slug).',
    operation: `query McpListCategories($page: Int, $limit: Int, $q: String, $sortBy: CategorySortField,
      $sortDirection: SortDirection) {
      categories(page: $page, limit: $limit, q: $q, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ${CATEGORY_FIELDS} } ${PAGINATION_SELECTION}
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
    result: page(category),
    headline: (result) => pageHeadline('categories', result),
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
        items { ${REVIEW_FIELDS} } ${PAGINATION_SELECTION}
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
    result: page(review),
    headline: (result) => pageHeadline('reviews', result),
  }),
];
