/** The resources and actions a key's scopes name (docs/design.md "Scopes"). */
export const scopeResources = [
  'ANALYTICS',
  'BILLING',
  'BLOGS',
  'CATEGORIES',
  'COUPONS',
  'CUSTOMERS',
  'DISCOUNTS',
  'DOMAINS',
  'INTEGRATION',
  'MARKETING',
  'ORDERS',
  'PRODUCTS',
  'REVIEWS',
  'SECRETS',
  'SEGMENTS',
  'STAFF',
  'STORE_SETTINGS',
  'SUPPORT',
  'THEME',
  'UPSELLS',
  'API_KEYS',
] as const;

export const scopeActions = ['READ', 'WRITE', 'UPDATE', 'DELETE'] as const;

export type ScopeResource = (typeof scopeResources)[number];
export type ScopeAction = (typeof scopeActions)[number];

/** One granted (resource, action) pair, stored as "RESOURCE:ACTION". */
export type ScopePair = `${ScopeResource}:${ScopeAction}`;

/** A scope on the wire: `{ resource, actions: [...] }` (docs/design.md "Scopes"). */
export interface ScopeObject {
  resource: ScopeResource;
  actions: ScopeAction[];
}

export const scopePair = (resource: ScopeResource, action: ScopeAction): ScopePair => `${resource}:${action}`;

export const allScopePairs = (): ScopePair[] =>
  scopeResources.flatMap((resource) => scopeActions.map((action) => scopePair(resource, action)));

/** Stored pairs → scope objects, in the enums' order. */
export function toScopeObjects(pairs: readonly string[]): ScopeObject[] {
  const granted = new Set(pairs);
  return scopeResources
    .map((resource) => ({
      resource,
      actions: scopeActions.filter((action) => granted.has(`${resource}:${action}`)),
    }))
    .filter((scope) => scope.actions.length > 0);
}

/** Scope objects → stored pairs, deduplicated. Input is validated by the caller's schema. */
export function toScopePairs(objects: readonly ScopeObject[]): ScopePair[] {
  const pairs = new Set<ScopePair>();
  for (const { resource, actions } of objects)
    for (const action of actions) pairs.add(scopePair(resource, action));
  return [...pairs];
}
