import type { Plugin } from '@envelop/core';
import type { CostBudget } from '../../admission/cost-budget';
import type { Principal } from '../../auth/principal';
import { CostLimitExceededError, toGraphQLError } from '../../errors';
import type { PipelineContext } from '../pipeline-context';
import { costExtension } from './query-limits';

/**
 * The query-cost budget (README "Query limits and cost"): once the caller is known (after the
 * request-context plugin), its key's or staff member's budget is charged the operation's requested
 * cost (query-limits set it), for every door and also for an answer the read cache will give. The
 * X-Cost-Limit / X-Cost-Remaining headers say what is left; a cost that does not fit is refused
 * with 429 COST_LIMIT_EXCEEDED and Retry-After, before anything runs.
 */
export function useCostBudget(budget: CostBudget): Plugin<PipelineContext> {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const who = budgetHolder(context.principal);
      const requested = context.requestedCost;
      if (!who || requested === undefined) return;
      return budget.charge(who, requested, context.now()).then((charged) => {
        context.costBudget = charged;
        if (!context.res.headersSent) {
          context.res.setHeader('X-Cost-Limit', String(charged.limit));
          context.res.setHeader('X-Cost-Remaining', String(charged.remaining));
        }
        if (charged.allowed) return;
        const refusal = new CostLimitExceededError(
          charged.retryAfterSeconds ?? 1,
          requested,
          charged.remaining,
        );
        setResultAndStopExecution({
          errors: [toGraphQLError(refusal, { http: { status: refusal.status } })],
          extensions: { cost: costExtension(requested, 0, charged) },
        });
      });
    },
  };
}

/** Whose budget a request spends: a key's, or a signed-in staff member's; nobody's for the rest. */
function budgetHolder(principal: Principal | undefined | null): string | null {
  if (principal?.kind === 'apiKey') return principal.keyId;
  if (principal?.kind === 'session') return `staff:${principal.staffUserId}`;
  return null;
}
