import type { Task } from 'graphile-worker';
import type { PrismaClient } from '../../prisma/generated/client/client';
import { failRecovery, runRecovery } from '../../src/webhook-delivery/recover';

/** One recover of an endpoint (src/webhook-delivery/recover.ts); the payload is the recovery's id only. */
export const makeRecoverWebhookDeliveries =
  (deps: { prisma: PrismaClient; now: () => Date }): Task =>
  async (payload, helpers) => {
    const { recoveryId } = payload as { recoveryId: string };
    try {
      await runRecovery(deps.prisma, recoveryId, deps.now);
    } catch (error) {
      if (helpers.job.attempts >= helpers.job.max_attempts)
        await failRecovery(deps.prisma, recoveryId, (error as Error).message, deps.now());
      throw error;
    }
    helpers.logger.debug(`recovery ${recoveryId} done`);
  };
