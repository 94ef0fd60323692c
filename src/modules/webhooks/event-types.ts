import { builder } from '../../builder';
import { eventTypes } from '../../events/catalog';
import { type EventTypeEntry, eventTypeCatalog } from '../../events/payload-schema';
import { listSize, requireScope, resourceFragment } from '../../field-extensions';
import { assertWebhookAccess } from './service';

/** What a `webhook.test` event carries as `data.object` (deliveries.ts testEndpoint builds it). */
export interface WebhookTestEvent {
  endpointId: string;
  message: string;
}

builder.objectRef<WebhookTestEvent>('WebhookTestEvent').implement({
  description: 'The object of a webhook.test event',
  extensions: resourceFragment(),
  fields: (t) => ({
    endpointId: t.exposeString('endpointId', { description: 'The endpoint the test was sent to' }),
    message: t.exposeString('message'),
  }),
});

const EventTypeRef = builder.objectRef<EventTypeEntry>('WebhookEventType').implement({
  description: 'An event type an endpoint may subscribe to, with the schema of the body its deliveries POST',
  fields: (t) => ({
    type: t.string({ resolve: (entry) => entry.type }),
    description: t.exposeString('description'),
    schema: t.field({
      type: 'JSON',
      description:
        'JSON Schema (2020-12) of the request body: the envelope, its data.object being the resource as REST shows it. Fields may be added; none is removed within an API version',
      resolve: (entry) => entry.schema,
    }),
    example: t.field({
      type: 'JSON',
      description: 'A body that validates against schema',
      resolve: (entry) => entry.example,
    }),
  }),
});

builder.queryFields((t) => ({
  webhookEventTypes: t.field({
    type: [EventTypeRef],
    description:
      'The event types an endpoint may subscribe to (`*` subscribes to all of them), each with its payload schema',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    extensions: listSize(eventTypes.length),
    resolve: (_root, _args, ctx, info) => {
      // a part of webhooks like the rest: behind the plan's gate (403 WEBHOOKS_NOT_AVAILABLE)
      assertWebhookAccess(ctx);
      return eventTypeCatalog(info.schema);
    },
  }),
}));
