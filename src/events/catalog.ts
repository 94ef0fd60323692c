/** The event catalog (docs/design.md "Events"). `webhook.test` is the test ping; `*` subscribes to all. */
export const eventTypes = [
  'order.placed',
  'order.paid',
  'order.fulfilled',
  'order.cancelled',
  'product.created',
  'product.updated',
  'product.deleted',
  'category.created',
  'category.updated',
  'category.deleted',
  'customer.created',
  'customer.updated',
  'webhook.test',
] as const;

export type EventType = (typeof eventTypes)[number];
