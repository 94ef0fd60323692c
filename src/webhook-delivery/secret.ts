import { randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** docs/design.md "Endpoints": `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}
