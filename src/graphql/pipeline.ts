import { type Plugin, useEngine } from '@envelop/core';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { Request, Response } from 'express';
import { type DocumentNode, type ExecutionResult, type GraphQLSchema, getOperationAST } from 'graphql';
import { createYoga, type GraphiQLOptions } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { Authenticate } from '../auth/authenticate';
import type { SecretBox } from '../auth/secret-box';
import type { RequestServices } from '../context';
import type { CostBudget } from '../cost/budget';
import type { CostInFlight } from '../cost/in-flight';
import type { QueryLimits } from '../cost/limits';
import { useCostBudget } from '../cost/plugins/cost-budget';
import { useFairShare } from '../cost/plugins/fair-share';
import { useQueryLimits } from '../cost/plugins/query-limits';
import { requestedCost } from '../cost/query-cost';
import type { ReadCache } from '../read-cache/read-cache';
import type { ReadRouting } from '../replica/read-routing';
import { execute } from './executor';
import type { PreparedOperation } from './operation';
import { type DoorRequest, doorContextClass, type PipelineContext } from './pipeline-context';
import { useConditionalRead } from './plugins/conditional-read';
import { maskError, useErrors } from './plugins/errors';
import { useIdempotency } from './plugins/idempotency';
import { useInputBoundary } from './plugins/input-boundary';
import { useReadCache } from './plugins/read-cache';
import { useReadRouting } from './plugins/read-routing';
import { useRequestContext } from './plugins/request-context';

export interface PipelineDeps {
  schema: GraphQLSchema;
  services: RequestServices;
  authenticate: Authenticate;
  readCache: ReadCache;
  limits: QueryLimits;
  /** Each principal's query-cost budget, charged before execution; null: none. */
  costBudget?: CostBudget | null;
  /** Where a query reads (the replica or the primary); null: the primary. */
  readRouting?: ReadRouting | null;
  /** Each store's share of cost executing at once in this process; null: unbounded. */
  costInFlight?: CostInFlight | null;
  logger: Logger;
  graphiql: boolean;
  /** Seals what must not rest in clear (an idempotent answer holding a secret) with the server's key. */
  secretBox: SecretBox;
  /** Beside the pipeline's own concerns (operation metrics). */
  plugins?: Plugin<PipelineContext>[];
}

export interface Pipeline {
  /** The /graphql door: graphql-yoga (GraphQL over HTTP, GraphiQL) on this pipeline. */
  graphql: ReturnType<typeof createYoga<{ req: Request; res: Response }, PipelineContext>>;
  /** Runs a prepared operation as the caller of the door's request: the one call of `execute`. */
  run(prepared: PreparedOperation, variables: Record<string, unknown>, request: DoorRequest): Promise<Ran>;
  /**
   * Runs a /graphql request's operation text like `run`, parsed and validated through the pipeline's
   * hooks (and yoga's cache of both, by text). Undefined, with nothing run, when the text does not
   * parse or validate or does not hold the operation named: yoga answers those, with GraphQL over
   * HTTP's error statuses.
   */
  runText(params: OperationText, request: DoorRequest): Promise<Ran> | undefined;
  /**
   * The cost the query-limits plugin will find for this operation with these variables, when it is
   * within the limit (undefined: it is not, and the operation will be refused): a door that knows
   * it before admission has the cost budget charged in admission's round trip.
   */
  costOf(prepared: PreparedOperation, variables: Record<string, unknown>): number | undefined;
}

/** What the pipeline ran: the result, and the context it ran in (what the plugins noted on it). */
export interface Ran {
  result: ExecutionResult;
  context: PipelineContext;
}

