import { type GraphQLSchema, Kind, type OperationDefinitionNode, parse } from 'graphql';

/**
 * Root fields marked `extensions: { public: true }` (signing in) run without authentication, like
 * REST's `auth: 'none'` routes: a GraphQL request skips it only when every root field it selects is
 * one of them. Anything else is authenticated before execution, exactly as on REST.
 */
export function publicOperationCheck(schema: GraphQLSchema) {
  const publicFields = new Set<string>();
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (field.extensions?.public === true) publicFields.add(`${root?.name}.${field.name}`);
    }
  }
  const typeName = { query: schema.getQueryType()?.name, mutation: schema.getMutationType()?.name } as const;
  const publicNames = [...new Set([...publicFields].map((name) => name.split('.')[1] as string))];

  return (body: unknown): boolean => {
    if (publicFields.size === 0 || typeof body !== 'object' || body === null) return false;
    const { query, operationName } = body as { query?: unknown; operationName?: unknown };
    if (typeof query !== 'string' || query.length > 10_000) return false;
    // A document that does not even contain a public field's name cannot select it: no parse needed
    // (every other request is parsed once, by yoga, with its cache).
    if (!publicNames.some((name) => query.includes(name))) return false;
    let operations: OperationDefinitionNode[];
    try {
      operations = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    } catch {
      return false;
    }
    const operation =
      operations.length === 1 ? operations[0] : operations.find((o) => o.name?.value === operationName);
    if (!operation || operation.operation === 'subscription') return false;
    const rootName = typeName[operation.operation];
    return operation.selectionSet.selections.every(
      (selection) =>
        selection.kind === Kind.FIELD &&
        (selection.name.value === '__typename' || publicFields.has(`${rootName}.${selection.name.value}`)),
    );
  };
}
