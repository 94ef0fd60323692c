import type { Task } from 'graphile-worker';
import type { Pool } from 'pg';
import { fanOutEvent } from '../../src/modules/webhooks/fan-out';

/** Queued by the outbox (src/modules/events/outbox.ts) with the event id as job key. */
export const makeFanOutEvent =
  (deps: { pool: Pool; now: () => Date }): Task =>
  async (payload, helpers) => {
    const { eventId } = payload as { eventId: string };
    const created = await fanOutEvent(deps.pool, eventId, deps.now());
    helpers.logger.debug(`event ${eventId}: ${created} deliveries`);
  };
