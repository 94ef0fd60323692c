/**
 * docs/design.md "Delivery request": the envelope `{ id, type, apiVersion, createdAt, storeId, data: { object } }`, where
 * id is the delivery id (X-Service-Delivery). Built in SQL by the fan-out (fan-out.ts) from the event
 * row `event` and the new delivery id `target.id`, and frozen as text: every attempt sends these bytes.
 */
export interface Envelope {
  id: string;
  type: string;
  apiVersion: string;
  /** ISO 8601, UTC, milliseconds. */
  createdAt: string;
  storeId: string;
  data: unknown;
}

export const ENVELOPE_SQL = `jsonb_build_object(
  'id', target.id,
  'type', event.type,
  'apiVersion', event."apiVersion",
  'createdAt', to_char(event."createdAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'storeId', event."storeId",
  'data', event.data
)::text`;

/**
 * The JSON Schema of the envelope above for one event type, around the schema of its
 * `data.object` (src/events/payload-schema.ts derives that from the GraphQL resource).
 */
export function envelopeSchema(type: string, description: string, object: Record<string, unknown>) {
  return {
    title: type,
    description,
    type: 'object',
    required: ['id', 'type', 'apiVersion', 'createdAt', 'storeId', 'data'],
    properties: {
      id: {
        type: 'string',
        pattern: '^msg_',
        description:
          'The delivery id: the same on every attempt, also sent as webhook-id and X-Service-Delivery',
      },
      type: { const: type },
      apiVersion: { type: 'string', description: 'The API version the object follows (v1)' },
      createdAt: { type: 'string', format: 'date-time', description: 'When the event happened (UTC)' },
      storeId: { type: 'string' },
      data: { type: 'object', required: ['object'], properties: { object } },
    },
  };
}
