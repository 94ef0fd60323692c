import {
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  execute as executeWithGraphqlJs,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  Kind,
  locatedError,
  type SelectionSetNode,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';

/**
 * The pipeline's executor. A document runs as a function graphql-jit compiled from it once it is
 * known to be worth it: a REST route's or MCP tool's fixed document from its first run, a /graphql
 * document from its HOT_AFTER-th (clients may vary documents without end, and a compilation costs
 * several runs' worth of what it saves on each). Until then, and for a document graphql-jit cannot
 * compile, graphql-js runs it. On the product page's document graphql-jit needs clearly less CPU than
 * graphql-js above the resolvers' read, with the same answer (bench/executor.ts; bench/BASELINE.md,
 * "Figures the code's comments relied on"). A maintained library: graphql-jit is tested against graphql-js' own execution tests.
 */
export const HOT_AFTER = 20;

const fixedDocuments = new WeakSet<DocumentNode>();
/** How often each /graphql document ran uncompiled (yoga's parser cache hands out one per text). */
const runs = new WeakMap<DocumentNode, number>();
const compiled = new WeakMap<
  DocumentNode,
  Map<string, { schema: GraphQLSchema; query: CompiledQuery | null }>
>();

/** A door's fixed operation (src/graphql/operation.ts): compiled from its first run. */
export const markFixed = (document: DocumentNode): void => {
  fixedDocuments.add(document);
};

export function execute(args: ExecutionArgs): Promise<ExecutionResult> | ExecutionResult {
  const query = compiledQuery(args);
  if (!query) return executeWithGraphqlJs(args);
  const result = query.query(args.rootValue, args.contextValue, args.variableValues ?? {});
  return result instanceof Promise ? result.then((done) => located(args, done)) : located(args, result);
}

function compiledQuery(args: ExecutionArgs): CompiledQuery | null {
  const { document, schema } = args;
  const operationName = args.operationName ?? '';
  const known = compiled.get(document)?.get(operationName);
  if (known?.schema === schema) return known.query;
  if (!fixedDocuments.has(document)) {
    const count = (runs.get(document) ?? 0) + 1;
    runs.set(document, count);
    if (count < HOT_AFTER) return null;
  }
  const result = compileQuery(schema, document, args.operationName ?? undefined);
  // A document graphql-jit cannot compile (it answers with errors instead) stays on graphql-js.
  const query = isCompiledQuery(result) ? result : null;
  let byOperation = compiled.get(document);
  if (!byOperation) {
    byOperation = new Map();
    compiled.set(document, byOperation);
  }
  byOperation.set(operationName, { schema, query });
  return query;
}

/**
 * A graphql-jit result as graphql-js would have made it, so an answer is the same, byte for byte,
 * whichever executor made it: `errors` before `data` (graphql-jit writes them the other way round),
 * and each error raised in a resolver with its field's node in the document, from which its
 * `locations` come, also when our mask re-makes the error (graphql-jit gives it locations without
 * nodes: the node is found again from the error's path).
 */
function located(args: ExecutionArgs, result: ExecutionResult): ExecutionResult {
  if (!result.errors) return result;
  const { errors: raised, data, ...rest } = result;
  const errors = withNodes(args, raised);
  return { errors, data, ...rest };
}

function withNodes(args: ExecutionArgs, errors: ReadonlyArray<GraphQLError>): ReadonlyArray<GraphQLError> {
  if (!errors.some((error) => !error.nodes && error.path)) return errors;
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return errors;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of args.document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return errors.map((error): GraphQLError => {
    if (error.nodes || !error.path) return error;
    const node = fieldAt(operation.selectionSet, error.path, fragments);
    return node ? locatedError(error.originalError ?? error, [node], error.path) : error;
  });
}

/** The field node a response path leads to (list indexes skipped; fragments looked through). */
function fieldAt(
  selectionSet: SelectionSetNode,
  path: ReadonlyArray<string | number>,
  fragments: Map<string, FragmentDefinitionNode>,
): FieldNode | undefined {
  const [key, ...rest] = path;
  if (typeof key === 'number') return fieldAt(selectionSet, rest, fragments);
  for (const selection of selectionSet.selections) {
    let found: FieldNode | undefined;
    if (selection.kind === Kind.FIELD) {
      if ((selection.alias ?? selection.name).value !== key) continue;
      const further = rest.filter((step) => typeof step === 'string');
      found =
        further.length === 0
          ? selection
          : selection.selectionSet && fieldAt(selection.selectionSet, rest, fragments);
    } else {
      const inner =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection.selectionSet
          : fragments.get(selection.name.value)?.selectionSet;
      found = inner && fieldAt(inner, path, fragments);
    }
    if (found) return found;
  }
  return undefined;
}
