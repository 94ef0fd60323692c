import type { Request, Response } from 'express';
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { createYoga, handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Context, RequestServices } from '../context';
import { classifyError } from '../errors';
import { contextFromRequest } from './context';
import { useIdempotencyKeyArgument } from './idempotency-plugin';

interface ServerContext {
  req: Request;
  res: Response;
}

/**
 * graphql-yoga at /graphql. Coded errors keep their code in extensions.code; anything unexpected is
 * logged with the request id and reaches the client only as INTERNAL_ERROR (no stack, SQL or path).
 */
export function createGraphQLHandler(deps: {
  services: RequestServices;
  schema: GraphQLSchema;
  logger: Logger;
  graphiql: boolean;
  /** Runs beside the others: the read cache's remembering and invalidation. */
  readCachePlugin: Plugin<Context & { req?: Request }>;
}) {
  const logged = new WeakSet<Error>();
  return createYoga<ServerContext>({
    schema: deps.schema,
    graphqlEndpoint: '/graphql',
    graphiql: deps.graphiql ? { title: 'Commerce API', headers: '{ "tt-api-key": "tt_…" }' } : false,
    landingPage: false,
    logging: false,
    context: ({ req }) => contextFromRequest(deps.services, req),
    // The read cache first: envelop runs onExecuteDone hooks in this order, and a mutation's store
    // data version must be replaced before the idempotency record makes its answer replayable.
    plugins: [
      deps.readCachePlugin,
      useValidationErrorCode(),
      useIdempotencyKeyArgument(),
      useLogUnexpectedErrors(logged),
    ],
    maskedErrors: {
      maskError: (error) => {
        const { appError, unexpected } = classifyError(error);
        const graphQLError = error instanceof GraphQLError ? error : undefined;
        if (unexpected && !logged.has(error as Error))
          deps.logger.error({ err: error }, 'unexpected error in GraphQL execution');
        const http = graphQLError?.extensions?.http;
        return new GraphQLError(appError.message, {
          nodes: graphQLError?.nodes,
          source: graphQLError?.source,
          positions: graphQLError?.positions,
          path: graphQLError?.path,
          extensions: {
            code: appError.code,
            ...(appError.details ? { details: appError.details } : {}),
            ...(http ? { http } : {}),
          },
        });
      },
    },
  });
}

/**
 * maskError has no request context, so unexpected execution errors are logged here first, with the
 * request's logger (request id, key id), and remembered so that maskError does not log them again.
 */
function useLogUnexpectedErrors(logged: WeakSet<Error>): Plugin<Context> {
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ result }) => {
          for (const error of result.errors ?? []) {
            if (!classifyError(error).unexpected) continue;
            args.contextValue.log.error({ err: error }, 'unexpected error in GraphQL execution');
            logged.add(error);
          }
        }),
    }),
  };
}

/** Query validation failures carry DESIGN's VALIDATION_ERROR code, like every other invalid input. */
function useValidationErrorCode(): Plugin {
  return {
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length === 0) return;
        setResult(
          result.map(
            (error) =>
              new GraphQLError(error.message, {
                nodes: error.nodes,
                source: error.source,
                positions: error.positions,
                extensions: { ...error.extensions, code: 'VALIDATION_ERROR' },
              }),
          ),
        );
      },
  };
}
