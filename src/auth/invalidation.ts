import type { Logger } from 'pino';
import { type RedisClient, subscriberOf } from '../redis';

export interface AuthTarget {
  keyId?: string;
  storeId?: string;
}

const CHANNEL = 'commerce:auth-invalidate';

/**
 * Tells every API process that a key or a store changed (revoke, rotate, update, delete, suspension,
 * plan change), so verified-key caches drop it at once. Without Redis only this process is told,
 * which is all there is.
 */
export class AuthInvalidation {
  private subscriber: RedisClient | null = null;

  constructor(
    private readonly redis: RedisClient | null,
    private readonly onInvalidate: (target: AuthTarget) => void,
    private readonly logger: Logger,
  ) {}

  /**
   * Listens for other processes' changes, (re)subscribing whenever the connection is ready. While it
   * is down, this process's cache entries still expire within their TTL.
   */
  async start(): Promise<void> {
    if (!this.redis) return;
    const subscriber = subscriberOf(this.redis);
    this.subscriber = subscriber;
    subscriber.on('error', () => {});
    subscriber.on('message', (_channel: string, message: string) => {
      try {
        this.onInvalidate(JSON.parse(message) as AuthTarget);
      } catch (error) {
        this.logger.warn({ err: error }, 'ignored a malformed auth invalidation message');
      }
    });
    const subscribe = () =>
      subscriber.subscribe(CHANNEL).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'could not subscribe to auth invalidations');
      });
    subscriber.on('ready', () => void subscribe());
    if (subscriber.status === 'ready') await subscribe();
    else
      await new Promise<void>((resolve) => {
        subscriber.once('ready', () => resolve());
        setTimeout(resolve, 1000).unref();
      });
  }

  /** Drops the target here at once and tells the other processes. */
  async publish(target: AuthTarget): Promise<void> {
    this.onInvalidate(target);
    if (!this.redis) return;
    try {
      await this.redis.publish(CHANNEL, JSON.stringify(target));
    } catch (error) {
      // Other processes' caches still expire within their TTL (a few seconds).
      this.logger.warn({ err: error, ...target }, 'could not publish an auth invalidation');
    }
  }

  async stop(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }
}
