import type { Prisma, WebhookEndpoint } from '../../../prisma/generated/client/client';
import { planFeatures } from '../../access/plans';
import { refusal } from '../../access/principal';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, notFound, stateConflict } from '../../errors';
import { missingSubscriptionRights } from '../../events/read-rights';
import { assertWebhookUrl } from '../../outbound-http/url-policy';
import { loadPage, type PageArgs, pageWindow, resolvePage } from '../../resources/pagination/page';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { enqueueDeliveries, newId } from '../../webhook-delivery/queue';
import { generateWebhookSecret } from '../../webhook-delivery/secret';
import type { WebhookServices } from '../../webhook-delivery/services';
import { recordAudit } from '../audit/service';
import { endpointUpdateInput, MAX_ENDPOINTS_PER_STORE, newEndpointInput } from './input';

export const endpointSortFields = ['createdAt', 'updatedAt'] as const;
export type EndpointSortField = (typeof endpointSortFields)[number];

/** docs/design.md "Endpoints": webhook management needs a plan with `canAccessWebhooks` (also through a session). */
export function assertWebhookAccess(ctx: Context): string {
  const storeId = storeIdOf(ctx);
  if (ctx.principal && !planFeatures[ctx.principal.plan].canAccessWebhooks) {
    throw new AppError(
      'WEBHOOKS_NOT_AVAILABLE',
      `Webhooks are not included in the ${ctx.principal.plan} plan`,
    );
  }
  return storeId;
}

export function webhookServices(ctx: Context): WebhookServices {
  if (!ctx.webhooks) throw new Error('The request context carries no webhook services (src/runtime.ts)');
  return ctx.webhooks;
}

/** The URL policy (src/outbound-http/url-policy.ts) reports `url`; the input's field is `input.url`. */
async function checkUrl(ctx: Context, url: string): Promise<void> {
  try {
    await assertWebhookUrl(url, webhookServices(ctx).urlPolicy);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR') {
      const details = (error.details ?? [{ path: 'url', message: error.message }]).map((detail) => ({
        path: `input.${detail.path || 'url'}`,
        message: detail.message,
      }));
      throw new AppError('VALIDATION_ERROR', `input.url: ${details[0]?.message ?? error.message}`, details);
    }
    throw error;
  }
}

/**
 * An endpoint sends its events' data to a URL the caller chose, so subscribing (or pointing a
 * subscription at a new URL) needs the read right of every subscribed event's resource: else a key
 * with STORE_SETTINGS alone could have orders or customers sent to itself. 403 naming what lacks.
 */
function assertMayRoute(ctx: Context, events: readonly string[], doing: 'subscribe' | 'redirect'): void {
  const missing = missingSubscriptionRights(ctx.principal, events);
  if (missing.length === 0) return;
  const needs = missing.map(({ events, rights }) => `${events.join(', ')} needs ${rights.join(' and ')}`);
  const lead = doing === 'subscribe' ? 'Subscribing to' : 'Changing the URL of an endpoint subscribed to';
  const message = `${lead} ${needs.join('; ')}, which this API key lacks`;
  const rights = [...new Set(missing.flatMap((group) => group.rights))].join(', ');
  throw refusal(ctx.principal, rights, message);
}

export async function findEndpoint(
  ctx: Context,
  id: string,
  storeId: string,
  db: Tx | Context['prisma'] = ctx.prisma,
) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id, storeId } });
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

/**
 * Locks the endpoint's row for the rest of the transaction (activation changes wait for it) and
 * returns it as it is now.
 */
