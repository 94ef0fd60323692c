import {
  type GraphQLObjectType,
  type GraphQLOutputType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type SelectionSetNode,
} from 'graphql';

export type JsonSchema = Record<string, unknown>;

/**
 * What becomes of an object's schema: the OpenAPI document names it (a `$ref` to a component),
 * the event payload schemas keep it inline. `parent` names where a nested object sits
 * (`ProductCategory` for a product's `category`), undefined at the top.
 */
export type ObjectSchemaHook = (
  type: GraphQLObjectType,
  object: JsonSchema,
  parent: string | undefined,
) => JsonSchema;

const inline: ObjectSchemaHook = (_type, object) => object;

/**
 * The JSON Schema (2020-12, OpenAPI 3.1's dialect) of what a GraphQL selection answers, from the
 * types of the selected fields: every selected field required, nullable where GraphQL says so,
 * descriptions from the GraphQL schema. The one derivation REST's response schemas (rest/openapi.ts)
 * and the event payload schemas (src/events/payload-schema.ts) share.
 */
export function selectionSchema(
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  objectHook: ObjectSchemaHook = inline,
  parent?: string,
): JsonSchema {
  if (isNonNullType(type)) return nonNull(selectionSchema(type.ofType, selectionSet, objectHook, parent));
  let schema: JsonSchema;
  if (isListType(type))
    schema = {
      type: 'array',
      items: selectionSchema(type.ofType as GraphQLOutputType, selectionSet, objectHook, parent),
    };
  else if (isScalarType(type)) schema = scalarSchema(type.name);
  else if (isEnumType(type)) schema = { type: 'string', enum: type.getValues().map((v) => v.name) };
  else if (isObjectType(type) && selectionSet) {
    const fields = type.getFields();
    const properties: Record<string, JsonSchema> = {};
    for (const selection of selectionSet.selections) {
      if (selection.kind !== 'Field') continue;
      const name = (selection.alias ?? selection.name).value;
      const field = fields[selection.name.value]!;
      const nested = `${type.name}${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      properties[name] = describe(
        selectionSchema(field.type, selection.selectionSet, objectHook, nested),
        field.description,
      );
    }
    const object = { type: 'object', required: Object.keys(properties), properties };
    schema = objectHook(type, describe(object, type.description), parent);
  } else schema = {};
  return nullable(schema);
}

export function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case 'Int':
      return { type: 'integer' };
    case 'Long':
      return { type: 'integer', maximum: Number.MAX_SAFE_INTEGER };
    case 'Float':
      return { type: 'number' };
    case 'Boolean':
      return { type: 'boolean' };
    case 'DateTime':
      return { type: 'string', format: 'date-time' };
    case 'JSON':
      return {};
    default:
      return { type: 'string' };
  }
}

export function nullable(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.enum))
    return { ...schema, type: [schema.type, 'null'], enum: [...schema.enum, null] };
  if (typeof schema.type === 'string') return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Undoes nullable(): the same schema without null. */
export function nonNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const strict: JsonSchema = { ...schema, type: schema.type[0] };
    if (Array.isArray(schema.enum)) strict.enum = schema.enum.filter((value) => value !== null);
    return strict;
  }
  return (schema.anyOf as JsonSchema[] | undefined)?.[0] ?? schema;
}

/** A schema with the GraphQL description, when there is one (a $ref takes it beside it, as 3.1 allows). */
export function describe(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description ? { ...schema, description } : schema;
}
