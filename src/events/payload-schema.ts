import {
  type GraphQLObjectType,
  type GraphQLSchema,
  isObjectType,
  Kind,
  parse,
  type SelectionSetNode,
} from 'graphql';
import { nonNull, selectionSchema } from '../graphql/json-schema';
import { exampleOf } from '../graphql/json-schema-example';
import { expandResourceFragments } from '../graphql/resource-fragment';
import { envelopeSchema } from '../webhook-delivery/envelope';
import { type EventType, eventDescriptions, eventTypes, type ResourceOf } from './catalog';

/**
 * The GraphQL type each resource's events carry as `data.object`: the payload is the resource as
 * REST shows it (its `...<Type>Fields` selection, src/graphql/resource-fragment.ts), so its schema
 * is derived from the same selection. `webhook.test` carries a WebhookTestEvent.
 */
const objectTypeOfResource: Record<ResourceOf<EventType>, string> = {
  order: 'Order',
  product: 'Product',
  category: 'Category',
  customer: 'Customer',
  api_key: 'ApiKey',
  webhook: 'WebhookTestEvent',
};

export interface EventTypeEntry {
  type: EventType;
  description: string;
  /** JSON Schema (2020-12) of the request body a delivery of this type POSTs. */
  schema: Record<string, unknown>;
  /** A body that validates against `schema`. */
  example: unknown;
}

export const objectTypeOfEvent = (type: EventType) =>
  objectTypeOfResource[type.slice(0, type.indexOf('.')) as ResourceOf<EventType>];

const EXAMPLE_DELIVERY_ID = 'msg_0f6b2c1d9e8a47b3a5c4d3e2f1a0b9c8';

function entryOf(schema: GraphQLSchema, type: EventType): EventTypeEntry {
  const typeName = objectTypeOfEvent(type);
  const objectType = schema.getType(typeName);
  if (!isObjectType(objectType)) throw new Error(`${type}: no GraphQL object type ${typeName}`);
  const document = parse(`{ ${expandResourceFragments(schema, `...${typeName}Fields`)} }`);
  const operation = document.definitions[0]!;
  if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('unreachable');
  const object = nonNull(selectionSchema(objectType, operation.selectionSet));
  const description = eventDescriptions[type];
  const envelope = envelopeSchema(type, description, object);
  const example = {
    ...(exampleOf(envelope, 'WebhookDelivery', () => undefined) as object),
    id: EXAMPLE_DELIVERY_ID,
    apiVersion: 'v1',
    data: { object: objectExample(objectType, operation.selectionSet) },
  };
  return { type, description, schema: envelope, example };
}

/**
 * The object's example, each nested object's made under its own type's name (an order's customer
 * gets a customer's id), as the OpenAPI document makes its named schemas' examples.
 */
function objectExample(type: GraphQLObjectType, selectionSet: SelectionSetNode): unknown {
  const examples = new Map<string, unknown>();
  const resolve = (ref: string) => examples.get(ref);
  const schema = selectionSchema(type, selectionSet, (objectType, object, parent) => {
    // a category's parent is a Category of another shape: named after where it sits
    const ref = parent ?? objectType.name;
    if (!examples.has(ref)) examples.set(ref, exampleOf(object, objectType.name, resolve));
    return { $ref: ref };
  });
  return exampleOf(schema, type.name, resolve);
}

const catalogs = new WeakMap<GraphQLSchema, EventTypeEntry[]>();

/** Every event type with its description, payload schema and example; computed once per schema. */
export function eventTypeCatalog(schema: GraphQLSchema): EventTypeEntry[] {
  let catalog = catalogs.get(schema);
  if (!catalog) {
    catalog = eventTypes.map((type) => entryOf(schema, type));
    catalogs.set(schema, catalog);
  }
  return catalog;
}
