import type { Task } from 'graphile-worker';
import { type DeliveryDeps, sendAndRecord } from '../../src/modules/webhooks/attempt';

/**
 * Queued by the outbox (src/modules/events/outbox.ts) with the event id as job key. Creates the
 * event's deliveries (in one statement with other events' fan-outs while the worker is busy) and
 * makes their first attempts at once, side by side (one job per event rather than one more per
 * delivery); failures schedule their retries as `deliver_webhook` jobs.
 */
export const makeFanOutEvent =
  (deps: DeliveryDeps): Task =>
  async (payload, helpers) => {
    const { eventId } = payload as { eventId: string };
    const { lease, deliveries } = await deps.fanOut(eventId);
    const outcomes = await Promise.allSettled(
      deliveries.map((delivery) => sendAndRecord(deps, delivery, lease.token)),
    );
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    helpers.logger.debug(`event ${eventId}: ${deliveries.length} deliveries`);
    // A delivery whose outcome could not be recorded keeps its lease; the sweeper retakes it.
    if (failed.length > 0) throw (failed[0] as PromiseRejectedResult).reason;
  };
