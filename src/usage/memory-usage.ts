import type { MeteredKey, UsageDelta } from './pending';

interface KeyUsage {
  total: number;
  days: Map<string, number>;
  lastUsedMs: number;
}

/**
 * Usage counted in this process: without Redis, or while it fails. Same rules as the Redis script,
 * but the usage limit only holds per process.
 */
export class MemoryUsageCounter {
  private readonly keys = new Map<string, KeyUsage>();

  record(key: MeteredKey, day: string, nowMs: number, requests = 1): { allowed: boolean; used: number } {
    const stored = Number(key.usageCount);
    let usage = this.keys.get(key.id);
    if (!usage) {
      usage = { total: stored, days: new Map(), lastUsedMs: 0 };
      this.keys.set(key.id, usage);
    }
    // PostgreSQL only holds counted requests, so it is never ahead of the truth (see usage.lua.ts).
    usage.total = Math.max(usage.total, stored);
    if (key.usageLimit !== null && usage.total + requests > key.usageLimit)
      return { allowed: false, used: usage.total };
    usage.total += requests;
    usage.days.set(day, (usage.days.get(day) ?? 0) + requests);
    usage.lastUsedMs = Math.max(usage.lastUsedMs, nowMs);
    return { allowed: true, used: usage.total };
  }

  /** Hands over everything pending and forgets it (the running totals stay). */
  take(): UsageDelta[] {
    const deltas: UsageDelta[] = [];
    for (const [keyId, usage] of this.keys) {
      if (usage.days.size === 0) continue;
      deltas.push({ keyId, days: usage.days, lastUsedMs: usage.lastUsedMs });
      usage.days = new Map();
      usage.lastUsedMs = 0;
    }
    return deltas;
  }

  /** Takes back deltas that could not be written, to go with the next flush. */
  restore(deltas: UsageDelta[]) {
    for (const delta of deltas) {
      let usage = this.keys.get(delta.keyId);
      if (!usage) {
        usage = { total: 0, days: new Map(), lastUsedMs: 0 };
        this.keys.set(delta.keyId, usage);
      }
      for (const [day, count] of delta.days) usage.days.set(day, (usage.days.get(day) ?? 0) + count);
      usage.lastUsedMs = Math.max(usage.lastUsedMs, delta.lastUsedMs);
    }
  }
}
