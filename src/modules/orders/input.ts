import { z } from 'zod';
import { OrderStatus } from '../../../prisma/generated/client/enums';
import { emailInput } from '../../validation';

export const orderStatuses = Object.values(OrderStatus) as [OrderStatus, ...OrderStatus[]];

export const MAX_ORDER_LINES = 100;
const MAX_LINE_QUANTITY = 1000;

export const orderLineInput = z
  .object({
    productId: z.string().trim().min(1, 'is required').describe('An active product of the store'),
    quantity: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(MAX_LINE_QUANTITY, `must be at most ${MAX_LINE_QUANTITY}`)
      .describe(`1 to ${MAX_LINE_QUANTITY}`),
  })
  .strict();

/**
 * A new order. A product may appear on one line only (a repeat is refused, not merged, so that the
 * client's idea of the order and the stored one never differ); `email` defaults to the customer's.
 */
export const placeOrderInput = z
  .object({
    customerId: z.string().trim().min(1, 'must not be empty').describe('A customer of the store').nullish(),
    email: emailInput.describe("Required without customerId; defaults to the customer's").nullish(),
    items: z
      .array(orderLineInput)
      .min(1, 'must hold at least one line')
      .max(MAX_ORDER_LINES, `at most ${MAX_ORDER_LINES} lines`)
      .describe(`1 to ${MAX_ORDER_LINES} lines, each product once`),
    couponCode: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(40, 'at most 40 characters')
      .describe('A coupon of the store, any case')
      .nullish(),
    note: z.string().max(1000, 'at most 1000 characters').describe('At most 1000 characters').nullish(),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (!value.customerId && !value.email) {
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'is required when no customerId is given' });
    }
    const seen = new Map<string, number>();
    value.items.forEach((item, index) => {
      const first = seen.get(item.productId);
      if (first === undefined) seen.set(item.productId, index);
      else {
        ctx.addIssue({
          code: 'custom',
          path: ['items', index, 'productId'],
          message: `repeats line ${first}; give each product once with its total quantity`,
        });
      }
    });
  });

export type PlaceOrderInput = z.output<typeof placeOrderInput>;

/** The reason may come as the `reason` argument (GraphQL) or as the REST body `{ reason }`. */
export const cancelReasonInput = z
  .string()
  .trim()
  .max(500, 'at most 500 characters')
  .transform((reason) => reason || null)
  .describe('At most 500 characters')
  .nullish();

/** REST's body of a cancel (GraphQL clients may pass `reason` as an argument instead). */
export const cancelOrderInput = z.object({ reason: cancelReasonInput }).strict();
