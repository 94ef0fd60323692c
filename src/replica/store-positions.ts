import type { Logger } from 'pino';
import { defineScript, type ScriptCall } from '../ratelimit/redis-script';
import type { RedisClient } from '../redis';

/**
 * How long a store's last write position is kept: a read needs it only while the replica may not
 * have replayed it, and a replica further behind than REPLICA_MAX_LAG_MS is not read from at all.
 */
const POSITION_TTL_MS = 10 * 60_000;

/** Keeps the greater position only: two processes' writes may record out of order. */
const recordLua = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > current then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/**
 * The primary's WAL position after each store's last write, which a read of the store on the replica
 * must wait for (read-your-writes). In this process's memory always, and in Redis when there is one,
 * so every API process sees every process's writes. One key per store (one slot in a cluster).
 */
export class StorePositions {
  private readonly local = new Map<string, number>();
  private readonly record: ScriptCall | null;

  constructor(
    private readonly redis: RedisClient | null,
    private readonly options: { keyPrefix: string; logger: Logger },
  ) {
    this.record = redis ? defineScript(redis, 'commerceWalPosition', recordLua, 1) : null;
  }

  async written(storeId: string, position: number): Promise<void> {
    if (position > (this.local.get(storeId) ?? 0)) this.local.set(storeId, position);
    if (!this.record) return;
    await this.record(this.key(storeId), position, POSITION_TTL_MS).catch((error: unknown) =>
      this.options.logger.warn(
        { err: error, storeId },
        "redis unavailable: another API process may read this store's write from the replica before it has replayed it",
      ),
    );
  }

  /** The store's last write position; null when Redis did not answer (read on the primary then). */
  async of(storeId: string): Promise<number | null> {
    const local = this.local.get(storeId) ?? 0;
    if (!this.redis) return local;
    try {
      const shared = Number((await this.redis.get(this.key(storeId))) ?? 0);
      return Math.max(local, shared);
    } catch {
      return null;
    }
  }

  /** Drops what the replica has replayed (memory stays bounded by the stores written lately). */
  replayed(position: number): void {
    for (const [storeId, written] of this.local) if (written <= position) this.local.delete(storeId);
  }

  private key(storeId: string) {
    return `${this.options.keyPrefix}${storeId}`;
  }
}
