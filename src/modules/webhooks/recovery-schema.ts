import { builder } from '../../builder';
import { requireScope, resourceFragment } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { pageArgs, pageType } from '../../resources/pagination/schema';
import { getRecovery, listRecoveries, recoverEndpoint, recoverInput } from './recover';

/** README "Webhooks", Recover: the record and its progress, the mutation that queues it, its reads. */

const RecoveryStatusEnum = builder.enumType('WebhookRecoveryStatus', {
  values: ['queued', 'running', 'done', 'failed'] as const,
});
const RecoverySortEnum = builder.enumType('WebhookRecoverySortField', { values: ['createdAt'] as const });

const RecoveryRef = builder.prismaObject('WebhookRecovery', {
  extensions: resourceFragment(),
  description:
    'A recover of an endpoint: its failed and exhausted deliveries created in [since, until) re-queued by one background job',
  fields: (t) => ({
    id: t.exposeID('id'),
    endpointId: t.exposeString('endpointId'),
    status: t.field({
      type: RecoveryStatusEnum,
      description: 'queued, running, then done (or failed, when the job gave up)',
      resolve: (r) => r.status,
    }),
    since: t.expose('since', { type: 'DateTime' }),
    until: t.expose('until', {
      type: 'DateTime',
      description: 'The given until, else when the recover was asked',
    }),
    eventTypes: t.exposeStringList('eventTypes', { description: 'Empty: every event type' }),
    total: t.exposeInt('total', {
      nullable: true,
      description:
        'Failed and exhausted deliveries in the window when the job began (null before); when done, the deliveries it went through',
    }),
    done: t.exposeInt('done', { description: 'Deliveries gone through so far' }),
    queued: t.exposeInt('queued', {
      description:
        'Of those, re-queued by this recovery; the others had been re-queued meanwhile (a replay, resend or running attempt) and are not sent twice',
    }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true }),
  }),
});

const RecoverInput = inputTypeOf('RecoverWebhookEndpointInput', recoverInput);

builder.queryFields((t) => ({
  webhookRecovery: t.prismaField({
    type: 'WebhookRecovery',
    description: 'A recover of an endpoint and its progress',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, { id }, ctx) => getRecovery(ctx, id),
  }),
  webhookRecoveries: t.field({
    type: pageType('WebhookRecovery', RecoveryRef),
    description: 'The recovers of an endpoint, newest first',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: { ...pageArgs(t.arg, RecoverySortEnum), endpointId: t.arg.id({ required: true }) },
    resolve: (_root, { endpointId, ...args }, ctx) => listRecoveries(ctx, endpointId, args),
  }),
}));

builder.mutationFields((t) => ({
  recoverWebhookEndpoint: t.prismaField({
    type: 'WebhookRecovery',
    description:
      'Re-sends every failed or exhausted delivery of the endpoint created since a moment (at most 30 days back), optionally until a moment and of some event types, as one background job; one at a time per endpoint (409 WEBHOOK_RECOVERY_IN_PROGRESS)',
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      id: t.arg.id({ required: true }),
      input: t.arg({ type: RecoverInput, required: true }),
    },
    resolve: (_query, _root, { id, input }, ctx) => recoverEndpoint(ctx, id, input),
  }),
}));
