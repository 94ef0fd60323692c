import type { Request, Response } from 'express';
import { type DocumentNode, type ExecutionResult, type GraphQLSchema, getOperationAST } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { withDataText } from '../../read-cache/answer';
import { answerTag, namesTag, readTag } from '../../read-cache/etag';
import { versionedReadScopes } from '../../read-cache/operation';
import type { ReadCache } from '../../read-cache/read-cache';
import type { PipelineContext } from '../pipeline-context';

/**
 * Whether the request's read is answered 304: the doors send the status and headers, no body (the
 * request's state says so, as plugins may copy the result on its way out).
 */
export const isNotModified = (req: Request): boolean => req.state.notModified === true;

/**
 * Conditional reads (README "Conditional requests"), for REST and /graphql (MCP's JSON-RPC has no
 * such thing): a versioned read — every root field a `versionedRead` or `cacheableRead`
 * (src/field-extensions.ts: its answer changes only through writeStore) — gets, when the read cache
 * would trust its version, an ETag made from the store's data version and the operation
 * (src/read-cache/etag.ts), set on its successful answer; an If-None-Match
 * naming the current tag is answered 304 here, after authentication, the rate limit and the usage
 * quota (the request counts), and before the cost budget (a 304 spends none), the read cache and any
 * resolver. A write of the store replaces its version, so every process's tags change at once.
 *
 * Any other successful /graphql query (API keys, webhooks, analytics…) gets a tag of its answer's data once it ran (`answerTag`), and
 * an If-None-Match naming it is answered 304 without the body: the work is done and spent, the bytes
 * are saved (REST's other reads get express's tag of their bytes, rest/adapter.ts).
 */
export function useConditionalRead(schema: GraphQLSchema, readCache: ReadCache): Plugin<PipelineContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue;
      const principal = ctx.principal;
      if (ctx.door === 'mcp' || !principal) return;
      const { req, res } = ctx;
      const scopes = versionedReadScopes(schema, args.document, args.operationName);
      const basis = scopes
        ? readCache.tagBasis(principal, req.state.dataVersion, scopes, ctx.now().getTime())
        : undefined;
      // Not a read a version vouches for: only a /graphql query's answer is tagged, by its data.
      if (basis === undefined && (ctx.door !== 'graphql' || !isQuery(args.document, args.operationName)))
        return;
      const variables = variablesText(args.variableValues);
      if (variables === undefined) return;
      const operation = {
        door: ctx.door,
        document: args.document,
        operationName: args.operationName,
        variables,
      };
      if (basis === undefined)
        return {
          onExecuteDone({ result, setResult }) {
            if (isAsyncIterable(result) || result.errors?.length || res.headersSent) return;
            const text = JSON.stringify(result.data) ?? 'null';
            const tag = answerTag(principal, operation, text);
            res.setHeader('ETag', tag);
            if (namesTag(req.headers['if-none-match'], tag)) req.state.notModified = true;
            else setResult(withDataText(result, text));
          },
        };
      const tag = readTag(basis, principal, operation);
      if (namesTag(req.headers['if-none-match'], tag)) {
        res.setHeader('ETag', tag);
        req.state.notModified = true;
        setResultAndStopExecution({});
        return;
      }
      return {
        onExecuteDone({ result }) {
          if (!(result as ExecutionResult).errors?.length && !res.headersSent) res.setHeader('ETag', tag);
        },
      };
    },
    // What graphql-yoga answers itself (a GET, or any request with GRAPHQL_LEAN_POST=false): the 304,
    // with the headers already set on the response. Yoga's own processors come first: when none
    // serves a media type the client accepts, its answer is a 406, which carries no tag (and is no 304).
    onResultProcess({ serverContext, resultProcessor, setResultProcessor, acceptableMediaTypes }) {
      const { req, res } = serverContext as { req?: Request; res?: Response };
      if (!req || !res) return;
      if (!resultProcessor) {
        res.removeHeader('ETag');
        req.state.notModified = false;
        return;
      }
      if (!isNotModified(req)) return;
      setResultProcessor(
        (_result, fetchAPI) => new fetchAPI.Response(null, { status: 304 }),
        acceptableMediaTypes[0] ?? 'application/json',
      );
    },
  };
}

/** Whether the operation the request runs is a query (not a mutation or a subscription). */
function isQuery(document: DocumentNode, operationName: string | null | undefined): boolean {
  return getOperationAST(document, operationName)?.operation === 'query';
}

/** The variables as a tag names them; undefined for what JSON cannot write (nested too deep). */
function variablesText(variables: Record<string, unknown> | null | undefined): string | undefined {
  try {
    return JSON.stringify(variables ?? {});
  } catch {
    return undefined;
  }
}