export async function lockEndpoint(tx: Tx, id: string, storeId: string) {
  const rows = await tx.$queryRaw<Array<Pick<WebhookEndpoint, 'id' | 'isActive' | 'disabledReason'>>>`
    SELECT id, "isActive", "disabledReason" FROM "WebhookEndpoint" WHERE id = ${id} AND "storeId" = ${storeId} FOR UPDATE`;
  const endpoint = rows[0];
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

/** 409 naming the endpoint's activity now (and why it is off, when it is). */
export function endpointStateConflict(
  endpoint: Pick<WebhookEndpoint, 'isActive' | 'disabledReason'>,
  message: string,
) {
  return stateConflict('WEBHOOK_ENDPOINT_STATE_CONFLICT', message, {
    isActive: endpoint.isActive,
    ...(endpoint.isActive ? {} : { disabledReason: endpoint.disabledReason }),
  });
}

export async function listEndpoints(ctx: Context, args: PageArgs<EndpointSortField>) {
  const where = { storeId: assertWebhookAccess(ctx) };
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.webhookEndpoint.findMany({ where, ...pageWindow(page) }),
    ctx.prisma.webhookEndpoint.count({ where }),
  );
}

export async function getEndpoint(ctx: Context, id: string) {
  return findEndpoint(ctx, id, assertWebhookAccess(ctx));
}

/**
 * At most 5 endpoints per store, also when creates race: the store row is locked first, so concurrent
 * creates of one store count one after another.
 */
export async function createEndpoint(
  ctx: Context,
  input: unknown,
): Promise<WebhookEndpoint & { secret: string }> {
  const storeId = assertWebhookAccess(ctx);
  const fields = parseInput(newEndpointInput, input, 'input');
  assertMayRoute(ctx, fields.events, 'subscribe');
  await checkUrl(ctx, fields.url);
  const secret = generateWebhookSecret();
  const id = newId('whe');
  const secretCiphertext = webhookServices(ctx).secrets.seal(secret, id);
  const endpoint = await writeStore(ctx, storeId, async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Store" WHERE id = ${storeId} FOR UPDATE`;
    const count = await tx.webhookEndpoint.count({ where: { storeId } });
    if (count >= MAX_ENDPOINTS_PER_STORE) {
      throw new AppError(
        'WEBHOOK_ENDPOINT_LIMIT_REACHED',
        `A store can have at most ${MAX_ENDPOINTS_PER_STORE} webhook endpoints`,
      );
    }
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        storeId,
        url: fields.url,
        events: fields.events,
        description: fields.description ?? null,
        metadata: fields.metadata ?? {},
        rateLimitPerSecond: fields.rateLimitPerSecond ?? null,
        secretCiphertext,
        createdAt: ctx.now(),
        updatedAt: ctx.now(),
      },
    });
    await recordAudit(tx, ctx, {
      action: 'webhook_endpoint.created',
      targetType: 'webhook_endpoint',
      targetId: id,
      details: { url: created.url, events: created.events },
    });
    return created;
  });
  return { ...endpoint, secret };
}

/**
 * Deactivating stops delivery (attempts due meanwhile wait); re-activating starts a new auto-disable
 * window and re-queues the deliveries that were waiting. Exhausted ones wait for a replay. Both are
 * one conditional statement (`WHERE "isActive" = <the other>`), so of concurrent requests one wins and
 * the others are 409 WEBHOOK_ENDPOINT_STATE_CONFLICT naming the endpoint's `isActive` now.
 */
