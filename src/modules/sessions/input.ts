import { z } from 'zod';

const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;

/** A sign-in: checked for shape only; whether the e-mail and password match is the session's to say. */
export const loginInput = z.object({
  email: z.string().trim().min(1, 'is required').max(MAX_EMAIL, `is longer than ${MAX_EMAIL} characters`),
  password: z.string().min(1, 'is required').max(MAX_PASSWORD, `is longer than ${MAX_PASSWORD} characters`),
  storeId: z
    .string()
    .describe(
      'For a person with accounts in several stores: the store to sign in to. Without it the password picks the account, the most recently used first',
    )
    .nullish(),
});

export type LoginInput = z.input<typeof loginInput>;
