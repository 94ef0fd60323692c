import type { Principal } from '../access/principal';
import type { BudgetCharge, BudgetHolder, CostBudget } from './budget';

/**
 * Whose query-cost budget a request spends: a key's, or a signed-in staff member's; nobody's for the
 * rest (a public operation, the system).
 */
export function budgetHolder(principal: Principal | undefined | null): BudgetHolder | null {
  if (principal?.kind === 'apiKey') return { storeId: principal.storeId, name: principal.keyId };
  if (principal?.kind === 'session')
    return { storeId: principal.storeId, name: `staff:${principal.staffUserId}` };
  return null;
}

/**
 * The charge of an operation's requested cost to its caller's budget — whose budget, how many
 * points, at what time — for every door; undefined when there is nothing to charge: no budget, a
 * caller who holds none, a cost not known (`cost` is asked only for a holder). Every charge starts
 * here. authenticate carries it in admission's own script when the door knew the cost before
 * admitting (every /graphql operation, a REST route without a body), the cost-budget plugin makes it
 * alone otherwise (a REST write, an MCP tool call: README "Query limits and cost" says why), and that
 * plugin applies the decision either way.
 */
export function budgetCharge(
  budget: CostBudget | null,
  principal: Principal | undefined | null,
  cost: () => number | undefined,
  now: Date,
): BudgetCharge | undefined {
  const holder = budget ? budgetHolder(principal) : null;
  if (!budget || holder === null) return undefined;
  const points = cost();
  return points === undefined ? undefined : budget.prepare(holder, points, now);
}
