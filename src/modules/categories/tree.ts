import type { Prisma } from '../../../prisma/generated/client/client';
import type { Context } from '../../context';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';

/**
 * The category tree's rules, for every write that changes it (./service.ts): one lock per store, a
 * parent that is never the category itself or below it, and siblings numbered 0, 1, 2… in order.
 */

/** What a category's event payload reads beside its own columns: its parent and its counts. */
export const withTree = {
  parent: { select: { id: true, name: true } },
  _count: { select: { children: true, products: true } },
} satisfies Prisma.CategoryInclude;

export type CategoryInTree = Prisma.CategoryGetPayload<{ include: typeof withTree }>;

/**
 * Changes to a store's tree (a new parent, a move) take this lock first, so that two of them never
 * both pass the cycle check on a tree the other is changing, and sibling renumbering never interleaves.
 */
export async function lockTree(tx: Tx, storeId: string) {
  await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`category-tree:${storeId}`}))`;
}

/** A parent must be another category of the same store, and never the category itself or below it. */
export async function assertParent(
  tx: Tx,
  storeId: string,
  parentId: string | null | undefined,
  selfId?: string,
) {
  if (!parentId) return;
  const fail = (message: string) =>
    new AppError('VALIDATION_ERROR', `input.parentId: ${message}`, [{ path: 'input.parentId', message }]);
  for (let id: string | null = parentId, depth = 0; id; depth++) {
    if (id === selfId) {
      const message =
        'is the category itself or one of its subcategories: a category cannot move under itself';
      throw new AppError('CATEGORY_CYCLE', `input.parentId: ${message}`, [
        { path: 'input.parentId', message },
      ]);
    }
    const parent: { parentId: string | null } | null = await tx.category.findFirst({
      where: { id, storeId },
      select: { parentId: true },
    });
    if (!parent) throw fail('no such category');
    if (depth > 50) throw fail('the category tree is too deep');
    id = parent.parentId;
  }
}

/** A position beyond every sibling: the API's "last". */
export const LAST = Number.MAX_SAFE_INTEGER;

/**
 * Puts a category under `parentId` at `position` among its siblings (beyond the last: last) and
 * renumbers the new and, when it changed parent, the old siblings 0, 1, 2… The caller holds the
 * tree lock and has checked the parent. Answers the categories whose parent or position changed.
 */
export async function place(
  tx: Tx,
  ctx: Context,
  storeId: string,
  moving: { id: string; parentId: string | null; position: number },
  parentId: string | null,
  position: number,
): Promise<CategoryInTree[]> {
  const siblingsOf = (parent: string | null) =>
    tx.category.findMany({
      where: { storeId, parentId: parent, id: { not: moving.id } },
      // The order of `categories(parentId, sortBy: position, sortDirection: asc)`.
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
      select: { id: true, position: true, parentId: true },
    });
  const newSiblings = await siblingsOf(parentId);
  newSiblings.splice(Math.min(position, newSiblings.length), 0, moving);
  const changed: CategoryInTree[] = [];
  const renumber = async (rows: { id: string; position: number }[]) => {
    for (const [place, row] of rows.entries()) {
      const reparented = row.id === moving.id && moving.parentId !== parentId;
      if (row.position === place && !reparented) continue;
      changed.push(
        await tx.category.update({
          include: withTree,
          where: { id: row.id },
          data: { position: place, ...(row.id === moving.id ? { parentId } : {}), updatedAt: ctx.now() },
        }),
      );
    }
  };
  await renumber(newSiblings);
  // The siblings it left close the gap.
  if (moving.parentId !== parentId) await renumber(await siblingsOf(moving.parentId));
  return changed;
}
