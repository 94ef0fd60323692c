import type { ExecutionResult } from 'graphql';
import type { CostDecision } from './budget';
import { budgetOf, type QueryCost } from './query-cost';

/**
 * A GraphQL answer's `extensions.cost.budget`: what the caller has left after this operation's
 * refund (README "Query limits and cost"), added as the answer is written — never to the result the
 * read cache keeps, which other callers with other budgets are answered from. Both GraphQL paths
 * (the lean POST and yoga's) write it through here. The result as it was when there is nothing to add.
 */
export function withBalance(result: ExecutionResult, balance: CostDecision | undefined): ExecutionResult {
  const cost = result.extensions?.cost as QueryCost | undefined;
  if (!balance || !cost || cost.budget) return result;
  return { ...result, extensions: { ...result.extensions, cost: { ...cost, budget: budgetOf(balance) } } };
}

/**
 * The same for a remembered result's text, without writing the page again: when `extensions` is the
 * result's last member and `cost` the last of it (as the pipeline builds them), the text ends with
 * the closing braces of the cost, the extensions and the result, and the budget goes before them.
 */
export function textWithBalance(
  text: string,
  result: ExecutionResult,
  balance: CostDecision | undefined,
): string {
  const cost = result.extensions?.cost as QueryCost | undefined;
  if (!balance || !cost || cost.budget) return text;
  const keys = Object.keys(result);
  const extensionKeys = Object.keys(result.extensions ?? {});
  if (keys[keys.length - 1] !== 'extensions' || extensionKeys[extensionKeys.length - 1] !== 'cost')
    return JSON.stringify(withBalance(result, balance));
  return `${text.slice(0, -3)},"budget":${JSON.stringify(budgetOf(balance))}}}}`;
}
