import { randomUUID } from 'node:crypto';
import type { Task } from 'graphile-worker';
import { type DeliveryDeps, sendAndRecord } from '../../src/modules/webhooks/attempt';
import { fanOutEvent } from '../../src/modules/webhooks/fan-out';

/**
 * Queued by the outbox (src/modules/events/outbox.ts) with the event id as job key. Creates the
 * event's deliveries and makes their first attempts at once, side by side (one job per event rather
 * than one more per delivery); failures schedule their retries as `deliver_webhook` jobs.
 */
export const makeFanOutEvent =
  (deps: DeliveryDeps): Task =>
  async (payload, helpers) => {
    const { eventId } = payload as { eventId: string };
    const now = deps.now();
    const token = randomUUID();
    const deliveries = await fanOutEvent(deps.pool, eventId, now, {
      token,
      until: new Date(now.getTime() + deps.leaseSeconds * 1000),
    });
    const outcomes = await Promise.allSettled(
      deliveries.map((delivery) => sendAndRecord(deps, delivery, token)),
    );
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    helpers.logger.debug(`event ${eventId}: ${deliveries.length} deliveries`);
    // A delivery whose outcome could not be recorded keeps its lease; the sweeper retakes it.
    if (failed.length > 0) throw (failed[0] as PromiseRejectedResult).reason;
  };
