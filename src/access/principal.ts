import type { ApiKeyEnvironment, Plan, StaffRole } from '../../prisma/generated/client/enums';
import { AppError } from '../errors';
import { allScopePairs } from './scopes';

/**
 * Who is calling, once authentication has passed: an API key or a staff member's dashboard session.
 * Both carry their rights as stored "RESOURCE:ACTION" pairs — a key its own scopes, a session its
 * role's (src/access/roles.ts) — and the schema's scope checks read nothing else.
 */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  keyId: string;
  storeId: string;
  plan: Plan;
  environment: ApiKeyEnvironment;
  scopes: ReadonlySet<string>;
  /** Made by an owner, the CLI or such a key: may change an OWNER (with every scope). */
  canChangeOwner: boolean;
  /** The key's own bounds, which whatever it makes or loosens must stay within (credential-rights.ts). */
  ipAllowlist: readonly string[];
  expiresAt: Date | null;
  usageLimit: number | null;
}

/** A staff member signed in to the dashboard; `scopes` are their role's (roleScopes). */
export interface SessionPrincipal {
  kind: 'session';
  sessionId: string;
  staffUserId: string;
  storeId: string;
  plan: Plan;
  role: StaffRole;
  scopes: ReadonlySet<string>;
}

/**
 * The service itself acting for a store outside any door — an operator's admin command, a job: every
 * right, audited as `system`, and never rate-limited or idempotent (no caller to answer).
 */
export interface SystemPrincipal {
  kind: 'system';
  storeId: string;
  /** The store's plan: what it offers (webhooks, API keys) holds for the service's own work too. */
  plan: Plan;
  scopes: ReadonlySet<string>;
}

export type Principal = ApiKeyPrincipal | SessionPrincipal | SystemPrincipal;

const everyPair: ReadonlySet<string> = new Set(allScopePairs());
export const systemPrincipal = (store: { id: string; plan: Plan }): SystemPrincipal => ({
  kind: 'system',
  storeId: store.id,
  plan: store.plan,
  scopes: everyPair,
});

/** Whether the caller holds a stored "RESOURCE:ACTION" pair (what root fields declare). */
export function holdsPair(principal: Principal | null, pair: string): boolean {
  return principal?.scopes.has(pair) ?? false;
}

/**
 * The refusal of a right the caller lacks, named as the caller knows it: a session by its role
 * (403 FORBIDDEN, "The STAFF role may not PRODUCTS:DELETE"), a key by its scopes (403 INSUFFICIENT_SCOPE).
 */
export function refusal(
  principal: Principal | null,
  right: string | undefined,
  keyMessage?: string,
): AppError {
  if (principal?.kind === 'session')
    return new AppError('FORBIDDEN', `The ${principal.role} role may not ${right ?? 'do this'}`);
  return new AppError(
    'INSUFFICIENT_SCOPE',
    keyMessage ?? `This API key lacks the required scope${right ? ` ${right}` : ''}`,
  );
}

/**
 * Only an owner changes the owner: an OWNER's session, the service itself, or a key made by one of
 * them (a key made by an admin's session, or by such a key, does not inherit the right its maker
 * lacked — else an admin could make a key with every scope and change the owner with it).
 */
export function mayChangeOwner(principal: Principal | null): boolean {
  if (principal?.kind === 'session') return principal.role === 'OWNER';
  if (principal?.kind === 'apiKey') return principal.canChangeOwner;
  return principal?.kind === 'system';
}

/** For logs and audit entries: which key or staff user acted. */
export function actorOf(principal: Principal | null): {
  actorType: 'api_key' | 'staff' | 'system';
  actorId: string | null;
} {
  if (principal?.kind === 'apiKey') return { actorType: 'api_key', actorId: principal.keyId };
  if (principal?.kind === 'session') return { actorType: 'staff', actorId: principal.staffUserId };
  return { actorType: 'system', actorId: null };
}
