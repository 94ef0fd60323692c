import type { Request, Response } from 'express';
import { type GraphQLSchema, getOperationAST, parse } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { Context } from '../context';
import { cachedAnswer } from '../read-cache/answer';
import { cacheableReadScopes } from '../read-cache/operation';
import type { ReadCache } from '../read-cache/read-cache';

/** Documents whose cacheability is remembered (by text); past this the memo starts again. */
const MAX_DOCUMENTS = 1000;
/** Longer documents are never answered from the cache (nor remembered, nor kept in the memo). */
const MAX_DOCUMENT_CHARS = 10_000;
const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,127}$/;

/**
 * The media type yoga answers a JSON POST with for this Accept header, when it is one the read cache
 * can answer with too (yoga picks application/json for none or any; other negotiations go to yoga).
 */
function answerMediaType(accept: string | undefined): string | undefined {
  const asked = (accept ?? '*/*').replace(/\s/g, '').toLowerCase();
  if (asked === '*/*' || asked === 'application/json') return 'application/json';
  if (asked === 'application/graphql-response+json') return asked;
  return undefined;
}

export interface CacheableRead {
  key: string;
  mediaType: string;
  scopes: string[];
}

interface RequestedOperation {
  query: string;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

/** What yoga reads a JSON POST from: these content types, then only these body fields. */
const YOGA_JSON_TYPES = ['application/json', 'application/graphql+json'];
const YOGA_PARAMETERS = new Set(['query', 'variables', 'operationName', 'extensions']);

function isYogaJsonType(contentType: string | undefined) {
  const first = contentType?.split(',')[0];
  return YOGA_JSON_TYPES.some((type) => first === type || first?.startsWith(`${type};`));
}

/** A POST or GET that yoga would run as it stands, in the shape the read cache can key; else undefined. */
function requestedOperation(req: Request): RequestedOperation | undefined {
  if (req.method === 'POST') return postedOperation(req);
  if (req.method === 'GET') return queriedOperation(req);
  return undefined;
}

function postedOperation(req: Request): RequestedOperation | undefined {
  if (!isYogaJsonType(req.headers['content-type'])) return undefined;
  const body = req.body as Record<string, unknown> | undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  for (const [name, value] of Object.entries(body))
    if (value != null && !YOGA_PARAMETERS.has(name)) return undefined;
  return checkedOperation(body);
}

/** GraphQL over HTTP's GET: `query`, `operationName` and `variables` (JSON) in the query string. */
function queriedOperation(req: Request): RequestedOperation | undefined {
  const params = req.query as Record<string, unknown>;
  for (const [name, value] of Object.entries(params))
    if (!YOGA_PARAMETERS.has(name) || typeof value !== 'string') return undefined;
  const { variables, ...rest } = params as Record<string, string | undefined>;
  if (variables === undefined) return checkedOperation(rest);
  try {
    return checkedOperation({ ...rest, variables: JSON.parse(variables) });
  } catch {
    return undefined; // yoga reports it
  }
}

function checkedOperation(fields: Record<string, unknown>): RequestedOperation | undefined {
  const { query, operationName, variables, extensions } = fields;
  if (typeof query !== 'string' || query.length > MAX_DOCUMENT_CHARS || extensions != null) return undefined;
  if (operationName != null && (typeof operationName !== 'string' || !OPERATION_NAME.test(operationName)))
    return undefined;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return undefined;
  return fields as unknown as RequestedOperation;
}

/** The variables as part of a cache key; undefined for what JSON cannot write (nested too deep). */
function variablesKey(variables: Record<string, unknown> | null | undefined): string | undefined {
  try {
    return JSON.stringify(variables ?? {});
  } catch {
    return undefined;
  }
}

/**
 * The read cache at /graphql (README "Read cache"): a query (POSTed JSON or GET) whose root fields are all
 * cacheable reads is answered before yoga when the store's current answer is remembered; otherwise
 * yoga runs it and the plugin remembers a successful answer. Mutations replace the store's data version.
 */
export function graphQLReadCache(schema: GraphQLSchema, readCache: ReadCache) {
  /** Per operation name, then document text: an id of its own and its scopes (null: not cacheable). */
  const documents = new Map<string, Map<string, { id: number; scopes: string[] | null }>>();
  let memoized = 0;
  let nextId = 0;

  const documentOf = (operation: RequestedOperation) => {
    const name = operation.operationName ?? '';
    let texts = documents.get(name);
    let document = texts?.get(operation.query);
    if (document) return document;
    let scopes: string[] | null;
    try {
      scopes = cacheableReadScopes(schema, parse(operation.query), operation.operationName);
    } catch {
      scopes = null; // yoga reports the syntax error
    }
    if (memoized >= MAX_DOCUMENTS) {
      documents.clear();
      memoized = 0;
      texts = undefined;
    }
    if (!texts) {
      texts = new Map();
      documents.set(name, texts);
    }
    // Ids are never reused, so a cached answer can only be found again through the same document.
    document = { id: nextId++, scopes };
    texts.set(operation.query, document);
    memoized++;
    return document;
  };

  return {
    /**
     * Before authentication (asked once the caller is identified): a query the read cache
     * may answer, with its cache key, media type and root-field scope pairs.
     */
    readOf(req: Request): CacheableRead | undefined {
      // A cross-origin request gets yoga's CORS headers, which only yoga knows how to make.
      if (!readCache.enabled || req.headers.origin !== undefined) return undefined;
      const operation = requestedOperation(req);
      const mediaType = answerMediaType(req.get('accept'));
      if (!operation || !mediaType) return undefined;
      const { id, scopes } = documentOf(operation);
      const variables = scopes ? variablesKey(operation.variables) : undefined;
      if (!scopes || variables === undefined) return undefined;
      return { key: `graphql ${id} ${variables}`, mediaType, scopes };
    },

    /** After authentication: true when the answer was sent from the cache. */
    answer(req: Request, res: Response, read: CacheableRead): boolean {
      const cached = readCache.lookup(req.state.principal, req.state.dataVersion, read.key, read.scopes);
      req.state.readCache = cached.kind;
      if (cached.kind === 'miss') req.state.rememberRead = cached.remember;
      if (cached.kind !== 'hit') return false;
      const { body } = cached.answer;
      res.writeHead(200, {
        'content-type': `${read.mediaType}; charset=utf-8`,
        'content-length': body.length,
      });
      res.end(body);
      return true;
    },

    plugin(): Plugin<Context & { req?: Request }> {
      return {
        onExecute({ args }) {
          const ctx = args.contextValue;
          const mutation = getOperationAST(args.document, args.operationName)?.operation === 'mutation';
          const remember = ctx.req?.state.rememberRead;
          if (!mutation && !remember) return;
          return {
            onExecuteDone: async (payload) => {
              if (mutation) await readCache.afterMutation(ctx.principal);
              if (remember)
                handleStreamOrSingleExecutionResult(payload, ({ result }) => {
                  if (!result.errors && !result.extensions) remember(cachedAnswer(JSON.stringify(result)));
                });
            },
          };
        },
      };
    },
  };
}
