import { type DocumentNode, type GraphQLField, type GraphQLSchema, getOperationAST, Kind } from 'graphql';
import { declaredScope, isCacheableRead, isVersionedRead } from '../field-extensions';

type RootFieldTest = (field: GraphQLField<unknown, unknown> | undefined) => boolean;

/**
 * The (resource, action) pairs of a query whose every root field passes `test`, or null when one
 * does not (a mutation, another or an unknown field, fragments at the root). `__typename` beside
 * such fields is allowed.
 */
function rootFieldScopesOf(
  test: RootFieldTest,
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
    if (!test(field) || scope === null) return null;
    scopes.add(scope);
  }
  return scopes.size > 0 ? [...scopes] : null;
}

/**
 * rootFieldScopesOf for one test, remembered per parsed document (the pipeline's parser cache hands
 * out the same document for the same text, and REST routes and MCP tools prepare theirs once).
 */
function remembered(test: RootFieldTest) {
  const memo = new WeakMap<DocumentNode, Map<string, string[] | null>>();
  return (schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): string[] | null => {
    let byName = memo.get(document);
    if (!byName) {
      byName = new Map();
      memo.set(document, byName);
    }
    const name = operationName ?? '';
    let scopes = byName.get(name);
    if (scopes === undefined) {
      scopes = rootFieldScopesOf(test, schema, document, operationName);
      byName.set(name, scopes);
    }
    return scopes;
  };
}

/** The pairs of a query the read cache may answer (every root field a `cacheableRead`), else null. */
export const cacheableReadScopes = remembered(isCacheableRead);

/**
 * The pairs of a query the store's data version vouches for (every root field a `versionedRead` or
 * `cacheableRead`), else null: its ETag is the version tag, its 304 comes before any resolver.
 */
export const versionedReadScopes = remembered(isVersionedRead);
