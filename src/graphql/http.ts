import type { Request, RequestHandler, Response } from 'express';
import type { ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import { textWithBalance, withBalance } from '../cost/balance';
import { AppError, classifyError, toGraphQLError } from '../errors';
import { assertJsonDepth } from '../http/json-depth';
import { sendGraphQLError, setErrorHeaders } from '../http/respond';
import { cachedAnswer } from '../read-cache/answer';
import type { OperationText, Pipeline } from './pipeline';
import { isNotModified } from './plugins/conditional-read';
import { withRefusalStatus } from './plugins/errors';
import { cachedResultOf } from './plugins/read-cache';

export interface GraphQLDoorDeps {
  pipeline: Pipeline;
  /** The one JSON body reader of the doors (size limit, media type, INVALID_JSON). */
  readBody: (req: Request, res: Response) => Promise<void>;
  /** Whether a JSON POST is run here (default) or left to yoga like every other request. */
  lean?: boolean;
}

/**
 * /graphql, a door onto the pipeline. A JSON POST that graphql-yoga would take as it is — one
 * operation, parameters of the right types, a document that parses and validates, a response type
 * the client accepts — is run here: its text through the pipeline (`runText`), its result written
 * by yoga's own result processor, so status, headers and body are yoga's. Everything else (GET,
 * GraphiQL, refusals of the request itself) is yoga's to answer. Yoga's HTTP layer builds a fetch
 * Request and Response around Node's for each request; for the common request that layer was a
 * sizeable share of a cached read's busy CPU (bench/BASELINE.md, "The /graphql door and the cost
 * budget's round trip").
 */
export function createGraphQLDoor(deps: GraphQLDoorDeps): RequestHandler {
  return async (req, res) => {
    if (req.method !== 'POST') {
      try {
        assertShallowParameters(req);
      } catch (error) {
        return sendGraphQLError(res, classifyError(error).appError);
      }
      return deps.pipeline.graphql(req, res);
    }
    try {
      await deps.readBody(req, res);
    } catch (error) {
      return sendGraphQLError(res, classifyError(error).appError);
    }
    // One operation per request (README "Query limits and cost"): a batch would be one request's
    // worth of rate limit for many operations' work.
    if (Array.isArray(req.body))
      return sendGraphQLError(
        res,
        new AppError(
          'BATCHING_NOT_SUPPORTED',
          'Send one operation per request; batched (array) bodies are not supported',
        ),
      );
    const params = deps.lean !== false && isYogaJson(req) ? operationText(req.body) : undefined;
    const mediaType = params && responseMediaType(req.headers.accept);
    const running = mediaType && deps.pipeline.runText(params, { req, res, door: 'graphql' });
    if (!running) return deps.pipeline.graphql(req, res);
    let result: ExecutionResult;
    try {
      result = (await running).result;
    } catch (error) {
      // What yoga does with an error thrown past the pipeline's mask: its code, and its status.
      const { appError, unexpected } = classifyError(error);
      if (unexpected) req.state.log.error({ err: error }, 'unexpected error in GraphQL request');
      setErrorHeaders(res, appError);
      result = { errors: [toGraphQLError(appError, { requestId: req.state.requestId })] };
    }
    send(res, result, mediaType);
  };
}

/** A GET's JSON parameters, which yoga parses, bounded as a body is (README "JSON nesting"). */
function assertShallowParameters(req: Request): void {
  const search = req.url.indexOf('?');
  if (search === -1) return;
  const params = new URLSearchParams(req.url.slice(search + 1));
  for (const name of ['variables', 'extensions'])
    for (const value of params.getAll(name)) assertJsonDepth(value, `The ${name} parameter`);
}

/** The result as yoga's regular result processor answers it (a remembered read: its bytes, made once). */
function send(res: Response, result: ExecutionResult, mediaType: ResponseMediaType): void {
  // A conditional read whose tag is current: its headers (ETag among them) and no body.
  if (isNotModified(res.req)) {
    res.writeHead(304);
    res.end();
    return;
  }
  const balance = res.req.state.costBalance;
  const remembered = cachedResultOf(result);
  if (remembered) {
    // A remembered result is a success without errors or internals: yoga would answer 200, its text
    // (with the caller's own balance, when it has a budget: src/cost/balance.ts).
    const body = balance
      ? Buffer.from(textWithBalance(remembered.text, remembered.result, balance))
      : remembered.rendering(() => cachedAnswer(remembered.text)).body;
    res.writeHead(200, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': body.length });
    res.end(body);
    return;
  }
  const response = processRegularResult(
    withRefusalStatus(withBalance(result, balance)),
    captured,
    mediaType,
  ) as unknown as Captured;
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}

/** The fetch API yoga's processor is handed: a Response that only holds what it was given. */
class Captured {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(
    readonly body: string,
    init: { status: number; headers: Record<string, string> },
  ) {
    this.status = init.status;
    // Names in lower case, as yoga's fetch Response hands them to Node: the same bytes on the wire.
    const headers: Record<string, string> = {};
    for (const name in init.headers) headers[name.toLowerCase()] = init.headers[name] as string;
    headers['content-length'] = String(Buffer.byteLength(body));
    this.headers = headers;
  }
}
const captured = { Response: Captured } as unknown as Parameters<typeof processRegularResult>[1];

/** Yoga reads a POST as JSON for these two media types only (its request parser). */
function isYogaJson(req: Request): boolean {
  const type = req.headers['content-type']?.split(',')[0];
  return (
    type !== undefined &&
    ['application/json', 'application/graphql+json'].some((t) => type === t || type.startsWith(`${t};`))
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const absentOr = (value: unknown, test: (value: unknown) => boolean) => value == null || test(value);
const PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

/** The body's operation, if yoga would take its parameters as they are (otherwise yoga refuses them). */
function operationText(body: unknown): OperationText | undefined {
  if (!isPlainObject(body) || typeof body.query !== 'string') return undefined;
  for (const key in body) if (body[key] != null && !PARAMETERS.has(key)) return undefined;
  const { query, variables, operationName, extensions } = body;
  if (!absentOr(variables, isPlainObject) || !absentOr(extensions, isPlainObject)) return undefined;
  if (!absentOr(operationName, (name) => typeof name === 'string')) return undefined;
  return {
    query,
    variables: variables as OperationText['variables'],
    operationName: operationName as OperationText['operationName'],
  };
}

type ResponseMediaType = 'application/json' | 'application/graphql-response+json';

/**
 * The media type yoga answers a single result with: the first type in Accept (UTF-8 ones) that
 * either of its JSON types matches, `application/json` where both do; none: yoga's 406.
 */
export function responseMediaType(accept: string | undefined): ResponseMediaType | undefined {
  const key = accept ?? '';
  if (negotiated.has(key)) return negotiated.get(key);
  const mediaType = negotiate(key);
  // Clients send a handful of Accept values; a client that varies it without end only refills this.
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(key, mediaType);
  return mediaType;
}

/** Accept values seen, with the media type each negotiated (the same on every request). */
const negotiated = new Map<string, ResponseMediaType | undefined>();
const NEGOTIATED_MAX = 64;

function negotiate(accept: string): ResponseMediaType | undefined {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [type = '', ...params] = entry.split(';');
    if ((params.find((param) => param.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') continue;
    const [main, sub] = type.split('/');
    if (main !== '*' && main !== 'application') continue;
    if (sub === '*' || sub === 'json') return 'application/json';
    if (sub === 'graphql-response+json') return 'application/graphql-response+json';
  }
  return undefined;
}
