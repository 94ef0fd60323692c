import type { Logger } from 'pino';
import { holdsPair, type Principal } from '../access/principal';
import type { CachedResult } from './answer';
import type { DataVersions } from './data-version';
import { CachedReads } from './entries';

/** What to do with a cacheable read: answer with a remembered answer, or run it (and remember it). */
export type ReadLookup =
  | { kind: 'hit'; answer: CachedResult }
  | { kind: 'miss'; remember(answer: CachedResult): void }
  | { kind: 'off' };

export interface ReadCache {
  /** False when this process caches nothing (it still replaces versions after writes). */
  readonly enabled: boolean;
  /**
   * Before a cacheable read (`key` names the door, operation and variables) by an authenticated
   * caller: an answer remembered under `version`, the store's data version read during authentication
   * (undefined when Redis could not say: nothing is cached), if the caller holds every pair in
   * `scopes` (the operation's root fields'). A caller lacking one runs the operation, which refuses
   * it exactly as it would uncached.
   */
  lookup(
    principal: Principal | null,
    version: string | undefined,
    key: string,
    scopes: readonly string[],
  ): ReadLookup;
  /**
   * What a cacheable read's ETag (src/read-cache/etag.ts) rests on when a remembered answer could be
   * trusted — the same conditions as `lookup`'s — else undefined (no tag, nothing answered 304): the
   * store, its data version, and the read cache's window at `nowMs`, so that data changed behind the
   * API's back stops being vouched for within READ_CACHE_TTL_MS, as remembered answers do.
   */
  tagBasis(
    principal: Principal | null,
    version: string | undefined,
    scopes: readonly string[],
    nowMs: number,
  ): string | undefined;
  /** The store's data version now, for a caller whose authentication did not read it; undefined when Redis cannot say. */
  version(storeId: string): Promise<string | undefined>;
  /**
   * After a write of the store committed, before anyone is told it succeeded: replaces the store's
   * data version (src/resources/store-writes.ts calls it for every store write, whatever made it).
   */
  storeChanged(storeId: string): Promise<void>;
}

const off: ReadLookup = { kind: 'off' };

/** Without Redis: nothing is cached anywhere, so mutations have nothing to invalidate. */
export const noReadCache: ReadCache = {
  enabled: false,
  lookup: () => off,
  tagBasis: () => undefined,
  version: async () => undefined,
  storeChanged: async () => {},
};

/**
 * README "Read cache": results of catalogue reads, remembered per process under the store's data
 * version in Redis. Every write of the store replaces the version once it commits and before it is
 * acknowledged, so no caller ever reads an answer older than a write that was acknowledged to
 * anyone; without Redis nothing is cached.
 */
export function createReadCache(options: {
  versions: DataVersions | null;
  ttlMs: number;
  maxBytes: number;
  logger: Logger;
}): ReadCache {
  const { versions, ttlMs } = options;
  if (!versions) return noReadCache;
  const logger = options.logger.child({ component: 'read-cache' });
  const enabled = ttlMs > 0 && options.maxBytes > 0;
  const reads = new CachedReads({ maxBytes: options.maxBytes, ttlMs });
  /**
   * Stores whose version could not be replaced after a mutation, in the order their distrust ends:
   * this process neither answers from nor remembers their reads until then.
   */
  const distrusted = new Map<string, number>();
  /** Failed replacements so far: a read that saw one happen while it ran remembers nothing. */
  let failures = 0;
  const trusts = (storeId: string, nowMs: number) => {
    for (const [store, until] of distrusted) {
      if (until > nowMs) break;
      distrusted.delete(store);
    }
    return !distrusted.has(storeId);
  };
  return {
    enabled,
    lookup(principal, version, key, scopes) {
      if (!enabled || !principal || version === undefined) return off;
      if (!scopes.every((pair) => holdsPair(principal, pair))) return off;
      const { storeId } = principal;
      if (!trusts(storeId, Date.now())) return off;
      const storeKey = `${storeId} ${key}`;
      const entry = reads.get(storeKey, Date.now());
      if (entry?.version === version) return { kind: 'hit', answer: entry.answer };
      const failuresAtLookup = failures;
      return {
        kind: 'miss',
        remember: (answer) => {
          const now = Date.now();
          if (failures === failuresAtLookup && trusts(storeId, now))
            reads.set(storeKey, { storeId, version, answer }, now);
        },
      };
    },
    tagBasis(principal, version, scopes, nowMs) {
      if (!enabled || !principal || version === undefined) return undefined;
      if (!scopes.every((pair) => holdsPair(principal, pair))) return undefined;
      if (!trusts(principal.storeId, Date.now())) return undefined;
      return `${principal.storeId}\n${version}\n${Math.floor(nowMs / ttlMs)}`;
    },
    version: (storeId) => versions.current(storeId),
    // Also with the cache off here (READ_CACHE_TTL_MS=0): other processes may be caching.
    async storeChanged(storeId) {
      if (await versions.bump(storeId)) return;
      if (!enabled) return;
      failures++;
      distrusted.delete(storeId);
      distrusted.set(storeId, Date.now() + ttlMs);
      reads.forgetStore(storeId);
      logger.warn(
        { storeId },
        "read cache: the store's data version could not be replaced; other API processes may answer from their cache for up to READ_CACHE_TTL_MS",
      );
    },
  };
}
