import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeMutations } from '../../resources/store-resource/mutations';
import { storeQueries } from '../../resources/store-resource/queries';
import { timestamps } from '../../resources/timestamps';
import { couponUpdateInput, newCouponInput } from './input';
import { couponRows, couponSortFields, createCoupon, deleteCoupon, updateCoupon } from './service';

export const CouponTypeEnum = builder.enumType('CouponType', {
  description: 'percent: value is a percentage (1–100); fixed: value is an amount in minor units',
  values: ['percent', 'fixed'] as const,
});

export const CouponRef = builder.prismaObject('Coupon', {
  extensions: resourceFragment(),
  interfaces: [NodeRef],
  fields: (t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code', { description: 'Upper-case; unique in the store' }),
    type: t.expose('type', { type: CouponTypeEnum }),
    value: t.exposeInt('value', { description: 'Percent (1–100), or minor units for fixed coupons' }),
    minSubtotalAmount: t.exposeInt('minSubtotalAmount', { nullable: true }),
    maxRedemptions: t.exposeInt('maxRedemptions', { nullable: true }),
    redemptionCount: t.exposeInt('redemptionCount', { description: 'Orders that used it; read-only' }),
    startsAt: t.expose('startsAt', { type: 'DateTime', nullable: true }),
    endsAt: t.expose('endsAt', { type: 'DateTime', nullable: true }),
    isActive: t.exposeBoolean('isActive'),
    ...timestamps(t),
  }),
});

storeQueries({
  ref: CouponRef,
  fields: { list: 'coupons', item: 'coupon' },
  scope: requireScope('COUPONS', 'READ'),
  // Only writeStore changes its rows (README "Conditional requests").
  versioned: true,
  descriptions: {
    list: 'Coupons of the store, a page at a time; `q` matches the code',
    connection: 'Coupons as a Relay connection, for frontends',
  },
  sortFields: couponSortFields,
  filters: (arg) => ({ q: arg.string(), isActive: arg.boolean() }),
  rows: couponRows,
});

/** redemptionCount is declared only to be refused with a clear message (src/modules/coupons/input.ts). */
const couponInputTypes = { type: CouponTypeEnum, redemptionCount: 'Int' };
const CreateCouponInput = inputTypeOf('CreateCouponInput', newCouponInput, { types: couponInputTypes });
const UpdateCouponInput = inputTypeOf('UpdateCouponInput', couponUpdateInput, { types: couponInputTypes });

storeMutations({
  name: 'Coupon',
  resource: 'COUPONS',
  create: {
    description: 'Create a coupon (the code is stored upper-cased and unique in the store)',
    input: CreateCouponInput,
    run: createCoupon,
  },
  update: {
    description: 'Update a coupon (redemptionCount is read-only)',
    input: UpdateCouponInput,
    run: updateCoupon,
  },
  delete: {
    description: 'Delete a coupon; orders that used it keep their amounts, and their couponId becomes null',
    run: deleteCoupon,
  },
});
