import { type DocumentNode, type GraphQLSchema, getOperationAST, Kind } from 'graphql';
import { declaredScope, isCacheableRead } from '../field-extensions';

/**
 * The (resource, action) pairs of a query whose every root field is a cacheable read, or null when
 * the operation may not be answered from the read cache (a mutation, an uncacheable or unknown
 * field, fragments at the root). `__typename` beside cacheable fields is allowed.
 */
function cacheableReadScopesOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): string[] | null {
  const operation = getOperationAST(document, operationName);
  const fields = schema.getQueryType()?.getFields();
  if (operation?.operation !== 'query' || !fields) return null;
  const scopes = new Set<string>();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return null;
    if (selection.name.value === '__typename') continue;
    const field = fields[selection.name.value];
    const scope = declaredScope(field);
    if (!isCacheableRead(field) || scope === null) return null;
    scopes.add(scope);
  }
  return scopes.size > 0 ? [...scopes] : null;
}

const memo = new WeakMap<DocumentNode, Map<string, string[] | null>>();

/**
 * cacheableReadScopesOf, remembered per parsed document (the pipeline's parser cache hands out the
 * same document for the same text, and REST routes and MCP tools prepare theirs once).
 */
export function cacheableReadScopes(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName?: string | null,
): string[] | null {
  let byName = memo.get(document);
  if (!byName) {
    byName = new Map();
    memo.set(document, byName);
  }
  const name = operationName ?? '';
  let scopes = byName.get(name);
  if (scopes === undefined) {
    scopes = cacheableReadScopesOf(schema, document, operationName);
    byName.set(name, scopes);
  }
  return scopes;
}
