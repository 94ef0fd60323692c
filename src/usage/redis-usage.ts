import type { Redis } from 'ioredis';
import { defineScript, type ScriptCall } from '../ratelimit/redis-script';
import type { UsageDelta } from './pending';
import { claimUsageLua, restoreUsageLua } from './usage.lua';

/** A running total is kept this long after the key's last request, then re-seeded from PostgreSQL. */
export const TOTAL_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Usage counted in Redis, exact across every API process (scripts in usage.lua.ts). Requests are
 * counted by the admission script (src/admission); this side names the keys and flushes them.
 */
export class RedisUsageCounter {
  private readonly claimScript: ScriptCall;
  private readonly restoreScript: ScriptCall;
  private readonly dirtyKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.claimScript = defineScript(redis, 'commerceClaimUsage', claimUsageLua);
    this.restoreScript = defineScript(redis, 'commerceRestoreUsage', restoreUsageLua, 2);
    this.dirtyKey = `${prefix}dirty`;
  }

  /** The keys `record_usage` (usage.lua.ts) takes for this API key: its total, pending hash, dirty set. */
  keysOf(keyId: string): [total: string, pending: string, dirty: string] {
    return [`${this.prefix}total:${keyId}`, this.pendingKey(keyId), this.dirtyKey];
  }

  /** Ids of the keys with usage pending. */
  dirtyKeyIds(): Promise<string[]> {
    return this.redis.smembers(this.dirtyKey);
  }

  /** Reads and clears the pending usage of these keys in one atomic step. */
  async claim(keyIds: string[]): Promise<UsageDelta[]> {
    const replies = (await this.claimScript(
      keyIds.length + 1,
      this.dirtyKey,
      ...keyIds.map((id) => this.pendingKey(id)),
      ...keyIds,
    )) as string[][];
    const deltas: UsageDelta[] = [];
    for (const [index, fields] of replies.entries()) {
      const delta: UsageDelta = { keyId: keyIds[index]!, days: new Map(), lastUsedMs: 0 };
      for (let i = 0; i + 1 < fields.length; i += 2) {
        const [field, value] = [fields[i]!, Number(fields[i + 1])];
        if (field === 'last') delta.lastUsedMs = value;
        else if (field.startsWith('d:')) delta.days.set(field.slice(2), value);
      }
      if (delta.days.size > 0) deltas.push(delta);
    }
    return deltas;
  }

  /** Puts claimed usage back (its PostgreSQL write failed) so that the next flush takes it. */
  async restore(deltas: UsageDelta[]): Promise<void> {
    for (const delta of deltas) {
      const fields = [...delta.days].flatMap(([day, count]) => [`d:${day}`, count]);
      await this.restoreScript(
        this.dirtyKey,
        this.pendingKey(delta.keyId),
        delta.keyId,
        'last',
        delta.lastUsedMs,
        ...fields,
      );
    }
  }

  private pendingKey(keyId: string) {
    return `${this.prefix}pending:${keyId}`;
  }
}
