import type { Logger } from 'pino';

/**
 * Calls to a Redis that may be down or hung. A call gets `timeoutMs` to answer; after a failure
 * Redis is skipped for `retryMs` (then one request probes it), so requests never queue behind a
 * dead server. One warning per outage and one line when it ends, never one per request.
 * The timing here is the process's real clock: it is about Redis's health, not a request's time.
 */
export class RedisGuard {
  private down = false;
  private retryAt = 0;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
    private readonly options: {
      timeoutMs: number;
      retryMs: number;
      /** What the caller does meanwhile, for the outage's warning. */
      fallback?: string;
    } = { timeoutMs: 100, retryMs: 1000 },
  ) {}

  /** The call's answer, or undefined when Redis is down, slow or failing (the caller falls back). */
  async attempt<T>(call: () => Promise<T>): Promise<T | undefined> {
    if (this.down) {
      const now = Date.now();
      if (now < this.retryAt) return undefined;
      this.retryAt = now + this.options.retryMs;
    }
    try {
      const value = await withTimeout(call(), this.options.timeoutMs);
      if (this.down) {
        this.down = false;
        this.logger.info(`${this.what}: redis answering again`);
      }
      return value;
    } catch (error) {
      if (!this.down) {
        this.down = true;
        this.logger.warn(
          { err: error },
          `${this.what}: redis unavailable; ${this.options.fallback ?? 'counting in this process until it answers'}`,
        );
      }
      this.retryAt = Date.now() + this.options.retryMs;
      return undefined;
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
