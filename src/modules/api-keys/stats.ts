import type { Context } from '../../context';
import { assertApiAccess } from './service';

export const STATS_DAYS = 30;

export interface DailyUsage {
  date: string;
  count: number;
}

const dayKey = (date: Date) => date.toISOString().slice(0, 10);

/** The last 30 UTC days, oldest first, each with its count (0 where nothing was used). */
function lastDays(now: Date, counts: Map<string, number>): DailyUsage[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: STATS_DAYS }, (_, i) => {
    const date = dayKey(new Date(today - (STATS_DAYS - 1 - i) * 86_400_000));
    return { date, count: counts.get(date) ?? 0 };
  });
}

/** GET /api-key/stats: keys by status and environment, total usage, daily usage per store and per key. */
export async function apiKeyStats(ctx: Context) {
  const storeId = assertApiAccess(ctx);
  const now = ctx.now();
  const since = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (STATS_DAYS - 1) * 86_400_000,
  );
  const [keys, buckets] = await Promise.all([
    ctx.prisma.apiKey.findMany({
      where: { storeId },
      select: {
        id: true,
        keyName: true,
        status: true,
        environment: true,
        usageCount: true,
        lastUsedAt: true,
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    ctx.prisma.apiKeyDailyUsage.findMany({
      where: { storeId, day: { gte: since } },
      select: { apiKeyId: true, day: true, count: true },
    }),
  ]);
  const storeDaily = new Map<string, number>();
  const keyDaily = new Map<string, Map<string, number>>();
  for (const bucket of buckets) {
    const day = dayKey(bucket.day);
    const count = Number(bucket.count);
    storeDaily.set(day, (storeDaily.get(day) ?? 0) + count);
    const perKey = keyDaily.get(bucket.apiKeyId) ?? new Map<string, number>();
    perKey.set(day, (perKey.get(day) ?? 0) + count);
    keyDaily.set(bucket.apiKeyId, perKey);
  }
  const countBy = <K extends string>(values: readonly K[], pick: (key: (typeof keys)[number]) => K) =>
    Object.fromEntries(
      values.map((value) => [value, keys.filter((key) => pick(key) === value).length]),
    ) as Record<K, number>;
  return {
    totalKeys: keys.length,
    byStatus: countBy(['active', 'inactive', 'revoked'] as const, (key) => key.status),
    byEnvironment: countBy(['production', 'staging', 'development'] as const, (key) => key.environment),
    totalUsage: keys.reduce((sum, key) => sum + Number(key.usageCount), 0),
    daily: lastDays(now, storeDaily),
    keys: keys.map((key) => ({
      keyId: key.id,
      keyName: key.keyName,
      usageCount: Number(key.usageCount),
      lastUsedAt: key.lastUsedAt,
      daily: lastDays(now, keyDaily.get(key.id) ?? new Map()),
    })),
  };
}

export type ApiKeyStats = Awaited<ReturnType<typeof apiKeyStats>>;
