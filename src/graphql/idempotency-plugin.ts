import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  print,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context';
import { classifyError } from '../errors';
import { idempotencyScope } from '../idempotency/reply';
import { beginIdempotent, finishIdempotent, requestHash } from '../idempotency/store';

export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

/**
 * GraphQL's form of Idempotency-Key: a mutation's `idempotencyKey` argument. The first request's
 * execution result is remembered per caller for 24 h and returned again for a repeat with the same
 * operation and variables; another operation under the same key is IDEMPOTENCY_KEY_REUSED, a repeat
 * while the first still runs IDEMPOTENCY_KEY_IN_USE — the same store and rules as REST's header.
 * A result with an unexpected error is not remembered, so the client can retry.
 */
export function useIdempotencyKeyArgument(): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as unknown as Context;
      const operation = mutationOf(args.document, args.operationName ?? undefined);
      const key = operation && keyOf(operation, args.variableValues ?? {});
      const scope = idempotencyScope(ctx.principal);
      if (!operation || !key || !scope) return;
      const record = {
        scope,
        key,
        hash: requestHash(['graphql', print(operation), args.variableValues ?? {}]),
        now: ctx.now(),
      };
      try {
        const begun = await beginIdempotent(ctx.prisma, record);
        if (begun.kind === 'replay') {
          setResultAndStopExecution(begun.body as ExecutionResult);
          return;
        }
      } catch (error) {
        const { appError } = classifyError(error);
        setResultAndStopExecution({
          errors: [
            new GraphQLError(appError.message, {
              extensions: { code: appError.code, details: appError.details },
            }),
          ],
        });
        return;
      }
      return {
        async onExecuteDone({ result }) {
          const single = result as ExecutionResult;
          const errors = single.errors?.map(classifyError) ?? [];
          const remembered = errors.some((e) => e.unexpected)
            ? undefined
            : {
                ...(single.data !== undefined ? { data: JSON.parse(JSON.stringify(single.data)) } : {}),
                ...(errors.length
                  ? {
                      errors: errors.map(({ appError }, i) => ({
                        message: appError.message,
                        locations: single.errors?.[i]?.locations,
                        path: single.errors?.[i]?.path,
                        extensions: {
                          code: appError.code,
                          ...(appError.details ? { details: appError.details } : {}),
                        },
                      })),
                    }
                  : {}),
              };
          await finishIdempotent(ctx.prisma, {
            scope,
            key,
            status: remembered ? 200 : 500,
            body: remembered,
            now: ctx.now(),
          });
        },
      };
    },
  };
}

function mutationOf(
  document: DocumentNode,
  operationName: string | undefined,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  return operation?.operation === 'mutation' ? operation : undefined;
}

/** The key given to the operation's root fields, as a literal or through a variable. */
function keyOf(operation: OperationDefinitionNode, variables: Record<string, unknown>): string | undefined {
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const argument = selection.arguments?.find((a) => a.name.value === IDEMPOTENCY_ARGUMENT);
    if (!argument) continue;
    if (argument.value.kind === Kind.STRING) return argument.value.value;
    if (argument.value.kind === Kind.VARIABLE) {
      const value = variables[argument.value.name.value];
      if (typeof value === 'string') return value;
    }
  }
  return undefined;
}
