import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createRestHandler } from '../rest/adapter';
import { readJsonBody } from '../rest/body';
import { buildOpenApiDocument } from '../rest/openapi';
import { routeTable } from '../rest/routes';
import type { Config } from './config';
import { AppError, classifyError } from './errors';
import { publicOperationCheck } from './graphql/public-operations';
import { type CacheableRead, graphQLReadCache } from './graphql/read-cache';
import { createGraphQLHandler } from './graphql/yoga';
import { healthRouter } from './http/health';
import { createMetrics } from './http/metrics';
import { requestState } from './http/request-state';
import { sendGraphQLError, sendRestError } from './http/respond';
import { createMcpHandler } from './mcp/http';
import { mcpTools } from './mcp/tools';
import type { Runtime } from './runtime';
import { schema } from './schema';

export interface AppDeps {
  config: Config;
  redis: Redis | null;
  logger: Logger;
  runtime: Runtime;
}

/** Assembles the HTTP app: /graphql, /api/v1, /mcp, health. Listening is main.ts's job. */
export function createApp(deps: AppDeps): Express {
  const { services, authenticate } = deps.runtime;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');
  app.use(requestState(deps.logger));
  const metrics = createMetrics({
    prisma: services.prisma,
    token: deps.config.metricsToken,
    // Process metrics are global to Node; tests build many apps in one process.
    processMetrics: deps.config.env !== 'test',
  });
  app.use(metrics.observe);

  const readBody = readJsonBody(deps.config.bodyLimitBytes);
  // Before the /api/v1 handler, which would answer /api/v1/mcp as an unknown route.
  const mcp = createMcpHandler({
    services,
    authenticate,
    schema,
    tools: mcpTools,
    readBody,
  });
  app.all(['/mcp', '/api/v1/mcp'], mcp);

  const openApi = buildOpenApiDocument(schema, routeTable, '1.0.0');
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  app.use(
    '/api/v1',
    createRestHandler({
      services,
      authenticate,
      schema,
      readCache: deps.runtime.readCache,
      routes: routeTable,
      bodyLimitBytes: deps.config.bodyLimitBytes,
    }),
  );

  const readCache = graphQLReadCache(schema, deps.runtime.readCache);
  const graphql = createGraphQLHandler({
    services,
    schema,
    logger: deps.logger,
    graphiql: deps.config.graphiql,
    readCachePlugin: readCache.plugin(),
  });
  const isPublicOperation = publicOperationCheck(schema);
  app.use('/graphql', async (req, res) => {
    // GraphiQL's page itself needs no key; the queries it sends do.
    if (deps.config.graphiql && req.method === 'GET' && req.accepts(['json', 'html']) === 'html') {
      return graphql(req, res);
    }
    try {
      if (req.method === 'POST') await readBody(req, res);
      // Signing in needs no credential, and a stale session cookie must not stand in its way.
      let read: CacheableRead | undefined;
      const isCacheableRead = () => {
        read = readCache.readOf(req);
        return read !== undefined;
      };
      if (!isPublicOperation(req.body)) await authenticate(req, res, { isCacheableRead });
      if (read && readCache.answer(req, res, read)) return;
    } catch (error) {
      const { appError, unexpected } = classifyError(error);
      if (unexpected) req.state.log.error({ err: error }, 'unexpected error before GraphQL execution');
      return sendGraphQLError(res, appError);
    }
    return graphql(req, res);
  });

  // After the doors, which most requests are for: express tries its layers in order.
  app.get('/metrics', metrics.serve);
  app.use(healthRouter({ prisma: services.prisma, redis: deps.redis }));

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
