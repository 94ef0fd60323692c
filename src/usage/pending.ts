/** Usage counted but not yet in PostgreSQL, for one key. */
export interface UsageDelta {
  keyId: string;
  /** UTC day (YYYY-MM-DD) → requests counted on it. */
  days: Map<string, number>;
  /** Latest use, in ms. */
  lastUsedMs: number;
}

/** What usage counting needs from a verified key (PostgreSQL's values as the caller read them). */
export interface MeteredKey {
  id: string;
  storeId: string;
  usageLimit: number | null;
  usageCount: bigint;
}

export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** One delta per key, so that each key's row is written once per statement. */
export function mergeDeltas(deltas: UsageDelta[]): UsageDelta[] {
  const byKey = new Map<string, UsageDelta>();
  for (const delta of deltas) {
    const into = byKey.get(delta.keyId);
    if (!into) {
      byKey.set(delta.keyId, { keyId: delta.keyId, days: new Map(delta.days), lastUsedMs: delta.lastUsedMs });
      continue;
    }
    for (const [day, count] of delta.days) into.days.set(day, (into.days.get(day) ?? 0) + count);
    into.lastUsedMs = Math.max(into.lastUsedMs, delta.lastUsedMs);
  }
  return [...byKey.values()];
}
