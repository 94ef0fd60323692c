import type { Task } from 'graphile-worker';
import { attemptDelivery, type DeliveryDeps } from '../../src/webhook-delivery/attempt';

/** One attempt of one delivery; the job key is the delivery id. The next attempt, if any, is queued by the attempt itself. */
export const makeDeliverWebhook =
  (deps: DeliveryDeps): Task =>
  async (payload, helpers) => {
    const { deliveryId } = payload as { deliveryId: string };
    const outcome = await attemptDelivery(deps, deliveryId);
    helpers.logger.debug(`delivery ${deliveryId}: ${outcome}`);
  };
