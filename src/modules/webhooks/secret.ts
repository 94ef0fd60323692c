import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** DESIGN "Webhooks": `whsec_` + base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * Signing secrets at rest: AES-256-GCM under the configured key, bound to the endpoint id (associated
 * data), so a ciphertext copied onto another endpoint does not decrypt. Format `v1.<iv>.<tag>.<data>`
 * (base64url parts).
 */
export interface SecretBox {
  seal(secret: string, endpointId: string): string;
  open(sealed: string, endpointId: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The webhook secret key must be 32 bytes');
  return {
    seal(secret, endpointId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(endpointId));
      const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, endpointId) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable webhook secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(endpointId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
