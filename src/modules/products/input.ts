import { z } from 'zod';
import { catalogueTextInput } from '../../resources/slug';
import { MAX_INT4 } from '../../validation';
import { isCurrencyCode } from '../store-settings/input';

export const productStatuses = ['active', 'draft', 'archived'] as const;
export type ProductStatusValue = (typeof productStatuses)[number];

const amount = z
  .number()
  .int('must be an integer')
  .min(0, 'must be at least 0')
  .max(MAX_INT4, `must be at most ${MAX_INT4}`);

const fields = {
  ...catalogueTextInput('product'),
  sku: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'at most 100 characters')
    .describe('Unique in the store')
    .nullish(),
  priceAmount: amount.describe('Minor units, at least 0'),
  compareAtAmount: amount.describe('Minor units, at least priceAmount').nullish(),
  currency: z
    .string()
    .refine(isCurrencyCode, 'must be a 3-letter uppercase ISO 4217 code')
    .describe("3 uppercase letters (ISO 4217); the store's currency when a product is created without one")
    .optional(),
  stock: amount.describe('At least 0 (default 0)').optional(),
  status: z
    .enum(productStatuses, { message: `must be one of ${productStatuses.join(', ')}` })
    .describe('Default active')
    .optional(),
  categoryId: z
    .string()
    .min(1, 'must not be empty')
    .describe('A category of the store; null removes it')
    .nullish(),
};

const compareAtMessage = 'must be at least priceAmount';

export const newProductInput = z
  .object(fields)
  .strict()
  .superRefine((value, ctx) => {
    if (value.compareAtAmount != null && value.compareAtAmount < value.priceAmount) {
      ctx.addIssue({ code: 'custom', path: ['compareAtAmount'], message: compareAtMessage });
    }
  });

/** compareAtAmount against priceAmount is checked in the service, against the stored values too. */
export const productUpdateInput = z.object(fields).partial().strict();

export const COMPARE_AT_MESSAGE = compareAtMessage;

export type NewProductInput = z.output<typeof newProductInput>;
export type ProductUpdateInput = z.output<typeof productUpdateInput>;
