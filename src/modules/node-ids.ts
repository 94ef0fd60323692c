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

/** The types `node(id:)` resolves. */
const nodeTypes = [
  'Product',
  'Category',
  'Coupon',
  'Customer',
  'Order',
  'Review',
  'StaffMember',
  'WebhookEndpoint',
  'WebhookDelivery',
];

const nodeTypesByPrefix = new Map(nodeTypes.map((type) => [prefixes[type], type]));

/** The GraphQL node type an id belongs to, by its prefix. */
export const nodeTypeOf = (id: string): string | undefined =>
  nodeTypesByPrefix.get(id.slice(0, id.indexOf('_')));

/** The prefix of a type's ids (`prd` for Product), when the database generates them. */
export const idPrefixOf = (typeName: string): string | undefined => prefixes[typeName];
