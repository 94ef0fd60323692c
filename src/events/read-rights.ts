import { holdsPair, type Principal } from '../access/principal';
import type { ScopePair } from '../access/scopes';
import { type EventType, eventTypes, type ResourceOf } from './catalog';

/**
 * An event carries its resource as REST shows it, so seeing or routing its data needs that
 * resource's read right. One entry per resource of the catalog (the type checker wants them all);
 * `webhook.test` carries no store data: the endpoint's own scope is enough.
 */
const readRightOfResource: Record<ResourceOf<EventType>, ScopePair | null> = {
  order: 'ORDERS:READ',
  product: 'PRODUCTS:READ',
  category: 'CATEGORIES:READ',
  customer: 'CUSTOMERS:READ',
  api_key: 'API_KEYS:READ',
  webhook: null,
};

/**
 * The read right an event type's data needs: null for none beyond the endpoint's own scope,
 * undefined for a type outside the catalog (whose data nobody is shown).
 */
export function eventReadRight(type: string): ScopePair | null | undefined {
  if (!(eventTypes as readonly string[]).includes(type)) return undefined;
  return readRightOfResource[type.slice(0, type.indexOf('.')) as ResourceOf<EventType>];
}

/** Whether the caller may see the data of an event of this type (a delivery's payload). */
export function mayReadEventData(principal: Principal | null, type: string): boolean {
  const right = eventReadRight(type);
  return right === null || (right !== undefined && holdsPair(principal, right));
}

/**
 * The read rights a subscription lacks, grouped: the subscribed names that lack the same rights
 * (`*` lacks every resource's the caller does not hold). Empty when the caller may have these
 * events' data sent where it chooses.
 */
export function missingSubscriptionRights(
  principal: Principal | null,
  subscribed: readonly string[],
): Array<{ events: string[]; rights: ScopePair[] }> {
  const groups = new Map<string, { events: string[]; rights: ScopePair[] }>();
  for (const name of subscribed) {
    const needed = new Set((name === '*' ? eventTypes : [name]).map(eventReadRight));
    const rights = [...needed].filter((right): right is ScopePair => !!right && !holdsPair(principal, right));
    if (rights.length === 0) continue;
    const group = groups.get(rights.join()) ?? { events: [], rights };
    group.events.push(name);
    groups.set(rights.join(), group);
  }
  return [...groups.values()];
}
