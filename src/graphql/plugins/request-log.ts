import type { OnExecuteHookResult, Plugin } from '@envelop/core';
import { type ExecutionResult, getOperationAST } from 'graphql';
import type { RequestDoor } from '../../request-log/entry';
import type { Door, PipelineContext } from '../pipeline-context';

const DOOR: Record<Door, RequestDoor> = { graphql: 'GRAPHQL', rest: 'REST', mcp: 'MCP' };

/**
 * What the request log needs from the pipeline, noted on the request's state for the row written
 * when the request finishes (src/request-log/entry.ts): the door, the operation's name, the cost
 * requested (summed over an MCP request's tool calls) and the first error's code. Nothing else
 * of the operation — no variables, no result. (A /graphql refusal before execution — syntax,
 * validation — is yoga's own answer: its row has the status and no code.)
 */
export function useRequestLogNotes(): Plugin<PipelineContext> {
  const note: OnExecuteHookResult<PipelineContext> = {
    onExecuteDone({ args, result }) {
      const ctx = args.contextValue;
      const state = ctx.req?.state;
      if (!state) return;
      state.door = DOOR[ctx.door];
      state.operation ??=
        args.operationName ?? getOperationAST(args.document, args.operationName)?.name?.value ?? 'anonymous';
      if (ctx.requestedCost !== undefined) state.cost = (state.cost ?? 0) + ctx.requestedCost;
      const code = (result as ExecutionResult).errors?.[0]?.extensions?.code;
      if (typeof code === 'string') state.errorCode ??= code;
    },
  };
  return { onExecute: () => note };
}
