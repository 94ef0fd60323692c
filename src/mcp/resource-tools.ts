import { type GraphQLInputType, isEnumType, isListType, isNonNullType, isScalarType } from 'graphql';
import { z } from 'zod';
import { capitalize, itemQuery, pageQuery, passedArgs, rootField } from '../graphql/root-field-operation';
import { schema } from '../schema';
import { defineTool, type McpTool } from './tool';
import { dateTimeInput, pageHeadline } from './tools/shapes';

/**
 * The read tools of a resource, written from the schema like REST's resource routes: a tool's
 * arguments are its root field's (types, required-ness and descriptions), its operation passes them
 * through, and it selects the resource's fragment. A filter or field added in the domain reaches
 * MCP with no edit here.
 */

/** An argument's zod schema from its GraphQL type; the schema's resolvers check the rest (bounds). */
function argumentSchema(type: GraphQLInputType, description: string): z.ZodType {
  if (isNonNullType(type)) return argumentSchema(type.ofType, description);
  if (isListType(type)) return z.array(argumentSchema(type.ofType, description)).describe(description);
  if (isEnumType(type))
    return z.enum(type.getValues().map((value) => value.name) as [string, ...string[]]).describe(description);
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return z.number().int().describe(description);
      case 'Float':
        return z.number().describe(description);
      case 'Boolean':
        return z.boolean().describe(description);
      case 'DateTime':
        return dateTimeInput(description);
      case 'ID':
        return z.string().min(1).max(100).describe(description);
      default:
        return z.string().describe(description);
    }
  }
  throw new Error(`MCP tools take no ${type.name} argument`);
}

/** The tool's input: one property per argument of the root field, required where the field requires it. */
function inputOf(field: string, noun: string): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const arg of passedArgs(rootField(schema, 'query', field))) {
    const described = argumentSchema(
      arg.type,
      arg.description ?? (arg.name === 'id' ? `The ${noun} id` : arg.name),
    );
    shape[arg.name] = isNonNullType(arg.type) ? described : described.optional();
  }
  return z.object(shape).strict();
}

/** `list_products` → `McpListProducts`: the operation's name, as logs and metrics show it. */
const operationName = (tool: string) => `Mcp${tool.split('_').map(capitalize).join('')}`;

interface ToolText {
  /** `list_products`. */
  name: string;
  title: string;
  description: string;
}

/** A page of the list field's items; the result is under `resultKey` (default: the field's name). */
export function listTool(spec: ToolText & { field: string; noun: string; resultKey?: string }): McpTool {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    operation: pageQuery(operationName(spec.name), rootField(schema, 'query', spec.field), spec.resultKey),
    input: inputOf(spec.field, spec.noun),
    resultKey: spec.resultKey ?? spec.field,
    headline: pageHeadline(spec.noun),
  });
}

/** One item by the lookup field's arguments (its id). Headline: "Product prd_…." unless given. */
export function itemTool<R extends { id: string }>(
  spec: ToolText & { field: string; noun: string; headline?: (result: R) => string },
): McpTool {
  return defineTool<R>({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    operation: itemQuery(operationName(spec.name), rootField(schema, 'query', spec.field)),
    input: inputOf(spec.field, spec.noun),
    resultKey: spec.field,
    headline: spec.headline ?? ((result) => `${capitalize(spec.noun)} ${result.id}.`),
  });
}
