import type { Category, Prisma } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, notFound } from '../../errors';
import { emitEvent } from '../../events/outbox';
import { slugify } from '../../resources/slug';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { categoryUpdateInput, newCategoryInput } from './input';

export const categorySortFields = ['createdAt', 'name', 'position'] as const;
export type CategorySortField = (typeof categorySortFields)[number];

export interface CategoryFilter {
  q?: string | null;
}

function categoryWhere(storeId: string, filter: CategoryFilter): Prisma.CategoryWhereInput {
  const q = filter.q?.trim();
  return {
    storeId,
    ...(q
      ? {
          OR: [
            { name: { contains: q, mode: 'insensitive' } },
            { slug: { contains: q, mode: 'insensitive' } },
          ],
        }
      : {}),
  };
}

/** The store's categories: a page, a Relay connection's rows and count, one by id. */
export const categoryRows = storeRows<Category, CategoryFilter, CategorySortField>({
  name: 'Category',
  model: (ctx) => ctx.prisma.category,
  where: categoryWhere,
  defaultSort: 'createdAt',
});

/** The category as REST, GraphQL and event payloads show it. */
export const categoryPayload = (category: Category) => ({
  id: category.id,
  name: category.name,
  slug: category.slug,
  description: category.description,
  parentId: category.parentId,
  position: category.position,
  createdAt: category.createdAt.toISOString(),
  updatedAt: category.updatedAt.toISOString(),
});

/** A parent must be another category of the same store, and never the category itself or below it. */
async function assertParent(tx: Tx, storeId: string, parentId: string | null | undefined, selfId?: string) {
  if (!parentId) return;
  const fail = (message: string) =>
    new AppError('VALIDATION_ERROR', `input.parentId: ${message}`, [{ path: 'input.parentId', message }]);
  for (let id: string | null = parentId, depth = 0; id; depth++) {
    if (id === selfId) throw fail('would make the category its own ancestor');
    const parent: { parentId: string | null } | null = await tx.category.findFirst({
      where: { id, storeId },
      select: { parentId: true },
    });
    if (!parent) throw fail('no such category');
    if (depth > 50) throw fail('the category tree is too deep');
    id = parent.parentId;
  }
}

export async function createCategory(ctx: Context, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(newCategoryInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    await assertParent(tx, storeId, fields.parentId);
    const category = await tx.category.create({
      data: {
        ...fields,
        slug: fields.slug ?? slugify(fields.name),
        storeId,
        createdAt: ctx.now(),
        updatedAt: ctx.now(),
      },
    });
    await emitEvent(tx, {
      storeId,
      type: 'category.created',
      data: { object: categoryPayload(category) },
      now: ctx.now(),
    });
    return category;
  });
}

export async function updateCategory(ctx: Context, id: string, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(categoryUpdateInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    const existing = await tx.category.findFirst({ where: { id, storeId }, select: { id: true } });
    if (!existing) throw notFound('Category');
    await assertParent(tx, storeId, fields.parentId, id);
    const category = await tx.category.update({ where: { id }, data: { ...fields, updatedAt: ctx.now() } });
    await emitEvent(tx, {
      storeId,
      type: 'category.updated',
      data: { object: categoryPayload(category) },
      now: ctx.now(),
    });
    return category;
  });
}

/** Products of a deleted category stay, uncategorised; its children move up to the root. */
export async function deleteCategory(ctx: Context, id: string) {
  const storeId = storeIdOf(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const existing = await tx.category.findFirst({ where: { id, storeId } });
    if (!existing) throw notFound('Category');
    await tx.category.delete({ where: { id } });
    await emitEvent(tx, {
      storeId,
      type: 'category.deleted',
      data: { object: categoryPayload(existing) },
      now: ctx.now(),
    });
    return { id, deleted: true };
  });
}
