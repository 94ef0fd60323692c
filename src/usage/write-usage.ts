import type { PrismaClient } from '../../prisma/generated/client/client';
import { mergeDeltas, type UsageDelta } from './pending';

/**
 * Adds counted usage to PostgreSQL in one transaction: ApiKey.usageCount += delta, lastUsedAt the
 * later of the two, and the UTC day buckets upserted with count += delta. Keys deleted meanwhile
 * are skipped. Rows are locked in id order first so that two flushes never deadlock.
 * Returns the ids of the keys written.
 */
export async function writeUsage(prisma: PrismaClient, deltas: UsageDelta[]): Promise<string[]> {
  const merged = mergeDeltas(deltas).sort((a, b) => (a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
  if (merged.length === 0) return [];
  const ids = merged.map((d) => d.keyId);
  const totals = merged.map((d) => [...d.days.values()].reduce((sum, n) => sum + n, 0));
  const lastUsed = merged.map((d) => new Date(d.lastUsedMs).toISOString());
  const buckets = merged.flatMap((d) => [...d.days].map(([day, count]) => ({ keyId: d.keyId, day, count })));

  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM "ApiKey" WHERE "id" = ANY(${ids}::text[]) ORDER BY "id" FOR NO KEY UPDATE`;
    const written = await tx.$queryRaw<{ id: string }[]>`
      UPDATE "ApiKey" AS k
      SET "usageCount" = k."usageCount" + d.delta, "lastUsedAt" = GREATEST(k."lastUsedAt", d.last_used)
      FROM unnest(${ids}::text[], ${totals}::bigint[], ${lastUsed}::timestamptz[]) AS d(id, delta, last_used)
      WHERE k."id" = d.id
      RETURNING k."id"`;
    await tx.$executeRaw`
      INSERT INTO "ApiKeyDailyUsage" ("apiKeyId", "storeId", "day", "count")
      SELECT d.id, k."storeId", d.day, d.delta
      FROM unnest(${buckets.map((b) => b.keyId)}::text[], ${buckets.map((b) => b.day)}::date[],
                  ${buckets.map((b) => b.count)}::bigint[]) AS d(id, day, delta)
      JOIN "ApiKey" AS k ON k."id" = d.id
      ON CONFLICT ("apiKeyId", "day") DO UPDATE SET "count" = "ApiKeyDailyUsage"."count" + EXCLUDED."count"`;
    return written.map((row) => row.id);
  });
}
