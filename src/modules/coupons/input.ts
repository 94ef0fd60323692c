import { z } from 'zod';

/** 3–40 characters of A–Z, 0–9, '-' and '_'; any case is accepted and stored upper-cased. */
export const COUPON_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;

const READ_ONLY_REDEMPTION_COUNT =
  'is read-only: it counts the orders that used the coupon and only checkout changes it';

const fields = {
  code: z
    .string()
    .trim()
    .regex(COUPON_CODE_PATTERN, "3 to 40 characters of A-Z, 0-9, '-' and '_'")
    .describe("3–40 of A–Z, 0–9, '-', '_'; stored upper-cased")
    .transform((code) => code.toUpperCase()),
  type: z.enum(['percent', 'fixed'], 'must be percent or fixed'),
  value: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .describe('Percent 1–100, or at least 1 minor unit for fixed'),
  minSubtotalAmount: z
    .number()
    .int('must be an integer (minor units)')
    .min(0, 'must be at least 0')
    .describe('Minor units')
    .nullish(),
  maxRedemptions: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .describe('At least 1, and not below redemptionCount; null for no limit')
    .nullish(),
  startsAt: z.date('must be a date-time').nullish(),
  endsAt: z.date('must be a date-time').describe('After startsAt').nullish(),
  isActive: z.boolean().optional(),
  /** Declared only so that sending it is refused with a clear message. */
  redemptionCount: z
    .unknown()
    .refine((value) => value === undefined, READ_ONLY_REDEMPTION_COUNT)
    .describe('Read-only: sending it is refused (400 VALIDATION_ERROR)')
    .optional(),
};

export const newCouponInput = z.object(fields).strict();
export const couponUpdateInput = z.object(fields).partial().strict();

export type NewCouponInput = z.output<typeof newCouponInput>;
export type CouponUpdateInput = z.output<typeof couponUpdateInput>;
