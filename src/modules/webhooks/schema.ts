import type { ArgBuilder } from '@pothos/core';
import type { WebhookEndpoint } from '../../../prisma/generated/client/client';
import { builder, type Types } from '../../builder';
import { listSize, requireScope, resourceFragment, shownOnce } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { lookup } from '../../resources/lookup';
import { NodeRef } from '../../resources/node/interface';
import { registerNode } from '../../resources/node/registry';
import { pageArgs, pageType } from '../../resources/pagination/schema';
import {
  CONSECUTIVE_FAILURES_CAP,
  consecutiveFailures,
  deliverySortFields,
  getDelivery,
  listDeliveries,
  replayExhausted,
  testEndpoint,
  visiblePayload,
} from './deliveries';
import { endpointUpdateInput, MAX_ENDPOINTS_PER_STORE, newEndpointInput } from './input';
import './event-types';
import './recovery-schema';
import { resendDelivery } from './resend';
import {
  createEndpoint,
  deleteEndpoint,
  endpointSortFields,
  getEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from './service';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

const DeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  values: ['pending', 'success', 'failed', 'exhausted'] as const,
});
const EndpointSortEnum = builder.enumType('WebhookEndpointSortField', { values: endpointSortFields });
const DeliverySortEnum = builder.enumType('WebhookDeliverySortField', { values: deliverySortFields });

/** The endpoint as every response shows it; the secret only in the create and rotate-secret responses. */
function endpointFields<Shape extends WebhookEndpoint>(
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Shape>,
) {
  return {
    id: t.id({ resolve: (e) => e.id }),
    url: t.string({ resolve: (e) => e.url }),
    events: t.stringList({ resolve: (e) => e.events }),
    description: t.string({ nullable: true, resolve: (e) => e.description }),
    metadata: t.field({
      type: 'JSON',
      description: 'String-to-string pairs',
      resolve: (e) => e.metadata ?? {},
    }),
    isActive: t.boolean({ resolve: (e) => e.isActive }),
    rateLimitPerSecond: t.int({
      nullable: true,
      description:
        'At most this many deliveries reach the endpoint in any 1-second window; the others wait without using an attempt. null: unlimited',
      resolve: (e) => e.rateLimitPerSecond,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (e) => e.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (e) => e.updatedAt }),
    disabledAt: t.field({ type: 'DateTime', nullable: true, resolve: (e) => e.disabledAt }),
    disabledReason: t.string({ nullable: true, resolve: (e) => e.disabledReason }),
    consecutiveFailures: t.int({
      description: `Newest deliveries, back to the last successful one, whose last attempt failed (counted up to ${CONSECUTIVE_FAILURES_CAP})`,
      resolve: (e, _args, ctx) => consecutiveFailures(ctx, e.id),
    }),
  };
}

const EndpointRef = builder.objectRef<WebhookEndpoint>('WebhookEndpoint').implement({
  extensions: resourceFragment({ omit: ['consecutiveFailures'] }),
  interfaces: [NodeRef],
  fields: (t) => endpointFields(t),
});

const IssuedEndpointRef = builder
  .objectRef<WebhookEndpoint & { secret: string }>('IssuedWebhookEndpoint')
  .implement({
    description:
      'An endpoint with its signing secret: returned by create and rotate-secret only, never again',
    fields: (t) => ({ ...endpointFields(t), secret: t.exposeString('secret', { extensions: shownOnce }) }),
  });

builder.prismaObject('WebhookAttempt', {
  description: 'One HTTP attempt of a delivery',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number', { description: 'Counts on across replays' }),
    status: t.field({ type: DeliveryStatusEnum, resolve: (a) => a.status }),
    httpStatus: t.exposeInt('httpStatus', { description: '0: no HTTP response (network error, timeout)' }),
    durationMs: t.exposeInt('durationMs'),
    responseBody: t.exposeString('responseBody', { nullable: true }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const DeliveryRef = builder.prismaObject('WebhookDelivery', {
  extensions: resourceFragment({ omit: ['payload'] }),
  interfaces: [NodeRef],
  description: 'A delivery log entry (spec 2.4): one event to one endpoint, updated on each attempt',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The delivery id: envelope id and X-Service-Delivery' }),
    endpointId: t.exposeString('endpointId'),
    eventId: t.exposeString('eventId'),
    eventType: t.exposeString('eventType'),
    status: t.field({ type: DeliveryStatusEnum, resolve: (d) => d.status }),
    attempt: t.exposeInt('attempt', { description: 'Attempts made in the current round (1…8)' }),
    httpStatus: t.exposeInt('httpStatus', { nullable: true }),
    responseBody: t.exposeString('responseBody', { nullable: true }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    nextRetryAt: t.expose('nextRetryAt', { type: 'DateTime', nullable: true }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    exhaustedAt: t.expose('exhaustedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    payload: t.string({
      nullable: true,
      description:
        'The request body sent: the JSON envelope, the same bytes on every attempt. null when the caller lacks the read right of the event’s resource (ORDERS:READ for order.*, PRODUCTS:READ for product.*, CATEGORIES:READ for category.*, CUSTOMERS:READ for customer.*), since the body holds that resource',
      resolve: (delivery, _args, ctx) => visiblePayload(ctx, delivery),
    }),
    attempts: t.relation('attempts', { query: { orderBy: { number: 'asc' } }, extensions: listSize(50) }),
  }),
});

const ReplayResultRef = builder.objectRef<{ replayed: number }>('WebhookReplayResult').implement({
  fields: (t) => ({ replayed: t.exposeInt('replayed') }),
});
const TestResultRef = builder.objectRef<{ eventId: string }>('WebhookTestResult').implement({
  fields: (t) => ({ eventId: t.exposeString('eventId') }),
});
const DeletedRef = builder.objectRef<{ id: string; deleted: boolean }>('DeletedWebhookEndpoint').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
});

