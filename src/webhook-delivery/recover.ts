import { Prisma, type PrismaClient } from '../../prisma/generated/client/client';
import { requeueFresh } from './queue';

/** Deliveries gone through per transaction: a recover of 100,000 is 200 short transactions, not one. */
export const RECOVER_BATCH_SIZE = 500;

/**
 * The recover_webhook_deliveries job (README "Webhooks", Recover): the endpoint's failed and exhausted
 * deliveries created in [since, until) of the chosen types, in (createdAt, id) order, RECOVER_BATCH_SIZE
 * per transaction. Each batch re-queues its deliveries with one conditional statement — still failed
 * or exhausted, no live attempt — so a delivery a replay, a resend or another attempt took meanwhile is
 * left alone (row locks make the check exact under races), and queues one attempt each under the
 * delivery's job key (a failed delivery's waiting retry is moved to now, not doubled). The attempt
 * signs the same envelope (same delivery id, same event) anew. The batch, the progress and the cursor
 * commit together, so a retried job goes on where the last one stopped.
 */
export async function runRecovery(prisma: PrismaClient, recoveryId: string, now: () => Date): Promise<void> {
  const recovery = await prisma.webhookRecovery.findUnique({ where: { id: recoveryId } });
  if (!recovery || recovery.status === 'done' || recovery.status === 'failed') return;
  const window = {
    endpointId: recovery.endpointId,
    createdAt: { gte: recovery.since, lt: recovery.until },
    status: { in: ['failed', 'exhausted'] },
    ...(recovery.eventTypes.length > 0 ? { eventType: { in: recovery.eventTypes } } : {}),
  } satisfies Prisma.WebhookDeliveryWhereInput;
  if (recovery.total === null) {
    const total = await prisma.webhookDelivery.count({ where: window });
    await prisma.webhookRecovery.update({
      where: { id: recoveryId },
      data: { status: 'running', total, startedAt: now() },
    });
  }
  let cursor =
    recovery.cursorCreatedAt && recovery.cursorId
      ? { createdAt: recovery.cursorCreatedAt, id: recovery.cursorId }
      : null;
  for (;;) {
    const more = await prisma.$transaction(async (tx) => {
      const batch = await tx.webhookDelivery.findMany({
        where: {
          ...window,
          ...(cursor
            ? {
                OR: [
                  { createdAt: { gt: cursor.createdAt } },
                  { createdAt: cursor.createdAt, id: { gt: cursor.id } },
                ],
              }
            : {}),
        },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: RECOVER_BATCH_SIZE,
        select: { id: true, createdAt: true },
      });
      const last = batch.at(-1);
      if (!last) return false;
      const at = now();
      const requeued = await requeueFresh(
        tx,
        Prisma.sql`id = ANY(${batch.map((row) => row.id)}::text[]) AND status IN ('failed', 'exhausted')
            AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" <= ${at})`,
        at,
      );
      await tx.webhookRecovery.update({
        where: { id: recoveryId },
        data: {
          done: { increment: batch.length },
          queued: { increment: requeued.length },
          cursorCreatedAt: last.createdAt,
          cursorId: last.id,
        },
      });
      cursor = last;
      return batch.length === RECOVER_BATCH_SIZE;
    });
    if (!more) break;
  }
  // The total counted at the start, recounted to the deliveries gone through: one a replay or resend
  // took before its batch came is not the recovery's to count.
  const finished = await prisma.webhookRecovery.findUniqueOrThrow({ where: { id: recoveryId } });
  await prisma.webhookRecovery.update({
    where: { id: recoveryId },
    data: { status: 'done', total: finished.done, finishedAt: now() },
  });
}

/** The job's last attempt failed: the recovery says so (the deliveries re-queued so far stay queued). */
export async function failRecovery(prisma: PrismaClient, recoveryId: string, message: string, now: Date) {
  await prisma.webhookRecovery.updateMany({
    where: { id: recoveryId, status: { in: ['queued', 'running'] } },
    data: { status: 'failed', errorMessage: message.slice(0, 500), finishedAt: now },
  });
}
