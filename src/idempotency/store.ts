import { Prisma, type PrismaClient } from '../../prisma/generated/client/client';
import { AppError } from '../errors';

/** docs/design.md "Envelopes": an Idempotency-Key is remembered for 24 hours, per API key (or per signed-in staff user). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export type Begin = { kind: 'first' } | { kind: 'replay'; status: number; body: unknown };

export function checkIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key: 1 to 255 visible ASCII characters', [
      { path: 'Idempotency-Key', message: '1 to 255 visible ASCII characters' },
    ]);
  }
}

/**
 * Claims a key for a request, atomically: the first request with a key runs; a repeat with the same
 * request gets the first response again; one with another request is 422 IDEMPOTENCY_KEY_REUSED; a
 * repeat while the first still runs is 409 IDEMPOTENCY_KEY_IN_USE.
 */
export async function beginIdempotent(
  prisma: PrismaClient,
  record: { scope: string; key: string; hash: string; now: Date },
): Promise<Begin> {
  checkIdempotencyKey(record.key);
  const expiresAt = new Date(record.now.getTime() + IDEMPOTENCY_TTL_MS);
  // An expired record no longer counts: remove it so this request can claim the key.
  await prisma.idempotencyRecord.deleteMany({
    where: { scope: record.scope, key: record.key, expiresAt: { lte: record.now } },
  });
  const claimed = await prisma.$executeRaw`
    INSERT INTO "IdempotencyRecord" ("scope", "key", "requestHash", "expiresAt", "createdAt")
    VALUES (${record.scope}, ${record.key}, ${record.hash}, ${expiresAt}, ${record.now})
    ON CONFLICT ("scope", "key") DO NOTHING`;
  if (claimed === 1) return { kind: 'first' };
  const existing = await prisma.idempotencyRecord.findUnique({
    where: { scope_key: { scope: record.scope, key: record.key } },
  });
  if (!existing) return beginIdempotent(prisma, record);
  if (existing.requestHash !== record.hash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  if (!existing.completedAt || existing.status === null) {
    throw new AppError(
      'IDEMPOTENCY_KEY_IN_USE',
      'A request with this Idempotency-Key is still being processed',
    );
  }
  return { kind: 'replay', status: existing.status, body: existing.responseBody };
}

/** Remembers the response; a 5xx is forgotten instead, so the client can retry with the same key. */
export async function finishIdempotent(
  prisma: PrismaClient,
  record: { scope: string; key: string; status: number; body: unknown; now: Date },
): Promise<void> {
  const where = { scope_key: { scope: record.scope, key: record.key } };
  if (record.status >= 500) {
    await prisma.idempotencyRecord.delete({ where }).catch(() => {});
    return;
  }
  await prisma.idempotencyRecord.update({
    where,
    data: {
      status: record.status,
      responseBody: record.body === undefined ? Prisma.DbNull : (record.body as Prisma.InputJsonValue),
      completedAt: record.now,
    },
  });
}
