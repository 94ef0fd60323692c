import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { MemorySlidingWindow } from '../ratelimit/memory-window';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript } from '../ratelimit/redis-script';
import { endpointRateLua } from './rate.lua';

const WINDOW_MS = 1000;

/** The answer of an endpoint's rate to one attempt about to start. */
export type RateAdmission =
  | {
      admitted: true;
      /** When it was admitted (ms, fractional: Redis's clock in µs, or this process's). */
      atMs: number;
      /** Where it was counted: shared by every worker, or this process alone (no Redis, or Redis down). */
      counted: 'redis' | 'process';
    }
  | { admitted: false; waitMs: number };

/**
 * docs/design.md "Endpoint rate": at most `perSecond` attempts of an endpoint start in any 1-second
 * window, across every worker process. A delivery refused here waits: it is neither failed nor
 * counted as an attempt (attempt.ts re-queues it for when the window has room).
 */
export interface DeliveryRateGate {
  admit(endpointId: string, perSecond: number): Promise<RateAdmission>;
}

let sequence = 0;
const processTag = randomBytes(6).toString('hex');

/**
 * The gate over the shared Redis (one atomic script per attempt, rate.lua.ts). Without Redis, or
 * while it does not answer within `timeoutMs`, each worker process holds the rate in its own memory:
 * a store's receiver may then get up to the rate times the number of worker processes (a warning is
 * logged once per outage, or once when there is no Redis at all). The workers run anyway: stopping
 * every delivery because Redis is away would hurt more than a receiver briefly above its rate.
 */
export function createDeliveryRateGate(options: {
  redis: Redis | null;
  logger: Logger;
  /** Prefix of the endpoints' window keys. */
  keyPrefix: string;
  timeoutMs?: number;
}): DeliveryRateGate {
  const logger = options.logger.child({ component: 'webhook-rate' });
  const script = options.redis
    ? defineScript(options.redis, 'commerceWebhookRate', endpointRateLua, 1)
    : null;
  const guard = new RedisGuard(logger, 'webhook endpoint rate', {
    timeoutMs: options.timeoutMs ?? 100,
    retryMs: 1000,
    fallback: 'each worker process holds endpoint rates alone until it answers',
  });
  const windows = new Map<number, MemorySlidingWindow>();
  let warnedNoRedis = false;

  const inProcess = (endpointId: string, perSecond: number): RateAdmission => {
    if (!script && !warnedNoRedis) {
      warnedNoRedis = true;
      logger.warn(
        'no REDIS_URL: endpoint rates are held per worker process (several workers may exceed them)',
      );
    }
    let window = windows.get(perSecond);
    if (!window) {
      window = new MemorySlidingWindow({ max: perSecond, windowMs: WINDOW_MS });
      windows.set(perSecond, window);
    }
    const now = Date.now();
    const result = window.hit(endpointId, now);
    if (result.allowed) return { admitted: true, atMs: now, counted: 'process' };
    return { admitted: false, waitMs: Math.max(1, (result.oldestMs ?? now) + WINDOW_MS - now) };
  };

  return {
    async admit(endpointId, perSecond) {
      if (script) {
        const member = `${processTag}:${(sequence++).toString(36)}`;
        const reply = (await guard.attempt(() =>
          script(`${options.keyPrefix}${endpointId}`, perSecond, WINDOW_MS * 1000, member),
        )) as [number, number, number?] | undefined;
        if (reply) {
          const [admitted, nowMicros, waitMicros] = reply;
          if (admitted === 1) return { admitted: true, atMs: nowMicros / 1000, counted: 'redis' };
          return { admitted: false, waitMs: Math.max(1, Math.ceil((waitMicros ?? 0) / 1000)) };
        }
      }
      return inProcess(endpointId, perSecond);
    },
  };
}
