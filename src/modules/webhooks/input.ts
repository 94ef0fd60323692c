import { z } from 'zod';
import { eventTypes } from '../../events/catalog';
import { MAX_WEBHOOK_URL_LENGTH } from '../../outbound-http/url-policy';

export const MAX_ENDPOINTS_PER_STORE = 5;
export const MAX_DESCRIPTION_LENGTH = 256;
export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 40;
export const MAX_METADATA_VALUE_LENGTH = 500;
/** The highest rate an endpoint may ask for; beyond it "unlimited" (null) says the same. */
export const MAX_RATE_LIMIT_PER_SECOND = 1000;

const subscribable = new Set<string>([...eventTypes, '*']);

const events = z
  .array(z.string())
  .min(1, 'must name at least one event type')
  .max(50, 'at most 50 event types')
  .superRefine((types, ctx) => {
    types.forEach((type, index) => {
      if (!subscribable.has(type)) {
        ctx.addIssue({ code: 'custom', path: [index], message: `unknown event type "${type}"` });
      }
    });
  })
  .transform((types) => [...new Set(types)]);

const metadata = z
  .record(
    z
      .string()
      .min(1, 'keys must not be empty')
      .max(MAX_METADATA_KEY_LENGTH, `keys are at most ${MAX_METADATA_KEY_LENGTH} characters`),
    z
      .string({ error: 'values must be strings' })
      .max(MAX_METADATA_VALUE_LENGTH, `values are at most ${MAX_METADATA_VALUE_LENGTH} characters`),
    { error: 'must be an object of string values' },
  )
  .refine((map) => Object.keys(map).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} keys`);

const fields = {
  url: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(MAX_WEBHOOK_URL_LENGTH, `at most ${MAX_WEBHOOK_URL_LENGTH} characters`)
    .describe('https:// only; internal or private hosts are refused'),
  events: events.describe('Event types from the catalog, or "*" for all'),
  description: z
    .string()
    .max(MAX_DESCRIPTION_LENGTH, `at most ${MAX_DESCRIPTION_LENGTH} characters`)
    .describe(`At most ${MAX_DESCRIPTION_LENGTH} characters; null clears it`)
    .nullish(),
  metadata: metadata
    .describe(
      `String-to-string pairs (at most ${MAX_METADATA_KEYS} keys); an update replaces them, null clears them`,
    )
    .nullish(),
  rateLimitPerSecond: z
    .number({ error: 'must be a whole number of deliveries per second, or null' })
    .int('must be a whole number')
    .min(1, 'must be at least 1 (null: unlimited)')
    .max(MAX_RATE_LIMIT_PER_SECOND, `at most ${MAX_RATE_LIMIT_PER_SECOND}`)
    .describe(
      `At most this many deliveries reach the endpoint in any 1-second window (1–${MAX_RATE_LIMIT_PER_SECOND}); the others wait, using no attempt. null (the default): unlimited`,
    )
    .nullish(),
};

export const newEndpointInput = z.object(fields).strict();

/** PATCH: any of the fields, and isActive; null clears description and metadata. */
export const endpointUpdateInput = z
  .object({ ...fields, isActive: z.boolean().describe('false stops delivery; true resumes it') })
  .partial()
  .strict();
