import type { Prisma, Product } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, type ErrorDetail, notFound, validationError } from '../../errors';
import { emitEvent } from '../../events/outbox';
import { slugify } from '../../resources/slug';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { COMPARE_AT_MESSAGE, newProductInput, type ProductStatusValue, productUpdateInput } from './input';

export const productSortFields = ['createdAt', 'name', 'priceAmount', 'stock'] as const;
export type ProductSortField = (typeof productSortFields)[number];

export interface ProductFilter {
  q?: string | null;
  status?: ProductStatusValue | null;
  categoryId?: string | null;
  minPrice?: number | null;
  maxPrice?: number | null;
}

function checkFilter(filter: ProductFilter) {
  const details: ErrorDetail[] = [];
  for (const name of ['minPrice', 'maxPrice'] as const) {
    const value = filter[name];
    if (value != null && (!Number.isInteger(value) || value < 0)) {
      details.push({ path: name, message: 'must be an integer of at least 0' });
    }
  }
  if (filter.minPrice != null && filter.maxPrice != null && filter.minPrice > filter.maxPrice) {
    details.push({ path: 'maxPrice', message: 'must be at least minPrice' });
  }
  if (details.length > 0) throw validationError(details);
}

function productWhere(storeId: string, filter: ProductFilter): Prisma.ProductWhereInput {
  checkFilter(filter);
  const q = filter.q?.trim();
  const price: Prisma.IntFilter = {
    ...(filter.minPrice != null ? { gte: filter.minPrice } : {}),
    ...(filter.maxPrice != null ? { lte: filter.maxPrice } : {}),
  };
  return {
    storeId,
    ...(filter.status ? { status: filter.status } : {}),
    ...(filter.categoryId ? { categoryId: filter.categoryId } : {}),
    ...(Object.keys(price).length > 0 ? { priceAmount: price } : {}),
    ...(q
      ? {
          OR: [{ name: { contains: q, mode: 'insensitive' } }, { sku: { contains: q, mode: 'insensitive' } }],
        }
      : {}),
  };
}

/** The store's products: a page, a Relay connection's rows and count, one by id. */
export const productRows = storeRows<Product, ProductFilter, ProductSortField>({
  name: 'Product',
  model: (ctx) => ctx.prisma.product,
  where: productWhere,
  defaultSort: 'createdAt',
});

const withCategory = { category: { select: { id: true, name: true } } } as const;
type ProductWithCategory = Product & { category: { id: string; name: string } | null };

/** The product as REST, GraphQL and event payloads show it (the REST item, category included). */
export const productPayload = (product: ProductWithCategory) => ({
  id: product.id,
  name: product.name,
  slug: product.slug,
  description: product.description,
  sku: product.sku,
  priceAmount: product.priceAmount,
  compareAtAmount: product.compareAtAmount,
  currency: product.currency,
  stock: product.stock,
  status: product.status,
  categoryId: product.categoryId,
  category: product.category ? { id: product.category.id, name: product.category.name } : null,
  createdAt: product.createdAt.toISOString(),
  updatedAt: product.updatedAt.toISOString(),
});

const inputError = (field: string, message: string) =>
  new AppError('VALIDATION_ERROR', `input.${field}: ${message}`, [{ path: `input.${field}`, message }]);

/** A product's category must be a category of the same store. */
async function assertCategory(tx: Tx, storeId: string, categoryId: string | null | undefined) {
  if (!categoryId) return;
  const category = await tx.category.findFirst({ where: { id: categoryId, storeId }, select: { id: true } });
  if (!category) throw inputError('categoryId', 'no such category');
}

export async function createProduct(ctx: Context, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(newProductInput, input, 'input');
  const slug = fields.slug ?? slugify(fields.name);
  if (!slug) throw inputError('slug', 'cannot be derived from the name; give one');
  return writeStore(ctx, storeId, async (tx) => {
    await assertCategory(tx, storeId, fields.categoryId);
    const currency =
      fields.currency ??
      (await tx.store.findUniqueOrThrow({ where: { id: storeId }, select: { currency: true } })).currency;
    const product = await tx.product.create({
      data: { ...fields, slug, currency, storeId, createdAt: ctx.now(), updatedAt: ctx.now() },
      include: withCategory,
    });
    await emitEvent(tx, {
      storeId,
      type: 'product.created',
      data: { object: productPayload(product) },
      now: ctx.now(),
    });
    return product;
  });
}

export async function updateProduct(ctx: Context, id: string, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(productUpdateInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    const existing = await tx.product.findFirst({
      where: { id, storeId },
      select: { id: true, priceAmount: true, compareAtAmount: true },
    });
    if (!existing) throw notFound('Product');
    const price = fields.priceAmount ?? existing.priceAmount;
    const compareAt =
      fields.compareAtAmount === undefined ? existing.compareAtAmount : fields.compareAtAmount;
    if (compareAt != null && compareAt < price) {
      throw fields.compareAtAmount === undefined
        ? inputError('priceAmount', 'must be at most compareAtAmount')
        : inputError('compareAtAmount', COMPARE_AT_MESSAGE);
    }
    await assertCategory(tx, storeId, fields.categoryId);
    const product = await tx.product.update({
      where: { id },
      data: { ...fields, updatedAt: ctx.now() },
      include: withCategory,
    });
    await emitEvent(tx, {
      storeId,
      type: 'product.updated',
      data: { object: productPayload(product) },
      now: ctx.now(),
    });
    return product;
  });
}

/** Order items keep their copy of name, sku and price; their product link becomes null. */
export async function deleteProduct(ctx: Context, id: string) {
  const storeId = storeIdOf(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const existing = await tx.product.findFirst({ where: { id, storeId }, include: withCategory });
    if (!existing) throw notFound('Product');
    await tx.product.delete({ where: { id } });
    await emitEvent(tx, {
      storeId,
      type: 'product.deleted',
      data: { object: productPayload(existing) },
      now: ctx.now(),
    });
    return { id, deleted: true };
  });
}
