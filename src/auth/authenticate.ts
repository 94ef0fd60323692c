import type { Request, Response } from 'express';
import type { PrismaClient } from '../../prisma/generated/client/client';
import type { Admission } from '../admission/admission';
import type { CostBudget } from '../cost/budget';
import { budgetCharge } from '../cost/charge';
import { AppError } from '../errors';
import { isTrustedOrigin, requestOrigin } from '../http/origin';
import type { RateLimitDecision } from '../ratelimit/decision';
import type { DataVersions } from '../read-cache/data-version';
import type { AddressFailures } from './address-failures';
import { presentedCredential } from './credentials';
import type { KeyVerifier } from './key-verifier';
import { type SessionCookiePolicy, sessionCookieOf } from './session-cookie';
import { authenticateSession } from './sessions';

export interface AuthenticatorDeps {
  prisma: PrismaClient;
  now: () => Date;
  keys: KeyVerifier;
  /** Failed lookups per client address (the key verifier counts its own): unknown session tokens. */
  failures: AddressFailures | null;
  admission: Admission;
  rateLimitHeaders: (decision: RateLimitDecision, principal: 'apiKey' | 'session') => Record<string, string>;
  /** The read cache's store data versions; null when the read cache is off. */
  dataVersions: DataVersions | null;
  sessionCookie: SessionCookiePolicy;
  /** SESSION_IDLE_MINUTES: a session unused this long is over. */
  sessionIdleMs: number;
  /** CORS_ORIGINS: besides the service's own, the origins browser writes may come from. */
  trustedOrigins: readonly string[];
  /** The query-cost budget; null when it is off. */
  costBudget: CostBudget | null;
}

export interface AuthenticateOptions {
  /**
   * Asked once the caller is identified: whether the request is a versioned read (every root field
   * a `versionedRead` or `cacheableRead`, src/read-cache/operation.ts). If so the caller's store data
   * version is read too (into req.state.dataVersion), by the admission script: the read cache and the
   * version ETag rest on it.
   */
  isVersionedRead?: () => boolean;
  /** Whether the request changes state (a REST write, a GraphQL mutation): see the origin rule below. */
  isWrite?: () => boolean;
  /** The operation needs no credential (signing in): only the origin rule applies. */
  isPublic?: boolean;
  /** How many requests this HTTP request counts as (default 1): an MCP batch counts each call. */
  requests?: number;
  /**
   * The operation's requested cost, when the door knows it before admission (undefined: it does
   * not; asked only of a caller who holds a budget): its charge (src/cost/charge.ts) is then made in
   * admission's round trip, and the decision left in req.state.costBudget for the pipeline's
   * cost-budget plugin, which does not charge again.
   */
  cost?: () => number | undefined;
}

const unknownCost = () => undefined;

export type Authenticate = (req: Request, res: Response, options?: AuthenticateOptions) => Promise<void>;

/**
 * Every /graphql, /api/v1 and /mcp request passes here before its operation runs: a dashboard
 * session, or an API key through the check order of docs/design.md "API keys"; then the sliding-window rate limit (per key,
 * or per staff member for a session) and, for keys, the usage quota. Only requests that pass all of
 * it count. Throws AppError; sets the principal on req.state and the rate-limit headers.
 *
 * Browser writes (README "Authentication"): a write authenticated by the session cookie — which the
 * browser adds by itself — must say it comes from the service's own origin or one in CORS_ORIGINS
 * (Origin, else Referer); a write that needs no credential (signing in) is refused only when it says
 * it comes from elsewhere. Either way 403 ORIGIN_NOT_ALLOWED, before any lookup.
 */
export function createAuthenticator(deps: AuthenticatorDeps): Authenticate {
  const trusted = new Set(deps.trustedOrigins);
  const checkOrigin = (req: Request, required: boolean) => {
    const origin = requestOrigin(req);
    if (origin === undefined ? !required : isTrustedOrigin(req, origin, trusted)) return;
    throw new AppError(
      'ORIGIN_NOT_ALLOWED',
      origin === undefined
        ? 'A write signed in by the session cookie must carry an Origin or Referer header'
        : `Writes from ${origin} are not allowed (CORS_ORIGINS)`,
    );
  };
  const refuseOverLimit = (
    res: Response,
    rateLimit: RateLimitDecision,
    principal: { kind: 'apiKey' | 'session' },
    requests: number,
  ) => {
    const headers = deps.rateLimitHeaders(rateLimit, principal.kind);
    for (const name in headers) res.setHeader(name, headers[name] as string);
    if (!rateLimit.allowed) {
      const batch = requests > 1 ? ` (this batch counts as ${requests} requests)` : '';
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${rateLimit.limit} requests exceeded${batch}; retry in ${rateLimit.retryAfterSeconds ?? rateLimit.resetSeconds} s`,
      );
    }
  };

  return async (req, res, options) => {
    const write = options?.isWrite?.() ?? false;
    if (options?.isPublic) {
      if (write) checkOrigin(req, false);
      return;
    }
    const now = deps.now();
    const credential = presentedCredential(req.headers, deps.sessionCookie.name);
    const withDataVersion = (deps.dataVersions !== null && options?.isVersionedRead?.()) ?? false;
    // A conditional read may be answered 304, which spends no cost budget (README "Conditional
    // requests"): its charge waits for the pipeline's cost-budget plugin, after the condition.
    const conditional = withDataVersion && req.headers['if-none-match'] !== undefined;
    const cost = (!conditional && options?.cost) || unknownCost;
    if (credential.kind === 'session') {
      if (write && credential.via === 'cookie') checkOrigin(req, true);
      const failures = deps.failures
        ? { byAddress: deps.failures, address: req.state.clientAddress }
        : undefined;
      const principal = await authenticateSession(
        deps.prisma,
        credential.token,
        now,
        deps.sessionIdleMs,
        failures,
      ).catch((error) => {
        // A cookie that no longer signs anyone in is dropped, so the browser stops sending it.
        if (credential.via === 'cookie' && (error as AppError).code === 'UNAUTHENTICATED')
          sessionCookieOf(req, deps.sessionCookie).clear();
        throw error;
      });
      req.state.principal = principal;
      const { rateLimit, dataVersion, costBudget } = await deps.admission.admitSession(principal, now, {
        withDataVersion,
        requests: options?.requests,
        budget: budgetCharge(deps.costBudget, principal, cost, now),
      });
      req.state.dataVersion = dataVersion;
      req.state.costBudget = costBudget;
      refuseOverLimit(res, rateLimit, principal, options?.requests ?? 1);
      req.state.authenticated = true;
      return;
    }
    const verified = await deps.keys.verify(
      credential.kind === 'apiKey' ? credential.value : undefined,
      req.state.clientAddress,
      now,
    );
    req.state.principal = verified.principal;
    const { rateLimit, usage, dataVersion, costBudget } = await deps.admission.admit(verified.usage, now, {
      withDataVersion,
      requests: options?.requests,
      budget: budgetCharge(deps.costBudget, verified.principal, cost, now),
    });
    req.state.dataVersion = dataVersion;
    req.state.costBudget = costBudget;
    refuseOverLimit(res, rateLimit, verified.principal, options?.requests ?? 1);
    if (!usage?.allowed) {
      throw new AppError('API_KEY_USAGE_LIMIT_REACHED', 'This API key has used its whole usage limit');
    }
    req.state.authenticated = true;
  };
}
