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
  options: { commandTimeoutMs?: number } = {},
): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
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
