/**
 * Where a store's keys live in Redis. A Redis Cluster runs a script only when all its KEYS hash to one
 * slot, and a key's slot is the hash of its first `{…}` (the hash tag) when it has one. Admission runs
 * the window, usage, data version and cost budget of one request in one script, and usage is flushed
 * from a set of dirty keys, so every key a script takes together is named here, with the hash tag of
 * the store's shard: one of STORE_SHARDS buckets of stores. Shards (not one tag per store) keep the
 * dirty sets few enough for the flush to visit every one (README "Redis Cluster").
 *
 * A key is `<prefix>{s<shard>}<rest>`: the prefix (a deployment's or a test's, never with a `{`)
 * first, so one prefix still holds every key of a deployment. On one Redis server the tag is only
 * part of the name. Keys that a script takes alone (the webhook rate, sign-in throttles) need no tag.
 */

/** How many shards the stores are spread over: each is one slot, so each lives on one node. */
export const STORE_SHARDS = 1024;

/** The store's shard: FNV-1a of its id (a few lines, no dependency), modulo STORE_SHARDS. */
export function storeShard(storeId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < storeId.length; i++) {
    hash ^= storeId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % STORE_SHARDS;
}

/** A key in a shard: `<prefix>{s<shard>}<rest>`. */
export function shardKey(prefix: string, shard: number, rest: string): string {
  return `${prefix}{s${shard}}${rest}`;
}

/** A key of one store's, in the store's shard. */
export function storeKey(prefix: string, storeId: string, rest: string): string {
  return shardKey(prefix, storeShard(storeId), rest);
}
