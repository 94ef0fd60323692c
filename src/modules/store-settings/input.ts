import { z } from 'zod';
import { emailInput } from '../staff/input';

const currencies = new Set(Intl.supportedValuesOf('currency'));

/** An IANA time-zone name that this runtime knows (e.g. `Europe/Berlin`, `UTC`); no raw offsets. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const readOnly = (field: string, how: string) =>
  z.never({ error: `${field} is read-only; ${how}` }).optional();

export const storeSettingsUpdateInput = z
  .object({
    name: z.string().trim().min(1, 'is required').max(100, 'at most 100 characters').optional(),
    currency: z
      .string()
      .trim()
      .toUpperCase()
      .refine((code) => /^[A-Z]{3}$/.test(code) && currencies.has(code), 'must be an ISO 4217 currency code')
      .optional(),
    timezone: z
      .string()
      .trim()
      .max(64, 'at most 64 characters')
      .refine(isTimeZone, 'must be an IANA time-zone name such as Europe/Berlin')
      .optional(),
    contactEmail: emailInput.nullable().optional(),
    plan: readOnly('plan', 'change it through billing'),
    status: readOnly('status', 'a store is suspended or reactivated by the operator'),
  })
  .strict();
