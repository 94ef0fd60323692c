import type { Plugin } from '@envelop/core';
import type { CostInFlight } from '../in-flight';
import type { CostContext } from './cost-context';

/**
 * Each store's operations execute within its share of cost in flight (src/cost/in-flight.ts):
 * the execution itself is wrapped, so an answer the read cache or an idempotency replay gives never
 * waits, and the share is given back however execution ends.
 */
export function useFairShare(inFlight: CostInFlight): Plugin<CostContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const storeId = args.contextValue.principal?.storeId;
      const cost = args.contextValue.requestedCost;
      if (!storeId || cost === undefined) return;
      setExecuteFn((executeArgs) => inFlight.run(storeId, cost, () => executeFn(executeArgs)));
    },
  };
}
