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
 */
export function sessionCookieOf(req: Request, options: { alwaysSecure: boolean }): SessionCookie {
  const attributes = (): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: options.alwaysSecure || req.secure,
  });
  return {
    set: (token, expiresAt) =>
      req.res?.cookie(SESSION_COOKIE, token, { ...attributes(), expires: expiresAt }),
    clear: () => req.res?.clearCookie(SESSION_COOKIE, attributes()),
  };
}
