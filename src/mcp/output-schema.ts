import {
  type FieldNode,
  type GraphQLOutputType,
  type GraphQLSchema,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { z } from 'zod';

/**
 * The zod schema of what a tool's root field answers, derived from the GraphQL types of its
 * selection — as rest/openapi.ts derives REST's response schemas — so a field added to a resource
 * reaches the MCP output schema with no other edit. Descriptions come from the GraphQL fields.
 */
export function outputSchemaOf(schema: GraphQLSchema, root: FieldNode): z.ZodType {
  const field = schema.getQueryType()?.getFields()[root.name.value];
  if (!field) throw new Error(`no query field ${root.name.value}`);
  return shapeOf(field.type, root.selectionSet);
}

function shapeOf(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): z.ZodType {
  if (isNonNullType(type)) return nonNullShapeOf(type.ofType, selectionSet);
  return nonNullShapeOf(type, selectionSet).nullable();
}

function nonNullShapeOf(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): z.ZodType {
  if (isNonNullType(type)) return nonNullShapeOf(type.ofType, selectionSet);
  if (isListType(type)) return z.array(shapeOf(type.ofType, selectionSet));
  if (isScalarType(type)) return scalarShape(type.name);
  if (isEnumType(type)) return z.enum(type.getValues().map((value) => value.name) as [string, ...string[]]);
  if (isObjectType(type) && selectionSet) {
    const fields = type.getFields();
    const shape: Record<string, z.ZodType> = {};
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) throw new Error('tool operations select plain fields only');
      const field = fields[selection.name.value]!;
      const property = shapeOf(field.type, selection.selectionSet);
      shape[(selection.alias ?? selection.name).value] = field.description
        ? property.describe(field.description)
        : property;
    }
    return z.object(shape).strict();
  }
  return z.unknown();
}

function scalarShape(name: string): z.ZodType {
  switch (name) {
    case 'Int':
    case 'Long':
      return z.number().int();
    case 'Float':
      return z.number();
    case 'Boolean':
      return z.boolean();
    case 'DateTime':
      // `format` rather than zod's long ISO pattern, which would bloat tools/list.
      return z.string().meta({ format: 'date-time', description: 'ISO 8601, UTC' });
    case 'JSON':
      return z.unknown();
    default:
      return z.string();
  }
}
