import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { RedisGuard } from '../ratelimit/redis-guard';
import { defineScript } from '../ratelimit/redis-script';
import type { RedisClient } from '../redis';
import { firstConnection } from '../redis';
import { endpointRateAdmitLua, endpointRateFinishLua } from './rate.lua';
import { ProcessRateWindows } from './rate-memory';

const WINDOW_MS = 1000;

/** The answer of an endpoint's rate to one attempt about to start. */
export type RateAdmission =
  | {
      admitted: true;
      /** When it was admitted (ms, fractional: Redis's clock in µs, or this process's). */
      atMs: number;
      /** Where it was counted: shared by every worker, or this process alone (no Redis, or Redis down). */
      counted: 'redis' | 'process';
      /** Call once the attempt's response (or failure) is in: its slot then counts one window from now. */
      finish(): Promise<void>;
    }
  | { admitted: false; waitMs: number };

/**
 * docs/design.md "Endpoint rate": no request of an endpoint reaches its receiver within 1 s of
 * `perSecond` others, across every worker process. An attempt holds a slot from its start until 1 s
 * after its response, so the delays between our start and the receiver's arrival (a new TLS
 * connection, a busy worker) cannot squeeze more than `perSecond` arrivals into a second. A delivery
 * refused here waits: it is neither failed nor counted as an attempt (rate-wait.ts re-queues it).
 */
export interface DeliveryRateGate {
  /** `holdMs`: how long an attempt may take at most (its deadline); a dead worker's slot frees after it. */
  admit(endpointId: string, perSecond: number, holdMs: number): Promise<RateAdmission>;
}

let sequence = 0;
const processTag = randomBytes(6).toString('hex');

/**
 * The gate over the shared Redis (two atomic scripts per attempt, rate.lua.ts). While Redis does not
 * answer within `timeoutMs`, an endpoint with a rate gets nothing: its deliveries wait (a second at a
 * time, not failed, no attempt used) until Redis answers again, with one warning per outage, because
 * counting in each process alone would let N worker processes send N times the rate, and the rate is
 * a promise to a receiver. Endpoints without a rate never ask the gate. Without Redis configured at
 * all (one worker process, development), the process holds the rate in its own memory, with a warning.
 */
export function createDeliveryRateGate(options: {
  redis: RedisClient | null;
  logger: Logger;
  /** Prefix of the endpoints' window keys. */
  keyPrefix: string;
  timeoutMs?: number;
}): DeliveryRateGate {
  const logger = options.logger.child({ component: 'webhook-rate' });
  const { redis } = options;
  const admitScript = redis ? defineScript(redis, 'commerceWebhookRateAdmit', endpointRateAdmitLua, 2) : null;
  const finishScript = redis
    ? defineScript(redis, 'commerceWebhookRateFinish', endpointRateFinishLua, 1)
    : null;
  const guard = new RedisGuard(logger, 'webhook endpoint rate', {
    timeoutMs: options.timeoutMs ?? 1000,
    retryMs: 1000,
    fallback: 'deliveries to endpoints with a rate wait until it answers',
  });
  const memory = new ProcessRateWindows(WINDOW_MS);
  // An attempt made as the worker starts waits for Redis's first connection (as the API's admission
  // does, up to 2 s) rather than being counted in this process alone, which Redis would never see.
  const connecting = redis ? firstConnection(redis) : null;
  let warnedNoRedis = false;

  const inProcess = (
    endpointId: string,
    perSecond: number,
    member: string,
    holdMs: number,
  ): RateAdmission => {
    if (!admitScript && !warnedNoRedis) {
      warnedNoRedis = true;
      logger.warn(
        'no REDIS_URL: endpoint rates are held per worker process (several workers may exceed them)',
      );
    }
    const now = Date.now();
    const answer = memory.admit(endpointId, perSecond, member, holdMs, now);
    if (!answer.admitted) return answer;
    const finish = async () => memory.finish(endpointId, member, Date.now());
    return { admitted: true, atMs: now, counted: 'process', finish };
  };

  return {
    async admit(endpointId, perSecond, holdMs) {
      const member = `${processTag}:${(sequence++).toString(36)}`;
      const key = `${options.keyPrefix}${endpointId}`;
      if (admitScript && finishScript) {
        if (connecting && !connecting.settled) await connecting.wait(2000);
        const reply = (await guard.attempt(() =>
          admitScript(key, `${key}:next`, perSecond, WINDOW_MS * 1000, member, holdMs * 1000),
        )) as [number, number, number?] | undefined;
        if (reply) {
          const [admitted, nowMicros, waitMicros] = reply;
          if (admitted !== 1)
            return { admitted: false, waitMs: Math.max(1, Math.ceil((waitMicros ?? 0) / 1000)) };
          // Should Redis not answer now, the slot frees at its deadline instead: later, never sooner.
          const finish = async () => {
            await guard.attempt(() => finishScript(key, member, WINDOW_MS * 1000));
          };
          return { admitted: true, atMs: nowMicros / 1000, counted: 'redis', finish };
        }
        // Redis did not answer: wait rather than count alone (a slot it may still have taken frees at its deadline).
        return { admitted: false, waitMs: WINDOW_MS };
      }
      return inProcess(endpointId, perSecond, member, holdMs);
    },
  };
}
