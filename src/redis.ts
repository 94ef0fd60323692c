import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * The shared Redis connection. Commands fail fast while it is down (no offline queue), so a request
 * never waits on a dead Redis; callers fall back to per-process state. A command slower than
 * `commandTimeoutMs` (REDIS_TIMEOUT_MS, default 100) fails too.
 */
export function connectRedis(
  url: string,
  logger: Logger,
  options: { commandTimeoutMs?: number; connectTimeoutMs?: number } = {},
): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 1000,
    commandTimeout: options.commandTimeoutMs ?? 100,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
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
 * The connection's first connection: `settled` once it was first ready or its first attempt failed
 * (Redis is down: callers' per-process fallback takes over, as in any outage). Until then a request
 * is better off waiting for Redis, up to `timeoutMs`, than being counted in this process alone, which
 * Redis would never see.
 */
export function firstConnection(redis: Redis): {
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
 */
export function writesPerTurn(redis: Redis): () => void {
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
