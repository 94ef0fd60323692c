import { type GraphQLSchema, getNamedType, isEnumType, Kind, typeFromAST } from 'graphql';
import { z } from 'zod';
import { declaredScope } from '../field-extensions';
import { compileOperation, type PreparedOperation } from '../graphql/operation';
import { outputSchemaOf } from './output-schema';
import { type McpTool, outputSchema } from './tool';

export interface CompiledTool extends PreparedOperation {
  tool: McpTool;
  /** structuredContent's schema: the result derived from the GraphQL types, or the error. */
  output: z.ZodObject;
  /** The (resource, action) pair the operation's root field declares, e.g. PRODUCTS:READ. */
  scope: string;
  /** The tool description with the scope it needs. */
  description: string;
}

/**
 * Parses and validates each tool's operation once, at start-up, and checks it against the tool's
 * input schema: the same variables, required where the operation requires them, the same enum
 * values. A tool that drifted from the schema fails loudly here, not in a conversation.
 */
export function compileTools(schema: GraphQLSchema, tools: readonly McpTool[]): CompiledTool[] {
  const names = new Set<string>();
  return tools.map((tool) => {
    if (names.has(tool.name)) throw new Error(`MCP tool ${tool.name}: declared twice`);
    names.add(tool.name);
    return compileTool(schema, tool);
  });
}

function compileTool(schema: GraphQLSchema, tool: McpTool): CompiledTool {
  const fail = (message: string): never => {
    throw new Error(`MCP tool ${tool.name}: ${message}`);
  };
  const { document, operation } = compileOperation(schema, tool.operation, fail);
  if (operation.operation !== 'query') fail('needs exactly one named query');

  const roots = operation.selectionSet.selections;
  const root = roots[0];
  if (roots.length !== 1 || root?.kind !== Kind.FIELD) return fail('must select exactly one root field');
  if ((root.alias ?? root.name).value !== tool.resultKey)
    fail(`the root field answers as ${(root.alias ?? root.name).value}, not ${tool.resultKey}`);
  const field = schema.getQueryType()?.getFields()[root.name.value];
  const scope = declaredScope(field) ?? fail('its root field declares no scope');

  const inputShape = tool.input.shape as Record<string, z.ZodType>;
  const variables = new Set<string>();
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    variables.add(name);
    const input = inputShape[name] ?? fail(`the input schema lacks $${name}`);
    const required = definition.type.kind === Kind.NON_NULL_TYPE;
    if (required === input.safeParse(undefined).success)
      fail(`$${name} is ${required ? '' : 'not '}required by the operation but not by the input schema`);
    const type = typeFromAST(schema, definition.type);
    const named = type && getNamedType(type);
    if (isEnumType(named)) {
      const expected = named.getValues().map((v) => v.value as string);
      const actual = enumValuesOf(input);
      if (!actual || actual.length !== expected.length || !expected.every((v) => actual.includes(v)))
        fail(`$${name} must be a zod enum of ${expected.join(', ')}`);
    }
  }
  for (const name of Object.keys(inputShape))
    if (!variables.has(name)) fail(`the operation declares no $${name} for the input ${name}`);

  return {
    tool,
    output: outputSchema(tool.resultKey, outputSchemaOf(schema, root)),
    document,
    operation,
    scope,
    description: `${tool.description} Read-only. Needs the ${scope} scope.`,
  };
}

function enumValuesOf(schema: z.ZodType): readonly string[] | undefined {
  const inner = schema instanceof z.ZodOptional ? schema.unwrap() : schema;
  return inner instanceof z.ZodEnum ? (inner.options as string[]) : undefined;
}
