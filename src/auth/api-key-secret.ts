import { createHash, randomBytes } from 'node:crypto';

/** `tt_` + 64 lowercase hex characters (docs/design.md "API keys"). */
export const API_KEY_PATTERN = /^tt_[0-9a-f]{64}$/;

export function generateApiKeySecret(): string {
  return `tt_${randomBytes(32).toString('hex')}`;
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const lastFour = (secret: string): string => secret.slice(-4);
