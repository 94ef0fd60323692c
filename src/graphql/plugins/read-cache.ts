import type { OnExecuteHookResult, Plugin } from '@envelop/core';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { CachedResult } from '../../read-cache/answer';
import { cacheableReadScopes } from '../../read-cache/operation';
import type { ReadCache } from '../../read-cache/read-cache';
import type { PipelineContext } from '../pipeline-context';

const remembered = new WeakMap<ExecutionResult, CachedResult>();

/** The read cache's entry behind a result a door is about to send, if the result is one it keeps. */
export const cachedResultOf = (result: ExecutionResult): CachedResult | undefined => remembered.get(result);

/**
 * The read cache (README "Read cache"), for every door: a query whose root fields are all cacheable
 * reads is answered with the result remembered for the caller's store, operation and variables, as
 * long as the store's data version is the one it was made under; a miss runs and its successful
 * result is remembered. Everything before execution still ran: authentication, the rate limit and
 * usage, the query limits — and the scope check, here, on the operation's root-field pairs. Writes
 * replace the store's version where they commit (src/resources/store-writes.ts), not here.
 */
export function useReadCache(schema: GraphQLSchema, readCache: ReadCache): Plugin<PipelineContext> {
  const documentIds = new WeakMap<DocumentNode, number>();
  let nextId = 0;
  const idOf = (document: DocumentNode) => {
    let id = documentIds.get(document);
    if (id === undefined) {
      // Never reused, so a result can only be found again through the same parsed document.
      id = nextId++;
      documentIds.set(document, id);
    }
    return id;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (!readCache.enabled) return;
      const ctx = args.contextValue;
      const { principal } = ctx;
      const scopes = cacheableReadScopes(schema, args.document, args.operationName);
      const variables = scopes && variablesKey(args.variableValues);
      if (!scopes || variables === undefined || !principal) return;
      const key = `${idOf(args.document)} ${args.operationName ?? ''} ${variables}`;
      const state = ctx.req.state;
      const look = (version: string | undefined): OnExecuteHookResult<PipelineContext> | undefined => {
        const cached = readCache.lookup(principal, version, key, scopes);
        state.readCache = cached.kind;
        if (cached.kind === 'hit') {
          setResultAndStopExecution(cached.answer.result);
          return undefined;
        }
        if (cached.kind === 'off') return undefined;
        return {
          onExecuteDone({ result, setResult }) {
            const single = result as ExecutionResult;
            if (single.errors?.length) return;
            const entry = new CachedResult(single);
            remembered.set(entry.result, entry);
            cached.remember(entry);
            setResult(entry.result);
          },
        };
      };
      // Admission read the version already (a key's or a session's cacheable read); an MCP call's is read now.
      if (state.dataVersion !== undefined) return look(state.dataVersion);
      return readCache.version(principal.storeId).then((version) => {
        state.dataVersion = version;
        return look(version);
      });
    },
  };
}

/** The variables as part of a cache key; undefined for what JSON cannot write (nested too deep). */
function variablesKey(variables: Record<string, unknown> | null | undefined): string | undefined {
  try {
    return JSON.stringify(variables ?? {});
  } catch {
    return undefined;
  }
}
