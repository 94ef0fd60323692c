import type { Request, RequestHandler, Response } from 'express';
import { execute, type GraphQLSchema } from 'graphql';
import type { Authenticate } from '../src/auth/authenticate';
import type { RequestServices } from '../src/context';
import { AppError, classifyError, errorEnvelope } from '../src/errors';
import { contextFromRequest } from '../src/graphql/context';
import { sendRestError } from '../src/http/respond';
import { type Reply, withIdempotency } from '../src/idempotency/reply';
import { type CachedAnswer, cachedAnswer } from '../src/read-cache/answer';
import type { ReadCache, ReadLookup } from '../src/read-cache/read-cache';
import { readJsonBody } from './body';
import { type CompiledRoute, compileRoutes, matchRoute } from './compile';
import { successEnvelope } from './envelope';
import type { RestRoute } from './route';
import { variablesFor } from './variables';

export interface RestDeps {
  services: RequestServices;
  authenticate: Authenticate;
  schema: GraphQLSchema;
  readCache: ReadCache;
  routes: readonly RestRoute[];
  bodyLimitBytes: number;
}

/**
 * /api/v1: each request is matched to one table entry and answered by running its GraphQL operation.
 * One handler (mount it at /api/v1), which matches the table itself: no express router in between.
 */
export function createRestHandler(deps: RestDeps): RequestHandler {
  const compiled = compileRoutes(deps.schema, deps.routes);
  const readBody = readJsonBody(deps.bodyLimitBytes);

  const handler = async (req: Request, res: Response) => {
    try {
      const match = matchRoute(compiled, req.method, req.path);
      if (match.kind === 'not-found') {
        return sendRestError(res, new AppError('NOT_FOUND', `No route ${req.method} /api/v1${req.path}`));
      }
      if (match.kind === 'method-not-allowed') {
        res.setHeader('Allow', match.allowed.join(', '));
        const allowed = match.allowed.join(', ');
        return sendRestError(
          res,
          new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed here; use ${allowed}`),
        );
      }
      const { compiled: entry, params } = match;
      req.state.route = `/api/v1${entry.route.path}`;
      if (entry.route.auth !== 'none')
        await deps.authenticate(req, res, { isCacheableRead: () => entry.readScopes !== null });
      // Only routes that take a body read one; any other body is left unread, as HTTP allows.
      if (entry.route.body) await readBody(req, res);
      const variables = variablesFor(entry, params, req.query as Record<string, unknown>, req.body);
      const cached: ReadLookup = entry.readScopes
        ? deps.readCache.lookup(
            req.state.principal,
            req.state.dataVersion,
            `rest ${entry.route.path} ${JSON.stringify(variables)}`,
            entry.readScopes,
          )
        : { kind: 'off' };
      if (entry.readScopes) req.state.readCache = cached.kind;
      if (cached.kind === 'hit') return sendAnswer(res, 200, cached.answer);
      const idempotencyKey = req.get('idempotency-key');
      const reply =
        idempotencyKey !== undefined && (req.method === 'POST' || req.method === 'PATCH')
          ? await withIdempotency(
              deps.services,
              {
                key: idempotencyKey,
                principal: req.state.principal,
                request: [req.method, req.path, variables],
              },
              () => run(entry, variables, req),
              (replayed) => res.setHeader('Idempotent-Replayed', String(replayed)),
            )
          : await run(entry, variables, req);
      if (cached.kind === 'miss' && !reply.error && reply.body !== undefined) {
        const answer = cachedAnswer(JSON.stringify(reply.body), (body) => res.app.get('etag fn')?.(body));
        cached.remember(answer);
        return sendAnswer(res, reply.status, answer);
      }
      send(res, reply);
    } catch (error) {
      send(res, errorReply(error, req));
    }
  };
  return handler;

  /** Runs the route's operation; the answer is a status and a body, whatever happened. */
  async function run(entry: CompiledRoute, variables: Record<string, unknown>, req: Request): Promise<Reply> {
    const result = await execute({
      schema: deps.schema,
      document: entry.document,
      operationName: entry.operationName,
      variableValues: variables,
      contextValue: contextFromRequest(deps.services, req),
    });
    if (entry.operation.operation === 'mutation') await deps.readCache.afterMutation(req.state.principal);
    if (result.errors?.length) return errorReply(result.errors[0], req);
    const { result: shape } = entry.route;
    if (shape.kind === 'empty') return { status: entry.route.status ?? 204, body: undefined };
    return {
      status: entry.route.status ?? 200,
      body: successEnvelope(shape, result.data as Record<string, unknown>),
    };
  }
}

function errorReply(error: unknown, req: Request): Reply {
  const { appError, unexpected } = classifyError(error);
  if (unexpected) req.state.log.error({ err: error }, 'unexpected error in REST request');
  return { status: appError.status, body: errorEnvelope(appError, req.state.requestId), error: appError };
}

/**
 * A prepared answer: what res.json would send (headers, ETag made by the app's own function,
 * 304 to a matching If-None-Match, no body for HEAD) without serializing or hashing again.
 */
function sendAnswer(res: Response, status: number, answer: CachedAnswer): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (answer.etag !== undefined) res.setHeader('ETag', answer.etag);
  res.status(status).send(answer.body);
}

function send(res: Response, reply: Reply): void {
  if (reply.error) {
    sendRestError(res, reply.error);
    return;
  }
  if (reply.body === undefined) {
    res.status(reply.status).end();
    return;
  }
  res.status(reply.status).json(reply.body);
}
