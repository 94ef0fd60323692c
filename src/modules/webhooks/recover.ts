import { z } from 'zod';
import type { Context } from '../../context';
import { notFound, stateConflict, validationError } from '../../errors';
import { eventTypes } from '../../events/catalog';
import { loadPage, type PageArgs, pageWindow, resolvePage } from '../../resources/pagination/page';
import { writeStore } from '../../resources/store-writes';
import { taskName } from '../../task-catalog';
import { parseInput } from '../../validation';
import { recordAudit } from '../audit/service';
import { assertWebhookAccess, endpointStateConflict, findEndpoint, lockEndpoint } from './service';

/** How far back a recover may reach (Svix's bound too). */
export const RECOVER_MAX_DAYS = 30;
const DAY_MS = 86_400_000;

const known = new Set<string>(eventTypes);

export const recoverInput = z
  .object({
    since: z
      .date({ error: 'must be a date-time' })
      .describe(
        `Re-send the failed and exhausted deliveries created at or after this moment (at most ${RECOVER_MAX_DAYS} days back, not in the future)`,
      ),
    until: z
      .date({ error: 'must be a date-time' })
      .describe('… and created before this moment (after `since`); default: now')
      .nullish(),
    eventTypes: z
      .array(z.string())
      .max(50, 'at most 50 event types')
      .superRefine((types, ctx) => {
        types.forEach((type, index) => {
          if (!known.has(type))
            ctx.addIssue({ code: 'custom', path: [index], message: `unknown event type "${type}"` });
        });
      })
      .transform((types) => [...new Set(types)])
      .describe('Only deliveries of these event types; default (or empty): every type')
      .nullish(),
  })
  .strict();

/** The window against the clock: `since` within RECOVER_MAX_DAYS and not ahead, `until` after `since`. */
function checkWindow(since: Date, until: Date | null | undefined, now: Date): void {
  const problems: Array<{ path: string; message: string }> = [];
  if (since.getTime() > now.getTime())
    problems.push({ path: 'input.since', message: 'must not be in the future' });
  else if (since.getTime() < now.getTime() - RECOVER_MAX_DAYS * DAY_MS)
    problems.push({ path: 'input.since', message: `must be at most ${RECOVER_MAX_DAYS} days back` });
  if (until && until.getTime() <= since.getTime())
    problems.push({ path: 'input.until', message: 'must be after since' });
  if (problems.length > 0) throw validationError(problems);
}

/**
 * README "Webhooks", Recover: queues one recover_webhook_deliveries job for the endpoint's failed and
 * exhausted deliveries in the window, in the transaction that writes its record. Under the endpoint's
 * row lock, so of two recovers asked at once the second sees the first: one recovery queued or
 * running per endpoint, else 409 WEBHOOK_RECOVERY_IN_PROGRESS naming it. The endpoint must be active,
 * as for a replay.
 */
export async function recoverEndpoint(ctx: Context, endpointId: string, input: unknown) {
  const storeId = assertWebhookAccess(ctx);
  const fields = parseInput(recoverInput, input, 'input');
  const now = ctx.now();
  checkWindow(fields.since, fields.until, now);
  return writeStore(ctx, storeId, async (tx) => {
    const endpoint = await lockEndpoint(tx, endpointId, storeId);
    if (!endpoint.isActive)
      throw endpointStateConflict(
        endpoint,
        'The endpoint is inactive: activate it (isActive: true) before recovering',
      );
    const running = await tx.webhookRecovery.findFirst({
      where: { endpointId, status: { in: ['queued', 'running'] } },
      select: { id: true, status: true },
    });
    if (running) {
      throw stateConflict(
        'WEBHOOK_RECOVERY_IN_PROGRESS',
        `Recovery ${running.id} of this endpoint is ${running.status}: wait until it is done`,
        { recoveryId: running.id, status: running.status },
      );
    }
    const recovery = await tx.webhookRecovery.create({
      data: {
        storeId,
        endpointId,
        since: fields.since,
        until: fields.until ?? now,
        eventTypes: fields.eventTypes ?? [],
        createdAt: now,
      },
    });
    await tx.$executeRaw`SELECT graphile_worker.add_job(${taskName.recover_webhook_deliveries}, json_build_object('recoveryId', ${recovery.id}::text), job_key := ${recovery.id}, max_attempts := 5)`;
    await recordAudit(tx, ctx, {
      action: 'webhook_endpoint.recover_queued',
      targetType: 'webhook_endpoint',
      targetId: endpointId,
      details: {
        recoveryId: recovery.id,
        since: fields.since.toISOString(),
        eventTypes: recovery.eventTypes,
      },
    });
    return recovery;
  });
}

export async function getRecovery(ctx: Context, id: string) {
  const storeId = assertWebhookAccess(ctx);
  const recovery = await ctx.prisma.webhookRecovery.findFirst({ where: { id, storeId } });
  if (!recovery) throw notFound('Webhook recovery');
  return recovery;
}

/** The endpoint's recoveries, newest first. */
export async function listRecoveries(ctx: Context, endpointId: string, args: PageArgs<'createdAt'>) {
  const storeId = assertWebhookAccess(ctx);
  await findEndpoint(ctx, endpointId, storeId);
  const where = { endpointId, storeId };
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.webhookRecovery.findMany({ where, ...pageWindow(page) }),
    ctx.prisma.webhookRecovery.count({ where }),
  );
}
