import type { StaffRole } from '../../prisma/generated/client/enums';
import { AppError } from '../errors';
import { uncoveredEntries } from './ip-allowlist';
import type { Principal } from './principal';
import { roleScopes } from './roles';
import { allScopePairs } from './scopes';

/**
 * What a credential lets whoever holds it do: its (resource, action) pairs, whether it may change the
 * store's owner, and the bounds it is used within (where from, until when, how many requests). A
 * bound of `null` is no bound: any address, never expires, unlimited.
 */
export interface Rights {
  pairs: ReadonlySet<string>;
  changesOwner: boolean;
  ipAllowlist: readonly string[] | null;
  expiresAt: Date | null;
  usageLimit: number | null;
}

const everyPair = allScopePairs();
/** How a refusal names the owner's right, and who holds it. */
export const OWNER_RIGHT =
  "changing the store's owner (held by owners, the admin CLI and keys with every scope an owner made)";
const holdsEvery = (pairs: ReadonlySet<string>) => everyPair.every((pair) => pairs.has(pair));

/**
 * A key's rights. It changes the owner only with every scope and when its maker could (canChangeOwner:
 * an owner's session, the CLI, or a key that could): a key made by an admin never can.
 */
export function rightsOfKey(key: {
  scopes: Iterable<string>;
  canChangeOwner: boolean;
  ipAllowlist: readonly string[];
  expiresAt: Date | null;
  usageLimit: number | null;
}): Rights {
  const pairs = new Set(key.scopes);
  return {
    pairs,
    changesOwner: key.canChangeOwner && holdsEvery(pairs),
    ipAllowlist: key.ipAllowlist.length > 0 ? key.ipAllowlist : null,
    expiresAt: key.expiresAt,
    usageLimit: key.usageLimit,
  };
}

/** A staff member's rights: their role's pairs, signing in from anywhere, for as long as they are staff. */
export function rightsOfRole(role: StaffRole): Rights {
  return {
    pairs: roleScopes(role),
    changesOwner: role === 'OWNER',
    ipAllowlist: null,
    expiresAt: null,
    usageLimit: null,
  };
}

/** What the caller holds: a key its own rights and bounds, a session its role's, the service everything. */
export function rightsOfPrincipal(principal: Principal): Rights {
  if (principal.kind === 'apiKey') return rightsOfKey({ ...principal, scopes: principal.scopes });
  if (principal.kind === 'session') return rightsOfRole(principal.role);
  return {
    pairs: principal.scopes,
    changesOwner: true,
    ipAllowlist: null,
    expiresAt: null,
    usageLimit: null,
  };
}

/** Each right `target` has that `holder` lacks, in words; empty when the holder covers the target. */
export function missingRights(holder: Rights, target: Rights): string[] {
  const missing = [...target.pairs].filter((pair) => !holder.pairs.has(pair)).sort();
  if (target.changesOwner && !holder.changesOwner) missing.push(OWNER_RIGHT);
  if (holder.ipAllowlist) {
    if (!target.ipAllowlist) missing.push('use from any IP address (its own IP allowlist is narrower)');
    else
      for (const entry of uncoveredEntries(holder.ipAllowlist, target.ipAllowlist))
        missing.push(`use from ${entry} (outside its own IP allowlist)`);
  }
  if (holder.expiresAt && (!target.expiresAt || target.expiresAt > holder.expiresAt))
    missing.push(`use after ${holder.expiresAt.toISOString()} (its own expiry)`);
  if (holder.usageLimit !== null && (target.usageLimit === null || target.usageLimit > holder.usageLimit))
    missing.push(`more than ${holder.usageLimit} requests (its own usage limit)`);
  return missing;
}

/**
 * The one rule for every credential (README "Security model"): a principal may create, rotate, update,
 * reactivate or loosen a key, and invite, re-role, reactivate or set the password of a staff member,
 * only when it holds every right that credential holds now or would hold afterwards (`targets`).
 * Otherwise 403 INSUFFICIENT_SCOPE naming what is missing, before anything is written. Operations that
 * only take rights away (revoke, deactivate, delete) do not ask.
 */
export function assertHoldsRights(
  principal: Principal | null,
  targets: readonly Rights[],
  what: string,
): void {
  const holder = principal ? rightsOfPrincipal(principal) : null;
  const missing = new Set<string>();
  for (const target of targets) {
    for (const right of holder ? missingRights(holder, target) : ['every right']) missing.add(right);
  }
  if (missing.size === 0) return;
  const who = principal?.kind === 'session' ? `The ${principal.role} role` : 'This API key';
  const list = [...missing];
  throw new AppError('INSUFFICIENT_SCOPE', `${who} cannot ${what}: it lacks ${list.join(', ')}`, [
    ...list.map((message) => ({ path: 'rights', message })),
  ]);
}
