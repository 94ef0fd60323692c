import type { Task } from 'graphile-worker';
import { type DeliveryDeps, sendAndRecord } from '../../src/webhook-delivery/attempt';

/**
 * Queued by the outbox (src/events/outbox.ts) with the event id as job key. Creates the
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
      deliveries.map((delivery) => sendAndRecord(deps, delivery, lease)),
    );
    helpers.logger.debug(`event ${eventId}: ${deliveries.length} deliveries`);
    // A delivery whose outcome could not be recorded keeps its lease and the sweeper retakes it;
    // running this job again would only find the deliveries already made, so it is not failed.
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        helpers.logger.error(`event ${eventId}: an attempt could not be recorded (${outcome.reason})`);
    }
  };
