import { z } from 'zod';

/**
 * One read-only MCP tool: a named GraphQL query of the schema and the zod schema of its arguments
 * (the operation's variables, by the same names). Its result is the operation's `data`, whose single
 * root field is aliased to `resultKey`; the result's schema is derived from the GraphQL types at
 * start-up (src/mcp/output-schema.ts), and so is the scope it needs.
 */
export interface McpTool {
  name: string;
  title: string;
  /** What the tool returns; "Needs <scope>." is appended from the schema at start-up. */
  description: string;
  /** A GraphQL document with exactly one named query; `...<Type>Fields` selects a resource. */
  operation: string;
  input: z.ZodObject;
  resultKey: string;
  /** One line above the data: counts and ids only, never store text (that stays inside the data block). */
  headline(result: unknown): string;
}

/** What every tool returns in structuredContent when it fails: the REST error envelope's fields. */
const toolErrorSchema = z
  .object({
    code: z.string().describe('The error code, e.g. INSUFFICIENT_SCOPE or NOT_FOUND'),
    status: z.number().int().describe('The HTTP status the same error has on REST'),
    message: z.string(),
    requestId: z.string(),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .describe('Present instead of the result when the tool fails (isError: true)');

export type ToolError = z.output<typeof toolErrorSchema>;

/**
 * structuredContent is `{ [resultKey]: result }` or, on failure, `{ error }`. The SDK's client checks
 * structuredContent against outputSchema even on isError results, so the error form is part of the
 * schema; `oneOf` in the JSON schema (and the refinement here) keeps the two forms exclusive.
 */
export function outputSchema(key: string, result: z.ZodType): z.ZodObject {
  return z
    .object({ [key]: result.optional(), error: toolErrorSchema.optional() })
    .strict()
    .refine((value: Record<string, unknown>) => (value[key] === undefined) !== (value.error === undefined), {
      message: `holds either ${key} or error`,
    })
    .meta({ oneOf: [{ required: [key] }, { required: ['error'] }] });
}

/** Declares a tool; `R` is what its headline reads of the result (the schema guarantees it). */
export function defineTool<R>(
  definition: Omit<McpTool, 'headline'> & { headline: (result: R) => string },
): McpTool {
  return definition as McpTool;
}
