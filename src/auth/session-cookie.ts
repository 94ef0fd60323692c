import type { CookieOptions, Request } from 'express';
import { SESSION_COOKIE } from './credentials';

/** What a sign-in or sign-out asks of the browser: keep the session cookie, or drop it. */
export interface SessionCookie {
  set(token: string, expiresAt: Date): void;
  clear(): void;
}

/** Outside HTTP (tests, jobs, the CLI) there is no browser to tell. */
export const noSessionCookie: SessionCookie = { set: () => {}, clear: () => {} };

/**
 * The tt_session cookie (DESIGN "Plans and stores"): HttpOnly, SameSite=Lax, Path=/, and Secure in
 * production or whenever the request came over HTTPS (express's req.secure honours TRUST_PROXY).
 * (A class: every request's context gets one, and most never use it.)
 */
class BrowserSessionCookie implements SessionCookie {
  constructor(
    private readonly req: Request,
    private readonly alwaysSecure: boolean,
  ) {}

  set(token: string, expiresAt: Date): void {
    this.req.res?.cookie(SESSION_COOKIE, token, { ...this.attributes(), expires: expiresAt });
  }

  clear(): void {
    this.req.res?.clearCookie(SESSION_COOKIE, this.attributes());
  }

  private attributes(): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', path: '/', secure: this.alwaysSecure || this.req.secure };
  }
}

export const sessionCookieOf = (req: Request, options: { alwaysSecure: boolean }): SessionCookie =>
  new BrowserSessionCookie(req, options.alwaysSecure);
