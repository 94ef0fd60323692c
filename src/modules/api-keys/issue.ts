import { toScopePairs } from '../../access/scopes';
import { generateApiKeySecret, hashSecret, lastFour } from '../../auth/api-key-secret';
import type { Db, Tx } from '../../db/client';
import { parseInput } from '../../validation';
import { type NewApiKeyInput, newApiKeyInput } from './input';

export interface IssuedApiKey {
  keyId: string;
  /** The only time the secret exists outside the caller's hands. */
  secret: string;
}

/**
 * Creates a key and its first secret. Callers check who may grant what; this validates the fields and
 * stores only the secret's SHA-256 and last four characters.
 */
export async function issueApiKey(
  db: Db | Tx,
  storeId: string,
  input: NewApiKeyInput,
  options: { now: Date; createdByKeyId?: string; createdByStaffId?: string; canChangeOwner?: boolean },
): Promise<IssuedApiKey> {
  const fields = parseInput(newApiKeyInput(options.now), input);
  const secret = generateApiKeySecret();
  const key = await db.apiKey.create({
    data: {
      storeId,
      keyName: fields.keyName,
      environment: fields.environment,
      scopes: toScopePairs(fields.scopes),
      ipAllowlist: fields.ipAllowlist ?? [],
      expiresAt: fields.expiresAt ?? null,
      usageLimit: fields.usageLimit ?? null,
      lastFour: lastFour(secret),
      createdByKeyId: options.createdByKeyId,
      createdByStaffId: options.createdByStaffId,
      canChangeOwner: options.canChangeOwner ?? true,
      secrets: { create: { hash: hashSecret(secret), lastFour: lastFour(secret) } },
    },
    select: { id: true },
  });
  return { keyId: key.id, secret };
}
