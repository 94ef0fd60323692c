import type { OnExecuteHookResult } from '@envelop/core';
import { type ExecutionResult, GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { classifyError, errorStatus, isErrorCode } from '../../errors';
import type { PipelineContext } from '../pipeline-context';

/**
 * Errors, once for every door: query validation failures carry the VALIDATION_ERROR code (or
 * the code a rule gave them, such as QUERY_TOO_COMPLEX), and unexpected errors of an execution are
 * logged with the request's logger (request id, key id) before the pipeline masks them. On /graphql
 * a request refused before execution (no `data`: syntax, validation, limits) answers with its code's
 * HTTP status whatever the Accept header (docs/design.md "Envelopes"); execution errors stay HTTP 200.
 */
export function useErrors(logged: WeakSet<Error>): Plugin<PipelineContext> {
  // One hook object for every execution (it reads what it needs from its arguments).
  const logUnexpected: OnExecuteHookResult<PipelineContext> = {
    onExecuteDone({ args, result }) {
      for (const error of (result as ExecutionResult).errors ?? []) {
        if (!classifyError(error).unexpected || logged.has(error)) continue;
        args.contextValue.log.error({ err: error }, 'unexpected error in GraphQL execution');
        logged.add(error);
      }
    },
  };
  return {
    onResultProcess({ result, setResult }) {
      if (isAsyncIterable(result) || Array.isArray(result)) return;
      const answered = withRefusalStatus(result);
      if (answered !== result) setResult(answered);
    },
    onValidate:
      () =>
      ({ result, setResult }) => {
        if (result.length === 0) return;
        setResult(result.map(withValidationCode));
      },
    onExecute: () => logUnexpected,
  };
}

/** A result refused before execution (no `data`) with its first error's code's HTTP status. */
export function withRefusalStatus(result: ExecutionResult): ExecutionResult {
  if ('data' in result) return result;
  const code = result.errors?.[0]?.extensions?.code;
  if (!isErrorCode(code) || result.extensions?.http) return result;
  return { ...result, extensions: { ...result.extensions, http: { status: errorStatus[code] } } };
}

function withValidationCode(error: Error): Error {
  if (!(error instanceof GraphQLError) || isErrorCode(error.extensions?.code)) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code: 'VALIDATION_ERROR' },
  });
}

/**
 * The pipeline's mask (yoga's maskedErrors): every error leaves with its code (and details) and
 * anything unexpected only as INTERNAL_ERROR — no stack, SQL or path. The AppError stays attached as
 * originalError, so the REST and MCP doors classify the masked error exactly as the original.
 */
export function maskError(logger: Logger, logged: WeakSet<Error>) {
  return (error: unknown): Error => {
    const { appError, unexpected } = classifyError(error);
    const graphQLError = error instanceof GraphQLError ? error : undefined;
    if (unexpected && !logged.has(error as Error)) {
      logger.error({ err: error }, 'unexpected error in the GraphQL pipeline');
      logged.add(error as Error);
    }
    // An error that says when to come back (the database away: 503; too many failed sign-ins: 429)
    // answers with its status and Retry-After like everywhere else, not a 200 (clients retry on the
    // status; they would take a 200's `data: null` as an answer).
    const retryAfter = (appError as { retryAfterSeconds?: number }).retryAfterSeconds;
    const http =
      graphQLError?.extensions?.http ??
      (retryAfter !== undefined
        ? { status: appError.status, headers: { 'Retry-After': String(retryAfter) } }
        : appError.code === 'SERVICE_UNAVAILABLE'
          ? { status: 503 }
          : undefined);
    const kept = graphQLError?.extensions ?? {};
    return new GraphQLError(appError.message, {
      nodes: graphQLError?.nodes,
      source: graphQLError?.source,
      positions: graphQLError?.positions,
      path: graphQLError?.path,
      originalError: unexpected ? undefined : appError,
      extensions: {
        // What a rule added beside the code (QUERY_TOO_COMPLEX's measure, limit and value, a request id).
        ...pick(kept, ['status', 'measure', 'limit', 'value', 'requestId']),
        code: appError.code,
        ...(appError.details ? { details: appError.details } : {}),
        ...(http ? { http } : {}),
      },
    });
  };
}

const pick = (from: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((key) => from[key] !== undefined).map((key) => [key, from[key]]));
