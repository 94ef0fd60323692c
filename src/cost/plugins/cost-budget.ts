import { isAsyncIterable, type OnExecuteHookResult } from '@envelop/core';
import type { Request } from 'express';
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { CostLimitExceededError, toGraphQLError } from '../../errors';
import { withBalance } from '../balance';
import type { CostBudget, CostDecision } from '../budget';
import { budgetCharge } from '../charge';
import { costExtension, type QueryCost } from '../query-cost';
import type { CostContext } from './cost-context';

/**
 * The query-cost budget (README "Query limits and cost"): once the caller is known (after the
 * request-context plugin), its key's or staff member's budget is charged the operation's requested
 * cost (query-limits set it), for every door and also for an answer the read cache will give. The
 * charge is the one budgetCharge makes: admission carried it when the door knew the cost by then
 * (its decision is in req.state.costBudget), else it is made here, alone. Either way the decision is
 * applied here: the X-Cost-Limit / X-Cost-Remaining headers say what is left, and a cost that does
 * not fit is refused with 429 COST_LIMIT_EXCEEDED and Retry-After, before anything runs. After an
 * admitted operation, what it reserved beyond its actual cost (query-limits measured it into
 * `extensions.cost`, just before this plugin's turn) is given back to the window, and the headers
 * say what is left after that, before the door writes them.
 */
export function useCostBudget(budget: CostBudget): Plugin<CostContext> {
  const refundAfter = (decision: CostDecision): OnExecuteHookResult<CostContext> => ({
    onExecuteDone({ args, result }) {
      const cost = (result as ExecutionResult).extensions?.cost as QueryCost | undefined;
      // An answer whose actual cost is not known keeps its reservation
      if (cost?.actualQueryCost === undefined) return;
      const context = args.contextValue;
      const refunded = budget.refund(decision, cost.actualQueryCost, context.now());
      if (!refunded) return;
      return refunded.then((after) => setBudgetHeaders(context, after));
    },
  });
  return {
    // yoga's path of /graphql (GET, other media types); the lean POST adds it in src/graphql/http.ts
    onResultProcess({ serverContext, result, setResult }) {
      const { req } = serverContext as { req?: Request };
      const balance = req?.state?.costBalance;
      if (balance && !Array.isArray(result) && !isAsyncIterable(result))
        setResult(withBalance(result as ExecutionResult, balance));
    },
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const requested = context.requestedCost;
      if (requested === undefined) return;
      const apply = (decision: CostDecision) => {
        const refused = applyDecision(context, requested, decision);
        if (refused) {
          setResultAndStopExecution(refused);
          return undefined;
        }
        return decision.reservation ? refundAfter(decision) : undefined;
      };
      const carried = context.req.state.costBudget;
      if (carried) return apply(carried);
      const charge = budgetCharge(budget, context.principal, () => requested, context.now());
      if (charge) return budget.charge(charge).then(apply);
    },
  };
}

/**
 * What is left: X-Cost-Limit and X-Cost-Remaining, while the answer's headers are still to be
 * written, and the request's balance, which a GraphQL answer carries as `extensions.cost.budget`.
 */
function setBudgetHeaders(context: CostContext, decision: CostDecision): void {
  context.req.state.costBalance = decision;
  if (context.res.headersSent) return;
  context.res.setHeader('X-Cost-Limit', String(decision.limit));
  context.res.setHeader('X-Cost-Remaining', String(decision.remaining));
}

/** The headers of a decision, and the refusal in place of the operation's result when the cost did not fit. */
function applyDecision(
  context: CostContext,
  requested: number,
  decision: CostDecision,
): ExecutionResult | undefined {
  setBudgetHeaders(context, decision);
  if (decision.allowed) return undefined;
  const refusal = new CostLimitExceededError(decision.retryAfterSeconds ?? 1, requested, decision.remaining);
  return {
    errors: [toGraphQLError(refusal, { http: { status: refusal.status } })],
    extensions: { cost: costExtension(requested, 0, decision) },
  };
}
