import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../errors';

export interface DatabaseAvailability {
  /** Starts an outage (one warning) when `error` says PostgreSQL is unreachable; anything else is ignored. */
  report(error: unknown): void;
  /** Whether an outage is under way (the probe has not reached PostgreSQL since it began). */
  readonly unavailable: boolean;
  stop(): void;
}

/**
 * One warning when PostgreSQL becomes unreachable and one line when it answers again, never one per
 * request or job: a pooled connection lost (the server stopped or restarted) or any caller's report
 * starts an outage, and a probe every `probeMs` ends it.
 */
export function watchAvailability(pool: Pool, logger: Logger, probeMs = 1000): DatabaseAvailability {
  let since: number | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const probe = () => {
    pool.query('SELECT 1').then(
      () => {
        if (since === null) return;
        logger.info({ outageMs: Date.now() - since }, 'PostgreSQL reachable again');
        since = null;
      },
      () => {
        if (stopped) return;
        timer = setTimeout(probe, probeMs);
        timer.unref();
      },
    );
  };
  const report = (error: unknown) => {
    if (stopped || since !== null || !isDatabaseUnavailable(error)) return;
    since = Date.now();
    logger.warn(
      { err: error },
      'PostgreSQL unreachable: requests answer 503 SERVICE_UNAVAILABLE and jobs wait until it answers',
    );
    timer = setTimeout(probe, probeMs);
    timer.unref();
  };
  pool.on('connect', (client) => client.on('error', report));
  pool.on('error', report);
  return {
    report,
    get unavailable() {
      return since !== null;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Runs `statement` again while PostgreSQL is unreachable, for at most `forMs` in all; any other error,
 * or the last one, is thrown. Only for statements that are safe to repeat: one whose reply was lost
 * may have committed.
 */
export async function retryWhileUnavailable<T>(statement: () => Promise<T>, forMs: number): Promise<T> {
  const deadline = Date.now() + forMs;
  let delayMs = 250;
  for (;;) {
    try {
      return await statement();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + delayMs > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 2000);
    }
  }
}
