/**
 * The event catalog (docs/design.md "Events"), each type with what it means: the descriptions the
 * event-type list, the OpenAPI `webhooks` and the dashboard's endpoint form show. `webhook.test` is
 * the test ping; `*` subscribes to all.
 */
export const eventDescriptions = {
  'order.placed': 'An order was placed (status pending); the object is the order with its lines',
  'order.paid': 'An order was paid',
  'order.fulfilled': 'A paid order was fulfilled (shipped)',
  'order.cancelled': 'A pending or paid order was cancelled; cancelReason says why',
  'product.created': 'A product was created',
  'product.updated': 'A product was changed',
  'product.deleted': 'A product was deleted; the object is the product as it was',
  'category.created': 'A category was created',
  'category.updated': 'A category was changed (renamed, moved or reordered)',
  'category.deleted': 'A category was deleted; the object is the category as it was',
  'customer.created': 'A customer was created',
  'customer.updated': 'A customer was changed',
  'api_key.expiring':
    'An active API key expires within 7 days (sent once per key and expiry); the object is the key, never its secret',
  'api_key.usage_threshold':
    'An active API key reached 80 % of its usage limit (sent once per key and limit); the object is the key, never its secret',
  'webhook.test': 'A test ping sent from the store to one endpoint (Send test event)',
} as const;

export type EventType = keyof typeof eventDescriptions;

export const eventTypes = Object.keys(eventDescriptions) as EventType[];

/** The resource an event type carries: `order` for `order.paid`. */
export type ResourceOf<Type> = Type extends `${infer Resource}.${string}` ? Resource : never;
