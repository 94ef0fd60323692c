import { z } from 'zod';
import { validationError } from './errors';

/** The largest value of an INT4 column (and of GraphQL's Int): amounts, counts, order numbers. */
export const MAX_INT4 = 2_147_483_647;

/** E-mail addresses (staff, customers, orders, store contact) are stored trimmed and lower-cased. */
export const emailInput = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.email('must be an e-mail address').max(320, 'at most 320 characters'),
);

/** Parses input with a zod schema; failures become 400 VALIDATION_ERROR with field-level details. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(
    result.error.issues.map((issue) => ({
      path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
      message: issue.message,
    })),
  );
}
