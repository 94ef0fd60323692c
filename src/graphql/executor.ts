import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute as executeWithGraphqlJs,
  type GraphQLSchema,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

/**
 * The pipeline's executor. A REST route's or MCP tool's fixed document runs as a function graphql-jit
 * compiled from it (once, on its first run): for the product page that is about three quarters of
 * graphql-js' CPU, Prisma included (BASELINE "graphql-jit for the doors' documents"), and the answer
 * is the same. Any other document — /graphql's, which clients vary without end, so compiling each
 * would cost more than it saves — runs on graphql-js. A maintained library: graphql-jit passes
 * graphql-js' own execution tests.
 */
const fixedDocuments = new WeakSet<DocumentNode>();
const compiled = new WeakMap<DocumentNode, { schema: GraphQLSchema; query: CompiledQuery | null }>();

/** A door's fixed operation (src/graphql/operation.ts): the executor compiles it. */
export const markFixed = (document: DocumentNode): void => {
  fixedDocuments.add(document);
};

export function execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  const query = fixedDocuments.has(args.document) ? compiledQuery(args) : null;
  if (!query) return executeWithGraphqlJs(args);
  return query.query(args.rootValue, args.contextValue, args.variableValues ?? {});
}

function compiledQuery(args: ExecutionArgs): CompiledQuery | null {
  let entry = compiled.get(args.document);
  if (entry?.schema !== args.schema) {
    const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    // A document graphql-jit cannot compile (it answers with errors instead) runs on graphql-js.
    entry = { schema: args.schema, query: isCompiledQuery(result) ? result : null };
    compiled.set(args.document, entry);
  }
  return entry.query;
}
