import { z } from 'zod';
import { emailInput } from '../../validation';

/** A name part: trimmed, 1–100 characters; null clears it. */
const namePart = z
  .string()
  .trim()
  .min(1, 'must not be empty; send null to clear it')
  .max(100, 'at most 100 characters');

/** Digits with the usual separators, optionally a leading +; 3 to 32 characters. */
const PHONE_PATTERN = /^\+?[0-9](?:[0-9 ().-]*[0-9])?$/;

const fields = {
  email: emailInput.describe('Stored trimmed and lower-cased; unique in the store'),
  firstName: namePart.describe('null clears it').nullish(),
  lastName: namePart.describe('null clears it').nullish(),
  phone: z
    .string()
    .trim()
    .min(3, 'at least 3 characters')
    .max(32, 'at most 32 characters')
    .regex(PHONE_PATTERN, "digits, spaces and '+ ( ) . -' only")
    .describe("Digits, spaces and '+ ( ) . -', 3 to 32 characters; null clears it")
    .nullish(),
  acceptsMarketing: z.boolean('must be true or false').describe('Default false').optional(),
};

export const newCustomerInput = z.object(fields).strict();
export const customerUpdateInput = z.object(fields).partial().strict();

export type NewCustomerInput = z.output<typeof newCustomerInput>;
export type CustomerUpdateInput = z.output<typeof customerUpdateInput>;
