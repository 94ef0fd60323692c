import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { createRestHandler } from '../rest/adapter';
import { readJsonBody } from '../rest/body';
import { compileRoutes } from '../rest/compile';
import { buildOpenApiDocument } from '../rest/openapi';
import { routeTable } from '../rest/routes';
import { createSecretBox } from './auth/secret-box';
import type { Config } from './config';
import { CostInFlight } from './cost/in-flight';
import { AppError, classifyError } from './errors';
import { createGraphQLDoor } from './graphql/http';
import { createPipeline } from './graphql/pipeline';
import { useOperationMetrics } from './graphql/plugins/metrics';
import { useRequestLogNotes } from './graphql/plugins/request-log';
import { apiHeaders, varyByCaller } from './http/api-headers';
import { corsFor } from './http/cors';
import { dashboardRouter } from './http/dashboard';
import { healthRouter } from './http/health';
import { inTurn } from './http/in-turn';
import { createMetrics } from './http/metrics';
import { referenceRouter } from './http/reference';
import { requestState } from './http/request-state';
import { sendRestError } from './http/respond';
import { compileTools } from './mcp/compile';
import { createMcpHandler } from './mcp/http';
import { mcpTools } from './mcp/tools';
import type { RedisClient } from './redis';
import type { Runtime } from './runtime';
import { schema } from './schema';

export interface AppDeps {
  config: Config;
  redis: RedisClient | null;
  logger: Logger;
  runtime: Runtime;
}

/**
 * Assembles the HTTP app: the three doors (/graphql, /api/v1, /mcp) on one execution pipeline, CORS
 * once in front of them, health and metrics, and the store dashboard at `/`. Listening is main.ts's job.
 */
export function createApp(deps: AppDeps): Express {
  const { config } = deps;
  const { services, authenticate, readCache } = deps.runtime;
  const app = express();
  app.disable('x-powered-by');
  // ETags are the doors' (README "Conditional requests"): reads only, never an error or a write.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  const metrics = createMetrics({
    prisma: services.prisma,
    ...config.metrics,
    now: () => services.now().getTime(),
    // Process metrics are global to Node; tests build many apps in one process.
    processMetrics: config.env !== 'test',
    requestLogDropped: () => deps.runtime.requestLog.dropped(),
  });
  // Every request's headers, id and log line, and metrics, in this order: one layer (src/http/in-turn.ts).
  app.use(inTurn(apiHeaders, requestState(deps.logger, deps.runtime.requestLog), metrics.observe));
  app.use(['/graphql', '/api/v1', '/mcp'], inTurn(varyByCaller, corsFor(config.corsOrigins)));

  const pipeline = createPipeline({
    schema,
    services,
    authenticate,
    readCache,
    limits: config.queryLimits,
    costBudget: deps.runtime.costBudget,
    readRouting: deps.runtime.readRouting,
    costInFlight: config.storeMaxCostInFlight > 0 ? new CostInFlight(config.storeMaxCostInFlight) : null,
    logger: deps.logger,
    graphiql: config.graphiql,
    secretBox: createSecretBox(config.webhook.secretKey),
    plugins: [useOperationMetrics(metrics), useRequestLogNotes()],
  });
  const readBody = readJsonBody(config.bodyLimitBytes);

  // Before the /api/v1 handler, which would answer /api/v1/mcp as an unknown route.
  const mcp = createMcpHandler({
    pipeline,
    authenticate,
    tools: compileTools(schema, mcpTools),
    readBody,
    sessionCookieName: deps.runtime.sessionCookie.name,
  });
  app.all(['/mcp', '/api/v1/mcp'], mcp);

  const openApi = buildOpenApiDocument(schema, routeTable, '1.0.0');
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  const routes = compileRoutes(schema, routeTable);
  app.use(
    '/api/v1',
    createRestHandler({ pipeline, authenticate, routes, bodyLimitBytes: config.bodyLimitBytes }),
  );

  app.use('/graphql', createGraphQLDoor({ pipeline, readBody, lean: config.graphqlLeanPost }));

  // After the doors, which most requests are for: express tries its layers in order.
  app.get('/metrics', metrics.serve);
  app.use(healthRouter({ prisma: services.prisma, redis: deps.redis }));
  app.use(referenceRouter());
  // The store dashboard at `/` and its deep links: the last thing before the JSON 404.
  app.use(dashboardRouter());

  // Whatever no door answered, and any error that escaped one, still gets the JSON error envelope.
  app.use((req, res) => {
    sendRestError(res, new AppError('NOT_FOUND', `No route ${req.method} ${req.path}`));
  });
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { appError, unexpected } = classifyError(error);
    if (unexpected) req.state.log.error({ err: error }, 'unexpected error outside the doors');
    if (res.headersSent) return res.end();
    sendRestError(res, appError);
  });
  return app;
}
