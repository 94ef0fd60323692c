import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/client/client';
import type { Plan } from '../prisma/generated/client/enums';
import type { AuthTarget } from './auth/invalidation';
import { type Principal, systemPrincipal } from './auth/principal';
import { noSessionCookie, type SessionCookie, type SessionCookiePolicy } from './auth/session-cookie';
import { AppError } from './errors';
import type { WebhookServices } from './modules/webhooks/services';

/** Sign-in attempts are throttled per account and per client address (src/auth/login-throttle.ts). */
export interface LoginThrottle {
  /** Counts an attempt before its password is checked; throws 429 once the account or address is over. */
  attempt(email: string, ip: string | undefined): Promise<void>;
  /** The attempt signed in: clears the account's count, gives the address its point back. */
  succeed(email: string, ip: string | undefined): Promise<void>;
  /** The attempt was not a wrong password (a suspended store, an outage): both points back. */
  giveBack(email: string, ip: string | undefined): Promise<void>;
}

/** What every request's context carries from the process (built once in src/runtime.ts). */
export interface RequestServices {
  prisma: PrismaClient;
  now: () => Date;
  /** After a key or store changes: drops it from every API process's verified-key cache. */
  invalidateAuth: (target: AuthTarget) => Promise<void>;
  loginThrottle: LoginThrottle;
  /** Webhook secrets and URL policy (from configuration); absent in hand-made test contexts. */
  webhooks?: WebhookServices;
  /** After a write of the store commits: replaces its read-cache data version (src/modules/store-writes.ts). */
  storeChanged?: (storeId: string) => Promise<void>;
  /** The session cookie's name and Secure rule (absent in hand-made test contexts: development's). */
  sessionCookiePolicy?: SessionCookiePolicy;
}

/** The per-request context shared by GraphQL, the REST adapter and MCP. */
export interface Context extends RequestServices {
  principal: Principal | null;
  requestId: string;
  clientAddress: string | undefined;
  userAgent: string | undefined;
  log: Logger;
  /** Tells the caller's browser to keep or drop the dashboard session cookie (a no-op outside HTTP). */
  sessionCookie: SessionCookie;
}

/** The caller's store; every service query is filtered by it. */
export function storeIdOf(ctx: Context): string {
  if (!ctx.principal) throw new AppError('UNAUTHENTICATED', 'Authentication is required');
  return ctx.principal.storeId;
}

/** Sign-ins never happen outside a door: nothing to throttle. */
const noThrottle: LoginThrottle = {
  attempt: async () => {},
  succeed: async () => {},
  giveBack: async () => {},
};

/**
 * The context of work the service does for a store outside any door — an operator's admin command,
 * a script: the store's system principal (every right, audited as `system`), the same services and
 * the same store writes (so the read caches of the API processes see them at once).
 */
export function systemContext(
  services: Pick<RequestServices, 'prisma' | 'now' | 'invalidateAuth' | 'storeChanged' | 'webhooks'>,
  store: { id: string; plan: Plan },
  log: Logger,
): Context {
  return {
    ...services,
    loginThrottle: noThrottle,
    principal: systemPrincipal(store),
    requestId: `sys_${store.id}`,
    clientAddress: undefined,
    userAgent: undefined,
    log,
    sessionCookie: noSessionCookie,
  };
}
