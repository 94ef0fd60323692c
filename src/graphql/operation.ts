import {
  type DocumentNode,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from 'graphql';
import { markFixed } from './executor';
import { expandResourceFragments } from './resource-fragment';

/** A REST route's or MCP tool's operation, parsed and validated once, at start-up. */
export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode & { name: NonNullable<OperationDefinitionNode['name']> };
}

/**
 * A fixed operation (a REST route's or an MCP tool's), parsed and validated against the schema once
 * at start-up: exactly one named operation, or `fail` with why. (That each is within the query
 * limits is proven by test/cost/limits.test.ts, for the largest variables it can be given.)
 */
export function compileOperation(
  schema: GraphQLSchema,
  source: string,
  fail: (message: string) => never,
): PreparedOperation {
  const document = parse(expandResourceFragments(schema, source));
  const errors = validate(schema, document);
  if (errors.length > 0) fail(errors.map((e) => e.message).join('; '));
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operations[0];
  if (operations.length !== 1 || !operation?.name) return fail('needs exactly one named operation');
  markFixed(document);
  return {
    document,
    operation: operation as OperationDefinitionNode & { name: NonNullable<OperationDefinitionNode['name']> },
  };
}
