import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { NodeRef } from '../../resources/node/interface';
import { storeQueries } from '../../resources/store-resource/queries';
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
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

storeQueries({
  ref: CouponRef,
  name: 'Coupon',
  fields: { list: 'coupons', item: 'coupon' },
  noun: 'coupon',
  scope: requireScope('COUPONS', 'READ'),
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

const DeletedCouponRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedCoupon').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

builder.mutationFields((t) => ({
  createCoupon: t.prismaField({
    description: 'Create a coupon (the code is stored upper-cased and unique in the store)',
    type: 'Coupon',
    authScopes: requireScope('COUPONS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateCouponInput, required: true }) },
    resolve: (_query, _root, { input }, ctx) => createCoupon(ctx, input),
  }),
  updateCoupon: t.prismaField({
    description: 'Update a coupon (redemptionCount is read-only)',
    type: 'Coupon',
    authScopes: requireScope('COUPONS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateCouponInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => updateCoupon(ctx, id, input),
  }),
  deleteCoupon: t.field({
    type: DeletedCouponRef,
    description: 'Delete a coupon; orders that used it keep their amounts, and their couponId becomes null',
    authScopes: requireScope('COUPONS', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => deleteCoupon(ctx, id),
  }),
}));
