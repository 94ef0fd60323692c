import type { ApiKeyEnvironment, Plan, StaffRole } from '../../prisma/generated/client/enums';
import { allScopePairs, type ScopeAction, type ScopeResource } from './scopes';

/** Who is calling, once authentication has passed. Scope checks read it in the schema only. */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  keyId: string;
  storeId: string;
  plan: Plan;
  environment: ApiKeyEnvironment;
  scopes: ReadonlySet<string>;
}

/** A staff member signed in to the dashboard. A session carries a role, not scopes. */
export interface SessionPrincipal {
  kind: 'session';
  sessionId: string;
  staffUserId: string;
  storeId: string;
  plan: Plan;
  role: StaffRole;
}

export type Principal = ApiKeyPrincipal | SessionPrincipal;

/** What owners and admins may do through a session (DESIGN): manage API keys and webhooks (store settings). */
const sessionResources: ReadonlySet<ScopeResource> = new Set<ScopeResource>(['API_KEYS', 'STORE_SETTINGS']);

export function isManager(principal: Principal): boolean {
  return principal.kind === 'session' && (principal.role === 'OWNER' || principal.role === 'ADMIN');
}

export function hasScope(principal: Principal | null, resource: ScopeResource, action: ScopeAction): boolean {
  if (!principal) return false;
  if (principal.kind === 'apiKey') return principal.scopes.has(`${resource}:${action}`);
  return isManager(principal) && sessionResources.has(resource);
}

/** hasScope for a stored "RESOURCE:ACTION" pair (what root fields declare). */
export function holdsPair(principal: Principal | null, pair: string): boolean {
  // A key holds the pair as it is stored: no need to take it apart (checked on every cached read).
  if (principal?.kind === 'apiKey') return principal.scopes.has(pair);
  const [resource, action] = pair.split(':') as [ScopeResource, ScopeAction];
  return hasScope(principal, resource, action);
}

/**
 * Whether the caller could grant any power at all: an owner or admin signed in (who may create keys
 * with every scope), or a key that itself holds every scope. Whoever can make someone an owner or
 * admin, or set such a user's password, can sign in as them; so only such callers may.
 */
export function mayGrantEverything(principal: Principal | null): boolean {
  if (!principal) return false;
  if (principal.kind === 'session') return isManager(principal);
  return allScopePairs().every((pair) => principal.scopes.has(pair));
}

/** For logs and audit entries: which key or staff user acted. */
export function actorOf(principal: Principal | null): {
  actorType: 'api_key' | 'staff' | 'system';
  actorId: string | null;
} {
  if (!principal) return { actorType: 'system', actorId: null };
  return principal.kind === 'apiKey'
    ? { actorType: 'api_key', actorId: principal.keyId }
    : { actorType: 'staff', actorId: principal.staffUserId };
}
