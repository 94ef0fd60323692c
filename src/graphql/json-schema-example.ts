import { idPrefixOf } from '../resources/node/ids';

type JsonSchema = Record<string, unknown>;

/**
 * An example value for a generated schema, so the reference shows plausible objects rather than
 * `"string"` everywhere: ids carry their type's prefix, amounts are minor units, well-known field
 * names get realistic values, anything else its type's plain value. `resolve` answers a named
 * schema's own example (named schemas are registered before the ones that use them).
 */
export function exampleOf(
  schema: JsonSchema,
  typeName: string,
  resolve: (ref: string) => unknown,
  property = '',
): unknown {
  if (typeof schema.$ref === 'string') return resolve(schema.$ref);
  if (Array.isArray(schema.anyOf))
    return exampleOf(schema.anyOf[0] as JsonSchema, typeName, resolve, property);
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, value]) => [name, exampleOf(value, typeName, resolve, name)]),
      );
    }
    case 'array': {
      const items = (schema.items ?? {}) as JsonSchema;
      return [exampleOf(items, typeName, resolve, property.replace(/s$/, ''))];
    }
    case 'integer':
      return integerExample(property);
    case 'number':
      return 4.5;
    case 'boolean':
      return !/^(is)?(deleted|disabled|revoked|suspended)$/i.test(property);
    case 'string':
      return schema.format === 'date-time' ? '2026-11-24T09:30:00.000Z' : stringExample(property, typeName);
    default:
      return {};
  }
}

const EXAMPLE_ID = '7f3c9a2e41b84d0c9e6a5b1d2c3e4f50';

const strings: Record<string, string> = {
  email: 'ann@example.com',
  contactEmail: 'hello@example.com',
  name: 'Linen Shirt',
  keyName: 'Storefront',
  firstName: 'Ann',
  lastName: 'Lee',
  slug: 'linen-shirt',
  sku: 'LS-001',
  description: 'Breathable, relaxed fit.',
  currency: 'USD',
  timezone: 'America/New_York',
  url: 'https://example.com/webhooks/commerce',
  code: 'WELCOME10',
  title: 'Great fit',
  body: 'Soft and true to size.',
  eventType: 'order.placed',
  event: 'order.placed',
  phone: '+1 555 0100',
  note: 'Leave at the door',
  keyId: 'key_prod_3f9a2c1e',
  resource: 'PRODUCTS',
  action: 'READ',
  ipAllowlist: '203.0.113.0/24',
  secret: 'whsec_5b1d2c3e4f507f3c9a2e41b84d0c9e6a',
  key: 'tt_5b1d2c3e4f507f3c9a2e41b84d0c9e6a5b1d2c3e4f507f3c9a2e41b84d0c9e6a',
  token: 'tts_7f3c9a2e41b84d0c9e6a5b1d2c3e4f50',
};

function stringExample(property: string, typeName: string): string {
  if (strings[property]) return strings[property];
  // DeletedProduct's id is a product's, OrderCustomer's a customer's
  if (property === 'id') {
    const prefix = idPrefixOf(typeName) ?? idPrefixOf(typeName.replace(/^[A-Z][a-z]+(?=[A-Z])/, ''));
    return `${prefix ?? 'id'}_${EXAMPLE_ID}`;
  }
  const reference = property.match(/^(\w+?)Id$/);
  if (reference) {
    const stem = reference[1]!;
    const referenced = stem.charAt(0).toUpperCase() + stem.slice(1);
    // endpointId names a WebhookEndpoint, eventId a WebhookEvent
    const prefix =
      idPrefixOf(referenced) ?? idPrefixOf(`Webhook${referenced}`) ?? stem.slice(0, 3).toLowerCase();
    return `${prefix}_${EXAMPLE_ID}`;
  }
  if (/email/i.test(property)) return strings.email!;
  if (/url/i.test(property)) return strings.url!;
  return property ? `${property} text` : 'text';
}

function integerExample(property: string): number {
  if (/amount/i.test(property)) return 4900;
  if (/^(page|currentPage|attempt)$/.test(property)) return 1;
  if (property === 'number') return 1001;
  if (/status/i.test(property)) return 200;
  if (/rating/.test(property)) return 5;
  if (/position|failures/i.test(property)) return 0;
  if (/limit/i.test(property)) return 100_000;
  return 12;
}
