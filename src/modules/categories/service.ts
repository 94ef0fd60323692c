import type { Category, Prisma } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import { notFound, validationError } from '../../errors';
import { emitEvent } from '../../events/outbox';
import { slugify } from '../../resources/slug';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { categoryUpdateInput, moveCategoryInput, newCategoryInput } from './input';
import { assertParent, type CategoryInTree, LAST, lockTree, place, withTree } from './tree';

export const categorySortFields = ['createdAt', 'name', 'position'] as const;
export type CategorySortField = (typeof categorySortFields)[number];

export interface CategoryFilter {
  q?: string | null;
  parentId?: string | null;
  topLevelOnly?: boolean | null;
}

function categoryWhere(storeId: string, filter: CategoryFilter): Prisma.CategoryWhereInput {
  if (filter.parentId && filter.topLevelOnly)
    throw validationError([{ path: 'topLevelOnly', message: 'cannot be combined with parentId' }]);
  const q = filter.q?.trim();
  return {
    storeId,
    ...(filter.parentId ? { parentId: filter.parentId } : {}),
    ...(filter.topLevelOnly ? { parentId: null } : {}),
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
export const categoryPayload = (category: CategoryInTree) => ({
  id: category.id,
  name: category.name,
  slug: category.slug,
  description: category.description,
  parentId: category.parentId,
  parent: category.parent,
  position: category.position,
  childCount: category._count.children,
  productCount: category._count.products,
  createdAt: category.createdAt.toISOString(),
  updatedAt: category.updatedAt.toISOString(),
});

export async function createCategory<Q extends object>(ctx: Context, input: unknown, query?: Q) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(newCategoryInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    await lockTree(tx, storeId);
    await assertParent(tx, storeId, fields.parentId);
    // Without a position it goes after its last sibling.
    const last = await tx.category.aggregate({
      where: { storeId, parentId: fields.parentId ?? null },
      _max: { position: true },
    });
    const category = await tx.category.create({
      include: withTree,
      data: {
        ...fields,
        position: fields.position ?? (last._max.position === null ? 0 : last._max.position + 1),
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
    return tx.category.findUniqueOrThrow({ ...query, where: { id: category.id } });
  });
}

/**
 * A new `parentId` is a move (to `position`, or after the new parent's last child) with the siblings
 * renumbered, as moveCategory does; without one, `position` is set as given.
 */
export async function updateCategory<Q extends object>(ctx: Context, id: string, input: unknown, query?: Q) {
  const storeId = storeIdOf(ctx);
  const { parentId, position, ...fields } = parseInput(categoryUpdateInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    if (parentId !== undefined) await lockTree(tx, storeId);
    const existing = await tx.category.findFirst({
      where: { id, storeId },
      select: { id: true, parentId: true, position: true },
    });
    if (!existing) throw notFound('Category');
    await assertParent(tx, storeId, parentId, id);
    const reparented = parentId !== undefined && (parentId ?? null) !== existing.parentId;
    const moved = reparented
      ? await place(tx, ctx, storeId, existing, parentId ?? null, position ?? LAST)
      : [];
    const category = await tx.category.update({
      include: withTree,
      where: { id },
      data: { ...fields, ...(reparented ? {} : { position }), updatedAt: ctx.now() },
    });
    for (const changed of [category, ...moved.filter((row) => row.id !== id)])
      await emitEvent(tx, {
        storeId,
        type: 'category.updated',
        data: { object: categoryPayload(changed) },
        now: ctx.now(),
      });
    return tx.category.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/**
 * Moves a category under another (or to the top level) at a place among its new siblings, and
 * renumbers the old and the new siblings 0, 1, 2… in the same transaction, under the store's tree
 * lock. A parent that is the category or below it is CATEGORY_CYCLE. Every category whose parent
 * or position changed emits category.updated.
 */
export async function moveCategory<Q extends object>(ctx: Context, id: string, input: unknown, query?: Q) {
  const storeId = storeIdOf(ctx);
  const { parentId = null, position } = parseInput(moveCategoryInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    await lockTree(tx, storeId);
    const moving = await tx.category.findFirst({ where: { id, storeId } });
    if (!moving) throw notFound('Category');
    await assertParent(tx, storeId, parentId, id);
    for (const category of await place(tx, ctx, storeId, moving, parentId, position))
      await emitEvent(tx, {
        storeId,
        type: 'category.updated',
        data: { object: categoryPayload(category) },
        now: ctx.now(),
      });
    return tx.category.findUniqueOrThrow({ ...query, where: { id } });
  });
}

/** Products of a deleted category stay, uncategorised; its children move up to the root. */
export async function deleteCategory(ctx: Context, id: string) {
  const storeId = storeIdOf(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const existing = await tx.category.findFirst({ where: { id, storeId }, include: withTree });
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
