import { defineScript, type ScriptCall } from '../ratelimit/redis-script';
import type { RedisClient } from '../redis';
import { shardKey, storeShard } from '../redis-keys';
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

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {
    this.claimScript = defineScript(redis, 'commerceClaimUsage', claimUsageLua);
    this.restoreScript = defineScript(redis, 'commerceRestoreUsage', restoreUsageLua, 2);
  }

  /**
   * The keys `record_usage` (usage.lua.ts) takes for this API key: its total, pending hash, and its
   * store shard's dirty set, all in the shard (src/redis-keys.ts).
   */
  keysOf(key: { id: string; storeId: string }): [total: string, pending: string, dirty: string] {
    const shard = storeShard(key.storeId);
    return [
      shardKey(this.prefix, shard, `total:${key.id}`),
      this.pendingKey(shard, key.id),
      this.dirtyKey(shard),
    ];
  }

  /** Ids of the keys of a shard with usage pending. */
  dirtyKeyIds(shard: number): Promise<string[]> {
    return this.redis.smembers(this.dirtyKey(shard));
  }

  /** Reads and clears the pending usage of these keys of a shard in one atomic step. */
  async claim(shard: number, keyIds: string[]): Promise<UsageDelta[]> {
    const replies = (await this.claimScript(
      keyIds.length + 1,
      this.dirtyKey(shard),
      ...keyIds.map((id) => this.pendingKey(shard, id)),
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

  /** Puts claimed usage of a shard back (its PostgreSQL write failed) so that the next flush takes it. */
  async restore(shard: number, deltas: UsageDelta[]): Promise<void> {
    for (const delta of deltas) {
      const fields = [...delta.days].flatMap(([day, count]) => [`d:${day}`, count]);
      await this.restoreScript(
        this.dirtyKey(shard),
        this.pendingKey(shard, delta.keyId),
        delta.keyId,
        'last',
        delta.lastUsedMs,
        ...fields,
      );
    }
  }

  private pendingKey(shard: number, keyId: string) {
    return shardKey(this.prefix, shard, `pending:${keyId}`);
  }

  private dirtyKey(shard: number) {
    return shardKey(this.prefix, shard, 'dirty');
  }
}
