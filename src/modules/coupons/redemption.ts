import type { Coupon } from '../../../prisma/generated/client/client';

type CouponTerms = Pick<
  Coupon,
  'type' | 'value' | 'isActive' | 'startsAt' | 'endsAt' | 'minSubtotalAmount' | 'maxRedemptions'
>;

/**
 * Why a coupon cannot be applied to an order of `subtotal` at `now`, or null when it can. The window
 * is [startsAt, endsAt). `redemptionCount` is the count before this order's redemption.
 */
export function couponProblem(
  coupon: CouponTerms & { redemptionCount: number },
  subtotal: number,
  now: Date,
): { reason: 'inactive' | 'not-started' | 'ended' | 'min-subtotal' | 'exhausted'; message: string } | null {
  if (!coupon.isActive) return { reason: 'inactive', message: 'the coupon is not active' };
  if (coupon.startsAt && now.getTime() < coupon.startsAt.getTime()) {
    return { reason: 'not-started', message: `the coupon is valid from ${coupon.startsAt.toISOString()}` };
  }
  if (coupon.endsAt && now.getTime() >= coupon.endsAt.getTime()) {
    return { reason: 'ended', message: `the coupon ended at ${coupon.endsAt.toISOString()}` };
  }
  if (coupon.minSubtotalAmount != null && subtotal < coupon.minSubtotalAmount) {
    return {
      reason: 'min-subtotal',
      message: `the coupon needs a subtotal of at least ${coupon.minSubtotalAmount}`,
    };
  }
  if (coupon.maxRedemptions != null && coupon.redemptionCount >= coupon.maxRedemptions) {
    return { reason: 'exhausted', message: 'the coupon has been used as often as it may be' };
  }
  return null;
}

/**
 * The discount in minor units: a percent coupon rounds half up (to the nearest minor unit, a half
 * going to the customer), a fixed one is its value; never more than the subtotal.
 */
export function couponDiscount(coupon: Pick<Coupon, 'type' | 'value'>, subtotal: number): number {
  const raw = coupon.type === 'percent' ? Math.floor((subtotal * coupon.value + 50) / 100) : coupon.value;
  return Math.max(0, Math.min(raw, subtotal));
}
