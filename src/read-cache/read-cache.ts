import type { Logger } from 'pino';
import { hasScope, type Principal } from '../auth/principal';
import type { ScopeAction, ScopeResource } from '../auth/scopes';
import type { DataVersions } from './data-version';
import { CachedReads } from './entries';

/** What to do with a cacheable read: answer with a remembered body, or run it (and remember it). */
export type ReadLookup =
  | { kind: 'hit'; body: string }
  | { kind: 'miss'; remember(body: string): void }
  | { kind: 'off' };

export interface ReadCache {
  /** False when nothing is cached: the doors then skip reading data versions. */
  readonly enabled: boolean;
  /**
   * Before a cacheable read (`key` names the door, operation and variables) by an authenticated
   * caller: a body remembered under `version`, the store's data version read during authentication
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
  /** After any mutation by the caller, whatever its outcome, and before its answer is sent. */
  afterMutation(principal: Principal | null): Promise<void>;
}

const off: ReadLookup = { kind: 'off' };

/** Nothing is cached (no Redis, or READ_CACHE_TTL_MS=0); mutations have nothing to invalidate. */
export const noReadCache: ReadCache = { enabled: false, lookup: () => off, afterMutation: async () => {} };

const holds = (principal: Principal, pair: string) => {
  const [resource, action] = pair.split(':') as [ScopeResource, ScopeAction];
  return hasScope(principal, resource, action);
};

/**
 * README "Read cache": answers of catalogue reads, remembered per process under the store's data
 * version in Redis. Every mutation replaces the version before it answers, so no caller ever reads
 * an answer older than a write that was acknowledged to anyone; without Redis nothing is cached.
 */
export function createReadCache(options: {
  versions: DataVersions | null;
  ttlMs: number;
  maxChars: number;
  logger: Logger;
}): ReadCache {
  const { versions } = options;
  if (!versions || options.ttlMs <= 0 || options.maxChars <= 0) {
    return noReadCache;
  }
  const reads = new CachedReads({ maxChars: options.maxChars, ttlMs: options.ttlMs });
  const logger = options.logger.child({ component: 'read-cache' });
  return {
    enabled: true,
    lookup(principal, version, key, scopes) {
      if (!principal || version === undefined || !scopes.every((pair) => holds(principal, pair))) return off;
      const { storeId } = principal;
      const storeKey = `${storeId} ${key}`;
      const entry = reads.get(storeKey, Date.now());
      if (entry?.version === version) return { kind: 'hit', body: entry.body };
      return {
        kind: 'miss',
        remember: (body) => reads.set(storeKey, { storeId, version, body }, Date.now()),
      };
    },
    async afterMutation(principal) {
      if (!principal) return;
      if (await versions.bump(principal.storeId)) return;
      reads.forgetStore(principal.storeId);
      logger.warn(
        { storeId: principal.storeId },
        `read cache: the store's data version could not be replaced; other API processes may answer from their cache for up to ${options.ttlMs} ms`,
      );
    },
  };
}
