import type { Plugin } from '@envelop/core';
import { budgetHolder } from '../../access/principal';
import { CostLimitExceededError, toGraphQLError } from '../../errors';
import type { PipelineContext } from '../../graphql/pipeline-context';
import type { CostBudget, CostDecision } from '../budget';
import { costExtension } from './query-limits';

/**
 * The query-cost budget (README "Query limits and cost"): once the caller is known (after the
 * request-context plugin), its key's or staff member's budget is charged the operation's requested
 * cost (query-limits set it), for every door and also for an answer the read cache will give —
 * by admission, in its round trip, when the door knew the cost by then (a /graphql operation, a
 * REST read without a body), else here. The X-Cost-Limit / X-Cost-Remaining headers say what is
 * left; a cost that does not fit is refused with 429 COST_LIMIT_EXCEEDED and Retry-After, before
 * anything runs.
 */
export function useCostBudget(budget: CostBudget): Plugin<PipelineContext> {
  const decide = (context: PipelineContext, requested: number, charged: CostDecision) => {
    context.costBudget = charged;
    if (!context.res.headersSent) {
      context.res.setHeader('X-Cost-Limit', String(charged.limit));
      context.res.setHeader('X-Cost-Remaining', String(charged.remaining));
    }
    if (charged.allowed) return undefined;
    const refusal = new CostLimitExceededError(charged.retryAfterSeconds ?? 1, requested, charged.remaining);
    return {
      errors: [toGraphQLError(refusal, { http: { status: refusal.status } })],
      extensions: { cost: costExtension(requested, 0, charged) },
    };
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const who = budgetHolder(context.principal);
      const requested = context.requestedCost;
      if (!who || requested === undefined) return;
      const admitted = context.costBudget;
      if (admitted) {
        const refused = decide(context, requested, admitted);
        if (refused) setResultAndStopExecution(refused);
        return;
      }
      return budget.charge(budget.prepare(who, requested, context.now())).then((charged) => {
        const refused = decide(context, requested, charged);
        if (refused) setResultAndStopExecution(refused);
      });
    },
  };
}
