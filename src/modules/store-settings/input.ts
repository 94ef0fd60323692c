import { z } from 'zod';
import { emailInput } from '../../validation';

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 currency code that this runtime knows, in upper case (e.g. `EUR`). */
export const isCurrencyCode = (code: string) => /^[A-Z]{3}$/.test(code) && currencies.has(code);

/**
 * The canonical spelling of an IANA time-zone name that this runtime knows (`europe/berlin` →
 * `Europe/Berlin`, `US/Pacific` → `America/Los_Angeles`), or null; raw offsets are not names.
 */
export function canonicalTimeZone(value: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isTimeZone = (value: string): boolean => canonicalTimeZone(value) !== null;

const readOnly = (how: string) => z.never({ error: `is read-only; ${how}` }).optional();

export const storeSettingsUpdateInput = z
  .object({
    name: z.string().trim().min(1, 'is required').max(100, 'at most 100 characters').optional(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .refine(isCurrencyCode, 'must be an ISO 4217 currency code')
      .describe('ISO 4217 code, e.g. EUR')
      .optional(),
    timezone: z
      .string()
      .trim()
      .max(64, 'at most 64 characters')
      .refine(isTimeZone, 'must be an IANA time-zone name such as Europe/Berlin')
      // Stored in one spelling, so that every consumer (and every other language's tz library) knows it.
      .transform((zone) => canonicalTimeZone(zone) as string)
      .describe('IANA time-zone name, e.g. Europe/Berlin')
      .optional(),
    contactEmail: emailInput.describe('null clears it').nullable().optional(),
    plan: readOnly('the plan changes through billing').describe(
      'Read-only: always refused with VALIDATION_ERROR; the plan changes through billing',
    ),
    status: readOnly('a store is suspended or resumed by the operator').describe(
      'Read-only: always refused with VALIDATION_ERROR',
    ),
  })
  .strict();
