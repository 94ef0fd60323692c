import { type Plugin, useEngine } from '@envelop/core';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { Request, Response } from 'express';
import { type ExecutionResult, execute, type GraphQLSchema } from 'graphql';
import { createYoga, type GraphiQLOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { CostBudget } from '../admission/cost-budget';
import type { CostInFlight } from '../admission/cost-in-flight';
import type { Authenticate } from '../auth/authenticate';
import type { RequestServices } from '../context';
import type { ReadCache } from '../read-cache/read-cache';
import type { QueryLimits } from './limits';
import type { PreparedOperation } from './operation';
import type { DoorRequest, PipelineContext } from './pipeline-context';
import { useCostBudget } from './plugins/cost-budget';
import { maskError, useErrors } from './plugins/errors';
import { useFairShare } from './plugins/fair-share';
import { useIdempotency } from './plugins/idempotency';
import { useInputBoundary } from './plugins/input-boundary';
import { useQueryLimits } from './plugins/query-limits';
import { useReadCache } from './plugins/read-cache';
import { DoorContext, useRequestContext } from './plugins/request-context';

export interface PipelineDeps {
  schema: GraphQLSchema;
  services: RequestServices;
  authenticate: Authenticate;
  readCache: ReadCache;
  limits: QueryLimits;
  /** Each principal's query-cost budget, charged before execution; null: none. */
  costBudget?: CostBudget | null;
  /** Each store's share of cost executing at once in this process; null: unbounded. */
  costInFlight?: CostInFlight | null;
  logger: Logger;
  graphiql: boolean;
  /** Beside the pipeline's own concerns (operation metrics). */
  plugins?: Plugin<PipelineContext>[];
}

export interface Pipeline {
  /** The /graphql door: graphql-yoga (GraphQL over HTTP, GraphiQL) on this pipeline. */
  graphql: ReturnType<typeof createYoga<{ req: Request; res: Response }, PipelineContext>>;
  /** Runs a prepared operation as the caller of the door's request: the one call of `execute`. */
  run(
    prepared: PreparedOperation,
    variables: Record<string, unknown>,
    request: DoorRequest,
  ): Promise<{ result: ExecutionResult; context: PipelineContext }>;
}

/**
 * The one execution pipeline of the three doors (envelop, inside graphql-yoga). Each concern that
 * wraps execution is one plugin, in this order (envelop runs onExecute hooks in order, and a plugin
 * that answers stops the ones after it): error logging, then query limits and cost (refuse early),
 * request context and principal, the principal's cost budget, read cache, idempotency, and last the
 * store's fair share of execution (it wraps execution itself). Error masking is yoga's, with our mask.
 */
let graphiQLPage: string | undefined;
const offlineGraphiQL = (options?: GraphiQLOptions) => {
  graphiQLPage ??= renderGraphiQL(options);
  return graphiQLPage;
};

export function createPipeline(deps: PipelineDeps): Pipeline {
  const logged = new WeakSet<Error>();
  const yoga = createYoga<{ req: Request; res: Response }, PipelineContext>({
    schema: deps.schema,
    graphqlEndpoint: '/graphql',
    graphiql: deps.graphiql
      ? { title: 'Commerce API', headers: JSON.stringify({ 'tt-api-key': 'tt_…' }, null, 2) }
      : false,
    // GraphiQL's page from the installed package (scripts, styles and editor workers inline), so it
    // works without the internet; made once, it is about 9 MB.
    renderGraphiQL: offlineGraphiQL,
    landingPage: false,
    logging: false,
    // CORS is the app's, once for all three doors (src/http/cors.ts).
    cors: false,
    batching: false,
    plugins: [
      // graphql-js's own executor, as REST and MCP used before the pipeline (yoga's default,
      // @graphql-tools/executor, is there for @defer and @stream, which this schema does not offer).
      useEngine({ execute }),
      useErrors(logged),
      ...(deps.plugins ?? []),
      useQueryLimits(deps.schema, deps.limits),
      useRequestContext(deps),
      ...(deps.costBudget ? [useCostBudget(deps.costBudget)] : []),
      useInputBoundary(deps.schema),
      useReadCache(deps.schema, deps.readCache),
      useIdempotency(),
      ...(deps.costInFlight ? [useFairShare(deps.costInFlight)] : []),
    ],
    maskedErrors: { maskError: maskError(deps.logger, logged) },
  });

  return {
    graphql: yoga,
    async run(prepared, variables, request) {
      const enveloped = yoga.getEnveloped(new DoorContext(request) as unknown as PipelineContext);
      const context = (await enveloped.contextFactory()) as PipelineContext;
      const result = (await enveloped.execute({
        schema: enveloped.schema,
        document: prepared.document,
        operationName: prepared.operation.name.value,
        variableValues: variables,
        contextValue: context,
      })) as ExecutionResult;
      return { result, context };
    },
  };
}
