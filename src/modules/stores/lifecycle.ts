import type { Store } from '../../../prisma/generated/client/client';
import type { Plan } from '../../../prisma/generated/client/enums';
import { planFeatures } from '../../access/plans';
import type { Tx } from '../../db/client';
import { notFound, validationError } from '../../errors';
import { type StoreWriter, writeStore } from '../../resources/store-writes';

/** What a lifecycle change did: `changed` is false when the store was already in the asked-for state. */
export interface StoreChange {
  store: Store;
  changed: boolean;
}

const audit = (tx: Tx, storeId: string, action: string, details: Record<string, string | null> = {}) =>
  tx.auditEntry.create({
    data: { storeId, actorType: 'system', action, targetType: 'store', targetId: storeId, details },
  });

/**
 * Suspends a store: every key-authenticated request then fails with 402 STORE_SUSPENDED. Suspending a
 * suspended store changes nothing and keeps the original suspendedAt.
 */
export async function suspendStore(
  db: StoreWriter,
  storeId: string,
  options: { now?: Date } = {},
): Promise<StoreChange> {
  const now = options.now ?? new Date();
  return writeStore(db, storeId, async (tx) => {
    const { count } = await tx.store.updateMany({
      where: { id: storeId, status: 'ACTIVE' },
      data: { status: 'SUSPENDED', suspendedAt: now },
    });
    if (count > 0) await audit(tx, storeId, 'store.suspended');
    return { store: await findStore(tx, storeId), changed: count > 0 };
  });
}

/** Lifts a suspension (status ACTIVE, suspendedAt cleared). Resuming an active store changes nothing. */
export async function resumeStore(db: StoreWriter, storeId: string): Promise<StoreChange> {
  return writeStore(db, storeId, async (tx) => {
    const { count } = await tx.store.updateMany({
      where: { id: storeId, status: 'SUSPENDED' },
      data: { status: 'ACTIVE', suspendedAt: null },
    });
    if (count > 0) await audit(tx, storeId, 'store.resumed');
    return { store: await findStore(tx, storeId), changed: count > 0 };
  });
}

/**
 * Moves a store to another plan. Keys stay as they are; on a plan without API access they are refused
 * (403 PLAN_NOT_ELIGIBLE) until the store moves back to one with it.
 */
export async function changeStorePlan(
  db: StoreWriter,
  storeId: string,
  plan: Plan,
): Promise<StoreChange & { previousPlan: Plan }> {
  if (!Object.hasOwn(planFeatures, plan)) {
    throw validationError([
      { path: 'plan', message: `must be one of ${Object.keys(planFeatures).join(', ')}` },
    ]);
  }
  return writeStore(db, storeId, async (tx) => {
    const before = await findStore(tx, storeId);
    if (before.plan === plan) return { store: before, changed: false, previousPlan: plan };
    const store = await tx.store.update({ where: { id: storeId }, data: { plan } });
    await audit(tx, storeId, 'store.plan_changed', { previousPlan: before.plan, plan });
    return { store, changed: true, previousPlan: before.plan };
  });
}

async function findStore(tx: Tx, storeId: string): Promise<Store> {
  const store = await tx.store.findUnique({ where: { id: storeId } });
  if (!store) throw notFound('Store');
  return store;
}
