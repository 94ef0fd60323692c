import type { Logger } from 'pino';
import type { PrismaClient } from '../prisma/generated/client/client';
import type { Plan } from '../prisma/generated/client/enums';
import { type Principal, systemPrincipal } from './access/principal';
import type { AuthTarget } from './auth/invalidation';
import type { LoginThrottle } from './auth/login-throttle';
import { noSessionCookie, type SessionCookie, type SessionCookiePolicy } from './auth/session-cookie';
import { AppError } from './errors';
import type { WebhookServices } from './webhook-delivery/services';

/** What every request's context carries from the process (built once in src/runtime.ts). */
export interface RequestServices {
  prisma: PrismaClient;
  now: () => Date;
  /** After a key or store changes: drops it from every API process's verified-key cache. */
  invalidateAuth: (target: AuthTarget) => Promise<void>;
  loginThrottle: LoginThrottle;
  /** Webhook secrets and URL policy (from configuration); absent in hand-made test contexts. */
  webhooks?: WebhookServices;
  /** After a write of the store commits: replaces its read-cache data version (src/resources/store-writes.ts). */
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

/** The services that serve only a door's requests (signing in, the session cookie): none outside. */
type DoorServices = 'loginThrottle' | 'sessionCookiePolicy';

/**
 * The context of work the service does for a store outside any door — an operator's admin command,
 * a script: the store's system principal (every right, audited as `system`), the same services and
 * the same store writes (so the read caches of the API processes see them at once). A required
 * service added to RequestServices is required here too: tsc names each caller that must make it.
 */
export function systemContext(
  services: Omit<RequestServices, DoorServices>,
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