/** A GraphQL-over-HTTP request's operation: its text, the operation's name, its variables. */
export interface OperationText {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** GraphiQL's page, rendered on its first request and kept (every request would render the same). */
let graphiQLPage: string | undefined;
const offlineGraphiQL = (options?: GraphiQLOptions) => {
  graphiQLPage ??= renderGraphiQL(options);
  return graphiQLPage;
};

/**
 * The one execution pipeline of the three doors (envelop, inside graphql-yoga). Each concern that
 * wraps execution is one plugin, in this order (envelop runs onExecute hooks in order, and a plugin
 * that answers stops the ones after it): error logging, the caller's plugins (operation metrics),
 * query limits and cost (refuse early), request context and principal, conditional reads (a 304
 * before anything is spent), the principal's cost budget, the input boundary, read cache, read
 * routing (replica or primary), idempotency, and last the store's fair share of execution (it
 * wraps execution itself). Error masking is yoga's, with our mask. README "Architecture" lists the
 * plugins in the same order (test/install/pipeline-plugins.test.ts).
 */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const logged = new WeakSet<Error>();
  const DoorContext = doorContextClass(deps.services);
  const yoga = createYoga<{ req: Request; res: Response }, PipelineContext>({
    schema: deps.schema,
    graphqlEndpoint: '/graphql',
    graphiql: deps.graphiql
      ? { title: 'Commerce API', headers: JSON.stringify({ 'tt-api-key': 'tt_…' }, null, 2) }
      : false,
    // GraphiQL's page from the installed package (scripts, styles and editor workers inline), so it
    // works without the internet; made once, as it is large (bench/BASELINE.md, "Figures the code's
    // comments relied on").
    renderGraphiQL: offlineGraphiQL,
    landingPage: false,
    logging: false,
    // CORS is the app's, once for all three doors (src/http/cors.ts).
    cors: false,
    batching: false,
    plugins: [
      // So is Cache-Control (no-store, src/http/api-headers.ts): yoga's event streams would say no-cache.
      { onResponse: ({ response }) => response.headers.delete('cache-control') },
      // graphql-jit for the doors' fixed documents, graphql-js for the rest (src/graphql/executor.ts;
      // yoga's default, @graphql-tools/executor, is there for @defer and @stream, which this schema
      // does not offer).
      useEngine({ execute }),
      useErrors(logged),
      ...(deps.plugins ?? []),
      useQueryLimits(deps.schema, deps.limits),
      useRequestContext({ ...deps, DoorContext }),
      useConditionalRead(deps.schema, deps.readCache),
      ...(deps.costBudget ? [useCostBudget(deps.costBudget)] : []),
      useInputBoundary(deps.schema),
      useReadCache(deps.schema, deps.readCache),
      ...(deps.readRouting ? [useReadRouting(deps.readRouting)] : []),
      useIdempotency(deps.schema, deps.secretBox),
      ...(deps.costInFlight ? [useFairShare(deps.costInFlight)] : []),
    ],
    maskedErrors: { maskError: maskError(deps.logger, logged) },
  });

  type Enveloped = ReturnType<typeof yoga.getEnveloped>;
  const envelopedFor = (request: DoorRequest) => yoga.getEnveloped(new DoorContext(request));
  async function execution(
    enveloped: Enveloped,
    document: DocumentNode,
    operationName: string | undefined,
    variables: Record<string, unknown> | null | undefined,
  ): Promise<Ran> {
    const context = (await enveloped.contextFactory()) as PipelineContext;
    const result = (await enveloped.execute({
      schema: enveloped.schema,
      document,
      operationName,
      variableValues: variables,
      contextValue: context,
    })) as ExecutionResult;
    return { result, context };
  }

  return {
    graphql: yoga,
    run(prepared, variables, request) {
      return execution(envelopedFor(request), prepared.document, prepared.operation.name.value, variables);
    },
    costOf(prepared, variables) {
      const cost = requestedCost(deps.schema, prepared.document, prepared.operation, variables);
      return cost <= deps.limits.maxCost ? cost : undefined;
    },
    runText(params, request) {
      const enveloped = envelopedFor(request);
      let document: DocumentNode;
      try {
        document = enveloped.parse(params.query);
      } catch {
        return undefined;
      }
      const operationName = params.operationName ?? undefined;
      if (enveloped.validate(enveloped.schema, document).length > 0) return undefined;
      if (!getOperationAST(document, operationName)) return undefined;
      return execution(enveloped, document, operationName, params.variables);
    },
  };
}
