import { builder } from '../../builder';
import { listSize, requireScope } from '../../field-extensions';
import { endpointHealth, type HealthBucket, healthWindows } from './health';

const windowNames = Object.keys(healthWindows) as Array<keyof typeof healthWindows>;

const HealthWindowEnum = builder.enumType('WebhookHealthWindow', {
  description: 'LAST_24_HOURS: 24 buckets of an hour; LAST_30_DAYS: 30 days of the store’s time zone',
  values: windowNames,
});

const HealthBucketRef = builder.objectRef<HealthBucket>('WebhookHealthBucket').implement({
  description:
    'One hour or day of an endpoint’s attempts (every HTTP request made, retries included); empty buckets are present with 0 attempts',
  fields: (t) => ({
    start: t.field({
      type: 'DateTime',
      description: 'The first instant of the hour or day',
      resolve: (b) => b.start,
    }),
    deliveries: t.exposeInt('deliveries', {
      description: 'Deliveries attempted in it, each counted once however many attempts it had there',
    }),
    attempts: t.exposeInt('attempts', { description: 'HTTP requests made, retries included' }),
    succeeded: t.exposeInt('succeeded', { description: 'Attempts answered 2xx' }),
    failed: t.exposeInt('failed', { description: 'Attempts answered otherwise, or not answered' }),
    successRate: t.exposeFloat('successRate', {
      nullable: true,
      description: 'succeeded / attempts, 0…1; null without attempts',
    }),
    medianMs: t.exposeInt('medianMs', {
      nullable: true,
      description: 'Median attempt duration; null without attempts',
    }),
    p95Ms: t.exposeInt('p95Ms', {
      nullable: true,
      description: '95th percentile attempt duration; null without attempts',
    }),
  }),
});

const HealthRef = builder
  .objectRef<Awaited<ReturnType<typeof endpointHealth>>>('WebhookEndpointHealth')
  .implement({
    fields: (t) => ({
      endpointId: t.exposeID('endpointId'),
      window: t.field({ type: HealthWindowEnum, resolve: (h) => h.window }),
      unit: t.exposeString('unit', { description: '`hour` or `day`' }),
      buckets: t.field({
        type: [HealthBucketRef],
        description: 'Oldest first; the last one is the current (partial) hour or day',
        extensions: listSize(healthWindows.LAST_30_DAYS.buckets),
        resolve: (h) => h.buckets,
      }),
    }),
  });

builder.queryFields((t) => ({
  webhookEndpointHealth: t.field({
    type: HealthRef,
    nullable: true,
    description:
      'Attempts, success rate and median/p95 latency of an endpoint per hour (last 24 h) or per day (last 30 days); null, with a NOT_FOUND error, when the store has no such endpoint',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    args: {
      id: t.arg.id({ required: true }),
      window: t.arg({ type: HealthWindowEnum, required: true, defaultValue: 'LAST_24_HOURS' }),
    },
    resolve: (_root, { id, window }, ctx) => endpointHealth(ctx, id, window),
  }),
}));
