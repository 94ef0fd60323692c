import { Cluster, Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The shared Redis: one server (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES). Both answer
 * the same commands, scripts and pub/sub, so the rest of the service takes either; the keys a script
 * touches together share one hash slot (./redis-keys.ts names them).
 */
export type RedisClient = Redis | Cluster;

/** Where the shared Redis is: a server's URL, or a cluster's seed nodes (host:port). */
export type RedisTarget = string | { clusterNodes: readonly string[] };

/**
 * The shared Redis connection. Commands fail fast while it is down (no offline queue), so a request
 * never waits on a dead Redis; callers fall back to per-process state. A command slower than
 * `commandTimeoutMs` (REDIS_TIMEOUT_MS, default 100) fails too. A cluster's client has the same
 * settings on each node's connection, and learns the slots from the seed nodes (any one is enough).
 */
export function connectRedis(
  target: string,
  logger: Logger,
  options?: { commandTimeoutMs?: number; connectTimeoutMs?: number },
): Redis;
export function connectRedis(
  target: RedisTarget,
  logger: Logger,
  options?: { commandTimeoutMs?: number; connectTimeoutMs?: number },
): RedisClient;
export function connectRedis(
  target: RedisTarget,
  logger: Logger,
  options: { commandTimeoutMs?: number; connectTimeoutMs?: number } = {},
): RedisClient {
  const settings = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 1000,
    commandTimeout: options.commandTimeoutMs ?? 100,
  };
  const reconnect = (attempt: number) => Math.min(attempt * 200, 2000);
  const redis: RedisClient =
    typeof target === 'string'
      ? new Redis(target, { lazyConnect: false, ...settings, retryStrategy: reconnect })
      : new Cluster(target.clusterNodes.map(clusterNode), {
          lazyConnect: false,
          enableOfflineQueue: false,
          clusterRetryStrategy: reconnect,
          slotsRefreshTimeout: settings.connectTimeout,
          redisOptions: settings,
        });
  let down = false;
  redis.on('error', (error) => {
    if (!down) logger.warn({ err: error }, 'redis unavailable; continuing with per-process limits');
    down = true;
  });
  redis.on('ready', () => {
    if (down) logger.info('redis reachable again');
    down = false;
  });
  return redis;
}

/**
 * A second connection for pub/sub (a subscriber takes no other commands): unlike the shared one it
 * waits for Redis rather than failing, and resubscribes after each reconnection. In a cluster, PUBLISH
 * reaches every node's subscribers, so the subscriber may sit on any node.
 */
export function subscriberOf(redis: RedisClient): RedisClient {
  const waiting = { enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined };
  if (redis instanceof Cluster)
    return redis.duplicate(undefined, {
      enableOfflineQueue: true,
      redisOptions: { ...redis.options.redisOptions, ...waiting },
    });
  return redis.duplicate(waiting);
}

/**
 * The connection's first connection: `settled` once it was first ready or its first attempt failed
 * (Redis is down: callers' per-process fallback takes over, as in any outage). Until then a request
 * is better off waiting for Redis, up to `timeoutMs`, than being counted in this process alone, which
 * Redis would never see.
 */
export function firstConnection(redis: RedisClient): {
  readonly settled: boolean;
  wait(timeoutMs: number): Promise<void>;
} {
  let settled = redis.status === 'ready';
  const done = settled
    ? Promise.resolve()
    : new Promise<void>((resolve) => {
        const settle = () => {
          settled = true;
          redis.off('ready', settle).off('error', settle).off('end', settle);
          resolve();
        };
        redis.once('ready', settle).once('error', settle).once('end', settle);
      });
  return {
    get settled() {
      return settled;
    },
    wait: (timeoutMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        void done.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}

/**
 * For commands sent once per request: call it before sending. The connection's socket then holds
 * its writes (cork) until the current turn of the event loop ends (setImmediate) and sends them
 * together, so the requests read in one turn reach Redis in one write instead of one write each
 * (it lowered a cached read's CPU in A/B, where an ioredis pipeline per turn cost more than the writes
 * it saved: bench/BASELINE.md, "Born with the app's prototypes"). Replies and errors stay
 * per command; a connection that is not ready (down, reconnecting) is left alone and ioredis fails
 * the command as usual. Kept over ioredis' public batching (enableAutoPipelining, a pipeline per turn),
 * which measured slower; `stream` is ioredis' own socket property, undocumented (@ignore) but typed.
 * A cluster's client has a socket per node and no `stream`: nothing is held there.
 */
export function writesPerTurn(redis: RedisClient): () => void {
  if (redis instanceof Cluster) return () => {};
  let held: Redis['stream'] | null = null;
  const release = () => {
    held?.uncork();
    held = null;
  };
  return () => {
    if (held) return;
    const stream = redis.stream;
    if (redis.status !== 'ready' || !stream?.writable) return;
    stream.cork();
    held = stream;
    setImmediate(release);
  };
}

/** Every key the service keeps in Redis starts with this (tests give each server a prefix of its own). */
export const REDIS_KEY_PREFIX = 'commerce:';

/** A REDIS_CLUSTER_NODES entry ("host:port") as ioredis takes it. */
function clusterNode(entry: string): { host: string; port: number } {
  const at = entry.lastIndexOf(':');
  return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
}