const CreateInput = inputTypeOf('CreateWebhookEndpointInput', newEndpointInput);
const UpdateInput = inputTypeOf('UpdateWebhookEndpointInput', endpointUpdateInput);

const idArg = (arg: ArgBuilder<BuilderTypes>) => arg.id({ required: true });

builder.queryFields((t) => ({
  webhookEndpointLimit: t.int({
    description:
      'How many endpoints a store may have; creating one more is 409 WEBHOOK_ENDPOINT_LIMIT_REACHED',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    resolve: () => MAX_ENDPOINTS_PER_STORE,
  }),
  webhookEndpoints: t.field({
    type: pageType('WebhookEndpoint', EndpointRef),
    description: 'The store’s webhook endpoints (never their secrets)',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: pageArgs(t.arg, EndpointSortEnum),
    resolve: (_root, args, ctx) => listEndpoints(ctx, args),
  }),
  webhookEndpoint: t.field({
    ...lookup('endpoint'),
    type: EndpointRef,
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: { id: idArg(t.arg) },
    resolve: (_root, args, ctx) => getEndpoint(ctx, args.id),
  }),
  webhookDeliveries: t.field({
    type: pageType('WebhookDelivery', DeliveryRef),
    description: 'Delivery log of an endpoint, newest first; each entry carries every attempt',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: {
      ...pageArgs(t.arg, DeliverySortEnum),
      endpointId: t.arg.id({ required: true }),
      status: t.arg({ type: DeliveryStatusEnum }),
    },
    resolve: (_root, { endpointId, ...args }, ctx) => listDeliveries(ctx, endpointId, args),
  }),
  webhookDelivery: t.prismaField({
    ...lookup('delivery'),
    type: 'WebhookDelivery',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: { id: idArg(t.arg) },
    resolve: (_query, _root, args, ctx) => getDelivery(ctx, args.id),
  }),
}));

// node(id:) behind the same pair as the webhookEndpoint and webhookDelivery lookups above.
const { scope: settingsRead } = requireScope('STORE_SETTINGS', 'READ');
registerNode('WebhookEndpoint', { scope: settingsRead, load: (ctx, id) => getEndpoint(ctx, id) });
registerNode('WebhookDelivery', { scope: settingsRead, load: (ctx, id) => getDelivery(ctx, id) });

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: IssuedEndpointRef,
    description: 'Registers an endpoint (at most 5 per store); the response holds its secret, shown once',
    authScopes: requireScope('STORE_SETTINGS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateInput, required: true }) },
    resolve: (_root, { input }, ctx) => createEndpoint(ctx, input),
  }),
  updateWebhookEndpoint: t.field({
    type: EndpointRef,
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: idArg(t.arg), input: t.arg({ type: UpdateInput, required: true }) },
    resolve: (_root, { id, input }, ctx) => updateEndpoint(ctx, id, input),
  }),
  deleteWebhookEndpoint: t.field({
    type: DeletedRef,
    authScopes: requireScope('STORE_SETTINGS', 'DELETE'),
    args: { ...idempotencyArg(t.arg), id: idArg(t.arg) },
    resolve: (_root, { id }, ctx) => deleteEndpoint(ctx, id),
  }),
  rotateWebhookEndpointSecret: t.field({
    type: IssuedEndpointRef,
    description: 'Issues a new secret, returned once; the old one is invalid at once',
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: idArg(t.arg) },
    resolve: (_root, { id }, ctx) => rotateEndpointSecret(ctx, id),
  }),
  replayExhaustedWebhookDeliveries: t.field({
    type: ReplayResultRef,
    description: 'Re-queues every exhausted delivery of the endpoint with fresh retries',
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: idArg(t.arg) },
    resolve: (_root, { id }, ctx) => replayExhausted(ctx, id),
  }),
  resendWebhookDelivery: t.prismaField({
    type: 'WebhookDelivery',
    description:
      'Sends one delivery again now, whatever its status: a fresh round of retries for the same event (same delivery id); earlier attempts stay in its history',
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: idArg(t.arg) },
    resolve: (_query, _root, { id }, ctx) => resendDelivery(ctx, id),
  }),
  testWebhookEndpoint: t.field({
    type: TestResultRef,
    description: 'Sends a webhook.test event to this endpoint through the normal pipeline',
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: { ...idempotencyArg(t.arg), id: idArg(t.arg) },
    resolve: (_root, { id }, ctx) => testEndpoint(ctx, id),
  }),
}));
