import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { EventType } from '../../src/events/catalog';
import { eventTypeCatalog } from '../../src/events/payload-schema';
import { schema } from '../../src/schema';

type JsonSchema = Record<string, unknown>;

/**
 * The published schema closed: each object admits only the properties it names. Receivers may
 * expect fields to be added (README "Event schemas"); the suite holds the service to the stricter
 * rule that every field it sends is published.
 */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const copy: JsonSchema = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, closed(value)]),
  );
  if (copy.properties) copy.additionalProperties = false;
  return copy;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map(
  eventTypeCatalog(schema).map((entry) => [entry.type, ajv.compile(closed(entry.schema) as JsonSchema)]),
);

/**
 * Why a delivered body does not match the published schema of its type (GET
 * /api/v1/store/webhooks/event-types), or null when it does.
 */
export function payloadMismatch(body: string): string | null {
  let envelope: { type?: unknown };
  try {
    envelope = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  const type = envelope?.type;
  const validate = validators.get(type as never);
  if (!validate) return `no published schema for the type ${JSON.stringify(type)}`;
  if (validate(envelope)) return null;
  const errors = (validate.errors ?? []).map((error) => {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    return `body${error.instancePath} ${error.message}${extra ? `: ${extra}` : ''}`;
  });
  return `${String(type)}: ${errors.join('; ')}`;
}

/** A delivery body of `type` as the service would send it: its published example, under this id. */
export function examplePayload(type: EventType, deliveryId: string): string {
  const entry = eventTypeCatalog(schema).find((candidate) => candidate.type === type)!;
  return JSON.stringify({ ...(entry.example as object), id: deliveryId });
}

interface StoredEvent {
  id: string;
  storeId: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

/**
 * Events as stored, each checked against its published schema as the body fan-out will make of it
 * (the envelope around its `data`): tests that read the events a change wrote check their shape too.
 */
export function published<Events extends StoredEvent[]>(events: Events): Events {
  for (const event of events) {
    const { id, storeId, type, data, createdAt } = event;
    const body = {
      id: `msg_${id}`,
      type,
      apiVersion: 'v1',
      createdAt: createdAt.toISOString(),
      storeId,
      data,
    };
    expect({ event: event.id, mismatch: payloadMismatch(JSON.stringify(body)) }).toEqual({
      event: event.id,
      mismatch: null,
    });
  }
  return events;
}
