import type { Request, Response } from 'express';
import type { PrismaClient } from '../../prisma/generated/client/client';
import type { Admission } from '../admission/admission';
import { AppError } from '../errors';
import type { RateLimitDecision } from '../ratelimit/decision';
import type { DataVersions } from '../read-cache/data-version';
import { presentedCredential } from './credentials';
import type { KeyVerifier } from './key-verifier';
import { sessionCookieOf } from './session-cookie';
import { authenticateSession } from './sessions';

export interface AuthenticatorDeps {
  prisma: PrismaClient;
  now: () => Date;
  keys: KeyVerifier;
  admission: Admission;
  rateLimitHeaders: (decision: RateLimitDecision) => Record<string, string>;
  /** The read cache's store data versions; null when the read cache is off. */
  dataVersions: DataVersions | null;
  alwaysSecureCookies: boolean;
}

export interface AuthenticateOptions {
  /**
   * Asked once the caller is identified: whether the request is a cacheable read. If so the caller's
   * store data version is read too (into req.state.dataVersion): for a key, by the admission script.
   */
  isCacheableRead?: () => boolean;
}

export type Authenticate = (req: Request, res: Response, options?: AuthenticateOptions) => Promise<void>;

/**
 * Every /graphql, /api/v1 and /mcp request passes here before its operation runs: a dashboard session, or
 * an API key through DESIGN's check order, then (keys only) the sliding-window rate limit and the
 * usage quota. Only requests that pass all of it count as usage. Throws AppError; sets the
 * principal on req.state and the rate-limit headers on the response.
 */
export function createAuthenticator(deps: AuthenticatorDeps): Authenticate {
  return async (req, res, options) => {
    const now = deps.now();
    const credential = presentedCredential(req.headers);
    if (credential.kind === 'session') {
      const principal = await authenticateSession(deps.prisma, credential.token, now).catch((error) => {
        // A cookie that no longer signs anyone in is dropped, so the browser stops sending it.
        if (credential.via === 'cookie' && (error as AppError).code === 'UNAUTHENTICATED')
          sessionCookieOf(req, { alwaysSecure: deps.alwaysSecureCookies }).clear();
        throw error;
      });
      req.state.principal = principal;
      if (deps.dataVersions && options?.isCacheableRead?.())
        req.state.dataVersion = await deps.dataVersions.current(principal.storeId);
      req.state.authenticated = true;
      return;
    }
    const verified = await deps.keys.verify(
      credential.kind === 'apiKey' ? credential.value : undefined,
      req.state.clientAddress,
      now,
    );
    req.state.principal = verified.principal;

    const { rateLimit, usage, dataVersion } = await deps.admission.admit(verified.usage, now, {
      withDataVersion: (deps.dataVersions !== null && options?.isCacheableRead?.()) ?? false,
    });
    req.state.dataVersion = dataVersion;
    for (const [name, value] of Object.entries(deps.rateLimitHeaders(rateLimit))) res.setHeader(name, value);
    if (!rateLimit.allowed) {
      throw new AppError(
        'RATE_LIMIT_EXCEEDED',
        `Rate limit of ${rateLimit.limit} requests exceeded; retry in ${rateLimit.retryAfterSeconds ?? rateLimit.resetSeconds} s`,
      );
    }
    if (!usage?.allowed) {
      throw new AppError('API_KEY_USAGE_LIMIT_REACHED', 'This API key has used its whole usage limit');
    }
    req.state.authenticated = true;
  };
}
