import type { Request } from 'express';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { namesTag, readTag } from '../../read-cache/etag';
import { cacheableReadScopes } from '../../read-cache/operation';
import type { ReadCache } from '../../read-cache/read-cache';
import type { PipelineContext } from '../pipeline-context';

/**
 * Whether the request's read is answered 304: the doors send the status and headers, no body (the
 * request's state says so, as plugins may copy the result on its way out).
 */
export const isNotModified = (req: Request): boolean => req.state.notModified === true;

/**
 * Conditional reads (README "Conditional requests"), for REST and /graphql (MCP's JSON-RPC has no
 * such thing): a cacheable read the read cache would trust gets an ETag made from the store's data
 * version and the operation (src/read-cache/etag.ts), set on its successful answer; an If-None-Match
 * naming the current tag is answered 304 here, after authentication, the rate limit and the usage
 * quota (the request counts), and before the cost budget (a 304 spends none), the read cache and any
 * resolver. A write of the store replaces its version, so every process's tags change at once.
 */
export function useConditionalRead(schema: GraphQLSchema, readCache: ReadCache): Plugin<PipelineContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue;
      if (ctx.door === 'mcp' || !ctx.principal) return;
      const scopes = cacheableReadScopes(schema, args.document, args.operationName);
      if (!scopes) return;
      const { req, res } = ctx;
      const basis = readCache.tagBasis(ctx.principal, req.state.dataVersion, scopes, ctx.now().getTime());
      const variables = basis === undefined ? undefined : variablesText(args.variableValues);
      if (basis === undefined || variables === undefined) return;
      const tag = readTag(basis, ctx.principal, {
        door: ctx.door,
        document: args.document,
        operationName: args.operationName,
        variables,
      });
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
    // What graphql-yoga answers itself (a GET): the 304, with the headers already set on the response.
    onResultProcess({ serverContext, setResultProcessor, acceptableMediaTypes }) {
      const { req } = serverContext as { req?: Request };
      if (!req || !isNotModified(req)) return;
      setResultProcessor(
        (_result, fetchAPI) => new fetchAPI.Response(null, { status: 304 }),
        acceptableMediaTypes[0] ?? 'application/json',
      );
    },
  };
}

/** The variables as a tag names them; undefined for what JSON cannot write (nested too deep). */
function variablesText(variables: Record<string, unknown> | null | undefined): string | undefined {
  try {
    return JSON.stringify(variables ?? {});
  } catch {
    return undefined;
  }
}
