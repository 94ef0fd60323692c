import type { CookieOptions, Request } from 'express';

/** The session cookie's name and whether it is Secure on every request: one policy for the setter and the reader. */
export interface SessionCookiePolicy {
  readonly name: string;
  readonly alwaysSecure: boolean;
}

/**
 * Production: `__Host-tt_session`, always Secure. Browsers keep a `__Host-` cookie only when it is
 * Secure, Path=/ and has no Domain, so a sibling subdomain or a plain-HTTP answer can neither set
 * nor shadow it. Elsewhere (http://localhost in development and tests): `tt_session`, Secure over
 * HTTPS only.
 */
export function sessionCookiePolicy(config: { isProduction: boolean }): SessionCookiePolicy {
  return config.isProduction
    ? { name: '__Host-tt_session', alwaysSecure: true }
    : { name: 'tt_session', alwaysSecure: false };
}

/** What a sign-in or sign-out asks of the browser: keep the session cookie, or drop it. */
export interface SessionCookie {
  set(token: string, expiresAt: Date): void;
  clear(): void;
}

/** Outside HTTP (tests, jobs, the CLI) there is no browser to tell. */
export const noSessionCookie: SessionCookie = { set: () => {}, clear: () => {} };

/**
 * The session cookie (docs/design.md "Dashboard sessions"): HttpOnly, SameSite=Lax, Path=/, no Domain, and
 * Secure when the policy says always or the request came over HTTPS (express's req.secure honours
 * TRUST_PROXY). (A class: every request's context gets one, and most never use it.)
 */
class BrowserSessionCookie implements SessionCookie {
  constructor(
    private readonly req: Request,
    private readonly policy: SessionCookiePolicy,
  ) {}

  set(token: string, expiresAt: Date): void {
    this.req.res?.cookie(this.policy.name, token, { ...this.attributes(), expires: expiresAt });
  }

  clear(): void {
    this.req.res?.clearCookie(this.policy.name, this.attributes());
  }

  private attributes(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: this.policy.alwaysSecure || this.req.secure,
    };
  }
}

export const sessionCookieOf = (req: Request, policy: SessionCookiePolicy): SessionCookie =>
  new BrowserSessionCookie(req, policy);
