import type { Coupon, Prisma } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, type ErrorDetail, notFound, validationError } from '../../errors';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { couponUpdateInput, newCouponInput } from './input';

export const couponSortFields = ['createdAt', 'code', 'redemptionCount'] as const;
export type CouponSortField = (typeof couponSortFields)[number];

export interface CouponFilter {
  q?: string | null;
  isActive?: boolean | null;
}

function couponWhere(storeId: string, filter: CouponFilter): Prisma.CouponWhereInput {
  const q = filter.q?.trim();
  return {
    storeId,
    ...(q ? { code: { contains: q, mode: 'insensitive' } } : {}),
    ...(filter.isActive != null ? { isActive: filter.isActive } : {}),
  };
}

/** The store's coupons: a page, a Relay connection's rows and count, one by id. */
export const couponRows = storeRows<Coupon, CouponFilter, CouponSortField>({
  name: 'Coupon',
  model: (ctx) => ctx.prisma.coupon,
  where: couponWhere,
  defaultSort: 'createdAt',
});

/** The rules that span fields, checked on the coupon as it would be after the write. */
function assertCouponRules(
  coupon: Pick<Coupon, 'type' | 'value' | 'startsAt' | 'endsAt' | 'maxRedemptions' | 'redemptionCount'>,
) {
  const details: ErrorDetail[] = [];
  if (coupon.type === 'percent' && (coupon.value < 1 || coupon.value > 100)) {
    details.push({ path: 'input.value', message: 'a percent coupon takes a value from 1 to 100' });
  }
  if (coupon.type === 'fixed' && coupon.value < 1) {
    details.push({ path: 'input.value', message: 'a fixed coupon takes at least 1 (minor units)' });
  }
  if (coupon.startsAt && coupon.endsAt && coupon.endsAt.getTime() <= coupon.startsAt.getTime()) {
    details.push({ path: 'input.endsAt', message: 'must be after startsAt' });
  }
  if (coupon.maxRedemptions != null && coupon.maxRedemptions < coupon.redemptionCount) {
    details.push({
      path: 'input.maxRedemptions',
      message: `must not be below the redemptions already made (${coupon.redemptionCount})`,
    });
  }
  if (details.length > 0) throw validationError(details);
}

/** Codes are stored upper-cased; the comparison is case-insensitive all the same (rows written elsewhere). */
async function assertCodeFree(tx: Tx, storeId: string, code: string, selfId?: string) {
  const clash = await tx.coupon.findFirst({
    where: {
      storeId,
      code: { equals: code, mode: 'insensitive' },
      ...(selfId ? { id: { not: selfId } } : {}),
    },
    select: { id: true },
  });
  if (clash) {
    throw new AppError('CONFLICT', `A coupon with code ${code} already exists`, [
      { path: 'input.code', message: 'is already used by another coupon of the store' },
    ]);
  }
}

export async function createCoupon(ctx: Context, input: unknown) {
  const storeId = storeIdOf(ctx);
  const { redemptionCount: _readOnly, ...fields } = parseInput(newCouponInput, input, 'input');
  assertCouponRules({
    type: fields.type,
    value: fields.value,
    startsAt: fields.startsAt ?? null,
    endsAt: fields.endsAt ?? null,
    maxRedemptions: fields.maxRedemptions ?? null,
    redemptionCount: 0,
  });
  return writeStore(ctx, storeId, async (tx) => {
    await assertCodeFree(tx, storeId, fields.code);
    return tx.coupon.create({ data: { ...fields, storeId, createdAt: ctx.now(), updatedAt: ctx.now() } });
  });
}

export async function updateCoupon(ctx: Context, id: string, input: unknown) {
  const storeId = storeIdOf(ctx);
  const { redemptionCount: _readOnly, ...fields } = parseInput(couponUpdateInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    // Lock the row: checkout increments redemptionCount concurrently, and maxRedemptions is checked against it.
    const locked = await tx.$queryRaw<Array<{ id: string }>>`
      SELECT id FROM "Coupon" WHERE id = ${id} AND "storeId" = ${storeId} FOR UPDATE`;
    if (locked.length === 0) throw notFound('Coupon');
    const existing = await tx.coupon.findUniqueOrThrow({ where: { id } });
    assertCouponRules({ ...existing, ...withoutUndefined(fields) });
    if (fields.code !== undefined) await assertCodeFree(tx, storeId, fields.code, id);
    return tx.coupon.update({ where: { id }, data: { ...fields, updatedAt: ctx.now() } });
  });
}

/** Orders that used the coupon keep their amounts; their couponId becomes null (ON DELETE SET NULL). */
export async function deleteCoupon(ctx: Context, id: string) {
  const storeId = storeIdOf(ctx);
  const { count } = await writeStore(ctx, storeId, (tx) => tx.coupon.deleteMany({ where: { id, storeId } }));
  if (count === 0) throw notFound('Coupon');
  return { id, deleted: true };
}

function withoutUndefined<T extends Record<string, unknown>>(value: T) {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
