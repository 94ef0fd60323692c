/** The id prefix of each type whose ids the database generates (the defaults in prisma/schema.prisma). */
const prefixes: Record<string, string> = {
  Store: 'str',
  StaffMember: 'usr',
  Session: 'ses',
  ApiKey: 'key',
  Category: 'cat',
  Product: 'prd',
  Customer: 'cus',
  Order: 'ord',
  OrderItem: 'itm',
  Coupon: 'cpn',
  Review: 'rev',
  WebhookEndpoint: 'whe',
  WebhookEvent: 'evt',
  WebhookDelivery: 'msg',
  WebhookAttempt: 'att',
  AuditEntry: 'aud',
};

const typesByPrefix = new Map(Object.entries(prefixes).map(([type, prefix]) => [prefix, type]));

/**
 * The type an id belongs to, by its prefix. Which of them `node(id:)` answers is the node
 * registry's to say (src/resources/node/registry.ts), so no second list is kept here.
 */
export const nodeTypeOf = (id: string): string | undefined => typesByPrefix.get(id.slice(0, id.indexOf('_')));

/** The prefix of a type's ids (`prd` for Product), when the database generates them. */
export const idPrefixOf = (typeName: string): string | undefined => prefixes[typeName];
