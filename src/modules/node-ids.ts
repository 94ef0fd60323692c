/** The GraphQL type of each id prefix (the database generates ids with these; prisma/schema.prisma). */
const typesByPrefix: Record<string, string> = {
  prd: 'Product',
  cat: 'Category',
  cpn: 'Coupon',
  cus: 'Customer',
  ord: 'Order',
  rev: 'Review',
  usr: 'StaffMember',
  whe: 'WebhookEndpoint',
  msg: 'WebhookDelivery',
};

export const nodeTypeOf = (id: string): string | undefined => typesByPrefix[id.slice(0, id.indexOf('_'))];
