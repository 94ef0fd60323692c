import type { GraphQLSchema } from 'graphql';
import { eventTypeCatalog } from '../src/events/payload-schema';

/** The Standard Webhooks headers every delivery carries (src/webhook-delivery/signing.ts). */
const standardWebhooksHeaders = [
  {
    name: 'webhook-id',
    description: 'The delivery id (the envelope’s id), the same on every attempt: de-duplicate on it',
    schema: { type: 'string', example: 'msg_0f6b2c1d9e8a47b3a5c4d3e2f1a0b9c8' },
  },
  {
    name: 'webhook-timestamp',
    description: 'Unix seconds of this attempt; refuse a body whose timestamp is far from now',
    schema: { type: 'string', pattern: '^[0-9]+$', example: '1795944600' },
  },
  {
    name: 'webhook-signature',
    description:
      'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">, keyed with the base64-decoded secret after whsec_',
    schema: { type: 'string', pattern: '^v1,', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' },
  },
].map((header) => ({ ...header, in: 'header', required: true }));

const operationIdOf = (type: string) =>
  `on${type.replace(/(^|[._])([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}`;

/**
 * The OpenAPI 3.1 `webhooks` section: one POST per event type, its body the envelope with the
 * type's payload schema (src/events/payload-schema.ts), as the event-type list publishes it.
 */
export function webhooksSection(schema: GraphQLSchema) {
  return Object.fromEntries(
    eventTypeCatalog(schema).map((entry) => [
      entry.type,
      {
        post: {
          operationId: operationIdOf(entry.type),
          summary: entry.description,
          description:
            'Sent to each active endpoint subscribed to this type (or to *), signed; retried until a 2xx answer',
          tags: ['Webhook events'],
          security: [],
          parameters: standardWebhooksHeaders,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: entry.schema, example: entry.example } },
          },
          responses: {
            '2XX': { description: 'Received; any other answer (or none in time) is retried' },
          },
        },
      },
    ]),
  );
}