export async function updateEndpoint(ctx: Context, id: string, input: unknown) {
  const storeId = assertWebhookAccess(ctx);
  const fields = parseInput(endpointUpdateInput, input, 'input');
  if (fields.events !== undefined) assertMayRoute(ctx, fields.events, 'subscribe');
  if (fields.url !== undefined) await checkUrl(ctx, fields.url);
  const now = ctx.now();
  const data: Prisma.WebhookEndpointUpdateManyMutationInput = {
    ...(fields.url !== undefined ? { url: fields.url } : {}),
    ...(fields.events !== undefined ? { events: fields.events } : {}),
    ...(fields.description !== undefined ? { description: fields.description } : {}),
    ...(fields.metadata !== undefined ? { metadata: fields.metadata ?? {} } : {}),
    ...(fields.rateLimitPerSecond !== undefined ? { rateLimitPerSecond: fields.rateLimitPerSecond } : {}),
    ...(fields.isActive === true
      ? { isActive: true, reactivatedAt: now, disabledAt: null, disabledReason: null }
      : fields.isActive === false
        ? { isActive: false, disabledAt: now, disabledReason: 'Deactivated by the store' }
        : {}),
    updatedAt: now,
  };
  return writeStore(ctx, storeId, async (tx) => {
    const mayRouteAll = missingSubscriptionRights(ctx.principal, ['*']).length === 0;
    if (fields.url !== undefined && fields.events === undefined && !mayRouteAll) {
      // The events the new URL will receive: the endpoint's, held still until this change commits.
      const [current] = await tx.$queryRaw<Array<Pick<WebhookEndpoint, 'events'>>>`
        SELECT events FROM "WebhookEndpoint" WHERE id = ${id} AND "storeId" = ${storeId} FOR UPDATE`;
      if (!current) throw notFound('Webhook endpoint');
      assertMayRoute(ctx, current.events, 'redirect');
    }
    const expected = fields.isActive === undefined ? {} : { isActive: !fields.isActive };
    const { count } = await tx.webhookEndpoint.updateMany({ where: { id, storeId, ...expected }, data });
    if (count === 0) {
      const current = await findEndpoint(ctx, id, storeId, tx);
      throw endpointStateConflict(
        current,
        `The webhook endpoint is already ${current.isActive ? 'active' : 'inactive'}`,
      );
    }
    if (fields.isActive === true) {
      // Waiting deliveries are due now; one an attempt still holds (a live lease) is left to it.
      const waiting = {
        endpointId: id,
        status: { in: ['pending', 'failed'] },
        OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lte: now } }],
      } satisfies Prisma.WebhookDeliveryWhereInput;
      const due = await tx.webhookDelivery.findMany({ where: waiting, select: { id: true } });
      await tx.webhookDelivery.updateMany({
        where: waiting,
        data: { nextRetryAt: now, leaseToken: null, leaseExpiresAt: null },
      });
      await enqueueDeliveries(
        tx,
        due.map((delivery) => delivery.id),
      );
    }
    await recordAudit(tx, ctx, {
      action: 'webhook_endpoint.updated',
      targetType: 'webhook_endpoint',
      targetId: id,
      details: { changed: Object.keys(fields) },
    });
    return tx.webhookEndpoint.findUniqueOrThrow({ where: { id } });
  });
}

/** One statement: of concurrent deletes one answers 204, the others find no endpoint (404). */
export async function deleteEndpoint(ctx: Context, id: string) {
  const storeId = assertWebhookAccess(ctx);
  return writeStore(ctx, storeId, async (tx) => {
    const { count } = await tx.webhookEndpoint.deleteMany({ where: { id, storeId } });
    if (count === 0) throw notFound('Webhook endpoint');
    await recordAudit(tx, ctx, {
      action: 'webhook_endpoint.deleted',
      targetType: 'webhook_endpoint',
      targetId: id,
    });
    return { id, deleted: true };
  });
}

/**
 * A new secret, returned this once; the old one signs nothing more from this moment. One statement:
 * concurrent rotations are written one after another, so only the last one's secret signs.
 */
export async function rotateEndpointSecret(ctx: Context, id: string) {
  const storeId = assertWebhookAccess(ctx);
  const secret = generateWebhookSecret();
  const endpoint = await writeStore(ctx, storeId, async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({
      where: { id, storeId },
      data: { secretCiphertext: webhookServices(ctx).secrets.seal(secret, id), updatedAt: ctx.now() },
    });
    if (count === 0) throw notFound('Webhook endpoint');
    await recordAudit(tx, ctx, {
      action: 'webhook_endpoint.secret_rotated',
      targetType: 'webhook_endpoint',
      targetId: id,
    });
    return tx.webhookEndpoint.findUniqueOrThrow({ where: { id } });
  });
  return { ...endpoint, secret };
}
