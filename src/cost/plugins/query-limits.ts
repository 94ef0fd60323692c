import type { OnExecuteHookResult, Plugin } from '@envelop/core';
import { type ExecutionResult, type GraphQLSchema, getOperationAST } from 'graphql';
import { parseWithin, type QueryLimits, queryShapeRule, responseTooLarge, tooComplex } from '../limits';
import { costExtension, measureAnswer, requestedCost } from '../query-cost';
import type { CostContext } from './cost-context';

/**
 * README "Query limits and cost": tokens are counted while parsing (the parse stops at the limit),
 * depth, aliases and directives while validating, and the cost — which depends on the variables —
 * just before execution. Anything over a limit is refused with QUERY_TOO_COMPLEX before it runs.
 * Every executed operation's result carries `extensions.cost`, what was asked and what was returned.
 * REST routes and MCP tools are parsed and validated through the same hooks at start-up.
 */
export function useQueryLimits(schema: GraphQLSchema, limits: QueryLimits): Plugin<CostContext> {
  const parse = parseWithin(limits.maxTokens);
  const shape = queryShapeRule(limits);
  const reportCost = costReport(limits.maxResponseBytes);
  return {
    onParse: ({ setParseFn }) => setParseFn(parse),
    onValidate: ({ addValidationRule }) => addValidationRule(shape),
    onExecute({ args, setResultAndStopExecution }) {
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const context = args.contextValue;
      // A REST route without a body was costed at its door, with the same variables
      const requested =
        context.requestedCost ?? requestedCost(schema, args.document, operation, args.variableValues ?? {});
      context.requestedCost = requested;
      if (requested > limits.maxCost) {
        setResultAndStopExecution({
          errors: [tooComplex('cost', limits.maxCost, requested)],
          extensions: { cost: { requestedQueryCost: requested, actualQueryCost: 0 } },
        });
        return;
      }
      return reportCost;
    },
  };
}

/**
 * Adds `extensions.cost` to a result (one hook object for every execution; the cost is on the
 * context), and puts RESPONSE_TOO_LARGE in place of a query's answer longer than the cap.
 */
const costReport = (maxResponseBytes: number): OnExecuteHookResult<CostContext> => ({
  onExecuteDone({ args, result, setResult }) {
    const single = result as ExecutionResult;
    // A remembered answer (read cache, idempotency replay) may already say what it cost.
    if (single.extensions?.cost) return;
    const operation = getOperationAST(args.document, args.operationName) ?? undefined;
    const measured = measureAnswer(single.data, operation);
    // The budget left is in the X-Cost-* headers, not here: a remembered answer is served to other
    // callers, whose budgets differ.
    const cost = costExtension(args.contextValue.requestedCost ?? 0, measured.cost, undefined);
    if (measured.jsonLength > maxResponseBytes && operation?.operation === 'query') {
      setResult({ errors: [responseTooLarge(maxResponseBytes, measured.jsonLength)], extensions: { cost } });
      return;
    }
    setResult({ ...single, extensions: { ...single.extensions, cost } });
  },
});
