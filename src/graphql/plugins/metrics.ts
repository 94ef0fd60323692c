import type { OnExecuteHookResult, Plugin } from '@envelop/core';
import { type ExecutionResult, getOperationAST } from 'graphql';
import type { Metrics } from '../../http/metrics';
import type { PipelineContext } from '../pipeline-context';

/**
 * Operation metrics for every door (GET /metrics): each operation that reached execution, by door,
 * type and outcome, and its requested cost (README "Metrics"). HTTP-level counts stay in the
 * request middleware; this sees the operations inside them (several MCP tool calls in one request).
 */
export function useOperationMetrics(metrics: Pick<Metrics, 'operation'>): Plugin<PipelineContext> {
  // One hook object for every execution (it reads what it needs from its arguments).
  const count: OnExecuteHookResult<PipelineContext> = {
    onExecuteDone({ args, result }) {
      const single = result as ExecutionResult;
      const type = getOperationAST(args.document, args.operationName)?.operation ?? 'unknown';
      const ctx = args.contextValue;
      metrics.operation(
        { door: ctx.door, type, outcome: single.errors?.length ? 'error' : 'ok' },
        ctx.requestedCost,
      );
    },
  };
  return { onExecute: () => count };
}
