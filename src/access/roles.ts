import type { StaffRole } from '../../prisma/generated/client/enums';
import { allScopePairs, type ScopeObject, toScopeObjects, toScopePairs } from './scopes';

/**
 * What a signed-in staff member may do (docs/design.md "Who may do what"): their role's scopes,
 * checked by the same scope checks as an API key's. The one table; README "Authentication" prints it
 * (test/access/roles.test.ts keeps the two equal).
 *
 * STAFF runs the shop floor: reads the catalogue (products, categories and their reviews), orders and
 * customers, and the sales figures made of those orders; creates and updates products, orders (their
 * transitions) and customers. No keys, webhooks, settings, staff, coupons, review moderation or deletes.
 */
export const roleGrants: Record<StaffRole, readonly ScopeObject[]> = {
  OWNER: toScopeObjects(allScopePairs()),
  ADMIN: toScopeObjects(allScopePairs()),
  STAFF: [
    { resource: 'ANALYTICS', actions: ['READ'] },
    { resource: 'CATEGORIES', actions: ['READ'] },
    { resource: 'CUSTOMERS', actions: ['READ', 'WRITE', 'UPDATE'] },
    { resource: 'ORDERS', actions: ['READ', 'WRITE', 'UPDATE'] },
    { resource: 'PRODUCTS', actions: ['READ', 'WRITE', 'UPDATE'] },
    { resource: 'REVIEWS', actions: ['READ'] },
  ],
};

const scopesByRole: Record<StaffRole, ReadonlySet<string>> = {
  OWNER: new Set(toScopePairs(roleGrants.OWNER)),
  ADMIN: new Set(toScopePairs(roleGrants.ADMIN)),
  STAFF: new Set(toScopePairs(roleGrants.STAFF)),
};

/** The stored pairs a role holds, shared by every session of that role. */
export const roleScopes = (role: StaffRole): ReadonlySet<string> => scopesByRole[role];
