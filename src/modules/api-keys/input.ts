import { z } from 'zod';
import { allowlistEntryError } from '../../access/ip-allowlist';
import { scopeActions, scopeResources } from '../../access/scopes';
import { MAX_INT4 } from '../../validation';

export const environments = ['production', 'staging', 'development'] as const;

export const scopeObjectInput = z.object({
  resource: z.enum(scopeResources),
  actions: z.array(z.enum(scopeActions)).min(1, 'must name at least one action'),
});

export const ipAllowlistInput = z
  .array(z.string())
  .max(100, 'at most 100 entries')
  .superRefine((entries, ctx) => {
    entries.forEach((entry, index) => {
      const error = allowlistEntryError(entry);
      if (error) ctx.addIssue({ code: 'custom', path: [index], message: error });
    });
  });

/** The rules of a new key's fields, shared by the CLI and the API. `now` decides what "future" means. */
export const newApiKeyInput = (now: Date) =>
  z.object({
    keyName: z.string().trim().min(1, 'is required').max(100, 'at most 100 characters'),
    environment: z.enum(environments),
    scopes: z.array(scopeObjectInput).min(1, 'must grant at least one scope'),
    ipAllowlist: ipAllowlistInput
      .describe('IPv4/IPv6 addresses and CIDR ranges; empty or absent: any address')
      .nullish(),
    expiresAt: z
      .date()
      .refine((date) => date.getTime() > now.getTime(), 'must be in the future')
      .describe('Must be in the future')
      .nullish(),
    usageLimit: z
      .number()
      .int('must be an integer')
      .positive('must be a positive integer')
      .max(MAX_INT4, `must be at most ${MAX_INT4}`)
      .describe('Total requests the key may make')
      .nullish(),
  });

export type NewApiKeyInput = z.input<ReturnType<typeof newApiKeyInput>>;

/** PATCH /api-key/{keyId}: every field optional; null clears expiresAt, usageLimit and ipAllowlist. */
export const apiKeyUpdateInput = (now: Date) =>
  newApiKeyInput(now)
    .omit({ environment: true })
    .partial()
    .extend({
      isActive: z.boolean().describe('false deactivates (API_KEY_INACTIVE), true reactivates').optional(),
    })
    .strict();

export const MAX_GRACE_SECONDS = 604_800;

/** Rotate (default one day) and revoke (default none) take an optional grace period. */
export const graceInput = (defaultSeconds: number) =>
  z
    .object({
      gracePeriodSeconds: z
        .number()
        .int('must be an integer')
        .min(0, 'must be at least 0')
        .max(MAX_GRACE_SECONDS, `must be at most ${MAX_GRACE_SECONDS} (7 days)`)
        .describe(`0 to ${MAX_GRACE_SECONDS}; rotate defaults to 86400, revoke to 0`)
        .nullish()
        .transform((value) => value ?? defaultSeconds),
    })
    .strict();
