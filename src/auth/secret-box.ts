import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (README "Security model"): AES-256-GCM under the server's key (WEBHOOK_SECRET_KEY),
 * bound to what they belong to (associated data: an endpoint's id for its signing secret, the
 * caller and Idempotency-Key for a remembered answer holding a secret), so a ciphertext copied
 * elsewhere does not open. Format `v1.<iv>.<tag>.<data>` (base64url parts).
 */
export interface SecretBox {
  seal(secret: string, boundTo: string): string;
  open(sealed: string, boundTo: string): string;
  /**
   * A keyed digest (HMAC-SHA256 under a key derived from the server's): what a record keeps to tell
   * two requests apart without keeping anything from which their content (a password in a staff
   * change, say) could be guessed offline, as a plain hash of it could.
   */
  digest(value: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  // One key per use: the digests' key is derived, never the encryption key itself.
  const digestKey = createHmac('sha256', key).update('commerce-service/request-digest/v1').digest();
  return {
    digest: (value) => createHmac('sha256', digestKey).update(value).digest('hex'),
    seal(secret, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(boundTo));
      const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, boundTo) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
