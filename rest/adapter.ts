import type { Request, RequestHandler, Response } from 'express';
import type { ExecutionResult } from 'graphql';
import type { Authenticate } from '../src/auth/authenticate';
import { AppError, classifyError } from '../src/errors';
import type { Pipeline } from '../src/graphql/pipeline';
import { isNotModified } from '../src/graphql/plugins/conditional-read';
import { cachedResultOf } from '../src/graphql/plugins/read-cache';
import { sendRestError } from '../src/http/respond';
import { type CachedAnswer, cachedAnswer } from '../src/read-cache/answer';
import { contentTag } from '../src/read-cache/etag';
import { readJsonBody } from './body';
import { type CompiledRoute, matchRoute } from './compile';
import { successEnvelope } from './envelope';
import { variablesFor } from './variables';

export interface RestDeps {
  pipeline: Pipeline;
  authenticate: Authenticate;
  routes: readonly CompiledRoute[];
  bodyLimitBytes: number;
}

/**
 * /api/v1, a door onto the pipeline: each request is matched to one table entry, authenticated (before
 * its body is read, in the check order of docs/design.md "API keys"), and its path, query and body
 * become the variables of the entry's operation; the result becomes the REST envelope and status
 * (docs/design.md "Envelopes"). Everything else — limits,
 * read cache, idempotency, errors — is the pipeline's. One handler (mount it at /api/v1).
 */
export function createRestHandler(deps: RestDeps): RequestHandler {
  const readBody = readJsonBody(deps.bodyLimitBytes);

  return async (req: Request, res: Response) => {
    try {
      const match = matchRoute(deps.routes, req.method, req.path);
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
      // A route without a body has its variables, and so its cost, before admission; a bad
      // parameter is answered after authentication all the same (the check order of docs/design.md "API keys").
      const early = entry.route.body ? undefined : attempt(() => variablesOf(entry, params, req));
      let requestedCost: number | undefined;
      await deps.authenticate(req, res, {
        isPublic: entry.route.auth === 'none',
        isWrite: () => req.method !== 'GET' && req.method !== 'HEAD',
        isVersionedRead: () => entry.readScopes !== null,
        cost: () => {
          requestedCost = early?.ok ? deps.pipeline.costOf(entry, early.value) : undefined;
          return requestedCost;
        },
      });
      // Only routes that take a body read one; any other body is left unread, as HTTP allows.
      if (entry.route.body) await readBody(req, res);
      if (early && !early.ok) throw early.error;
      const variables = early ? early.value : variablesOf(entry, params, req);
      const idempotencyKey =
        req.method === 'POST' || req.method === 'PATCH' ? req.get('idempotency-key') : undefined;
      const { result, context } = await deps.pipeline.run(entry, variables, {
        req,
        res,
        door: 'rest',
        idempotencyKey,
        requestedCost,
      });
      if (context.idempotentReplay !== undefined)
        res.setHeader('Idempotent-Replayed', String(context.idempotentReplay));
      send(res, entry, result);
    } catch (error) {
      const { appError, unexpected } = classifyError(error);
      if (unexpected) req.state.log.error({ err: error }, 'unexpected error in REST request');
      sendRestError(res, appError);
    }
  };
}

const variablesOf = (entry: CompiledRoute, params: Record<string, string>, req: Request) =>
  variablesFor(entry, params, req.query as Record<string, unknown>, req.body);

function attempt<T>(make: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: make() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The operation's result as REST's answer: the first error's envelope, or the route's success. */
function send(res: Response, entry: CompiledRoute, result: ExecutionResult): void {
  // A conditional read whose tag is current (src/graphql/plugins/conditional-read.ts set the ETag).
  if (isNotModified(res.req)) {
    res.status(304).end();
    return;
  }
  const error = result.errors?.[0];
  // Unexpected errors were logged by the pipeline before it masked them.
  if (error) {
    sendRestError(res, classifyError(error).appError);
    return;
  }
  const { route } = entry;
  if (route.result.kind === 'empty') {
    res.status(route.status ?? 204).end();
    return;
  }
  const status = route.status ?? 200;
  const data = result.data as Record<string, unknown>;
  const read = res.req.method === 'GET' || res.req.method === 'HEAD';
  const remembered = cachedResultOf(result);
  // A read the cache keeps: its envelope's bytes are made once, then sent as they are.
  const answer = remembered
    ? remembered.rendering(() =>
        cachedAnswer(JSON.stringify(successEnvelope(route.result, data)), contentTag),
      )
    : // A versioned read has its version tag already: its bytes are not digested for another.
      cachedAnswer(
        JSON.stringify(successEnvelope(route.result, data)),
        read && !res.hasHeader('ETag') ? contentTag : undefined,
      );
  sendAnswer(res, status, answer, read);
}

/**
 * A prepared answer: what res.json would send, and for a read without a version tag the ETag of its
 * bytes (express answers 304 to a matching If-None-Match; HEAD gets no body).
 */
function sendAnswer(res: Response, status: number, answer: CachedAnswer, read: boolean): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (read && answer.etag !== undefined && !res.hasHeader('ETag')) res.setHeader('ETag', answer.etag);
  res.status(status).send(answer.body);
}
