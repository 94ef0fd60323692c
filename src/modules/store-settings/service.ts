import type { Prisma, Store } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import { notFound } from '../../errors';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { recordAudit } from '../audit/service';
import { storeSettingsUpdateInput } from './input';

export const storeSettingsSelect = {
  id: true,
  name: true,
  currency: true,
  timezone: true,
  contactEmail: true,
  plan: true,
  status: true,
  createdAt: true,
  updatedAt: true,
} satisfies Prisma.StoreSelect;

export type StoreSettings = Pick<Store, keyof typeof storeSettingsSelect>;

export async function getStoreSettings(ctx: Context): Promise<StoreSettings> {
  const store = await ctx.prisma.store.findUnique({
    where: { id: storeIdOf(ctx) },
    select: storeSettingsSelect,
  });
  if (!store) throw notFound('Store');
  return store;
}

/** Name, currency, time zone and contact e-mail; plan and status are refused (read-only here). */
export async function updateStoreSettings(ctx: Context, input: unknown): Promise<StoreSettings> {
  const storeId = storeIdOf(ctx);
  const { plan: _plan, status: _status, ...fields } = parseInput(storeSettingsUpdateInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    const before = await tx.store.findUnique({
      where: { id: storeId },
      select: storeSettingsSelect,
    });
    if (!before) throw notFound('Store');
    const store = await tx.store.update({
      where: { id: storeId },
      data: { ...fields, updatedAt: ctx.now() },
      select: storeSettingsSelect,
    });
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    for (const field of ['name', 'currency', 'timezone', 'contactEmail'] as const) {
      if (fields[field] !== undefined && before[field] !== store[field])
        changes[field] = { from: before[field], to: store[field] };
    }
    await recordAudit(tx, ctx, {
      action: 'store.settings_updated',
      targetType: 'store',
      targetId: storeId,
      details: { changes },
    });
    return store;
  });
}
