import type { Request } from 'express';

/**
 * Where a browser request comes from: its Origin header, else the origin of its Referer; undefined
 * when it carries neither (not a browser's cross-site request: curl, a server, an SDK).
 */
export function requestOrigin(req: Request): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined) return origin;
  const referer = req.headers.referer;
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/** The service's own origin as this request reached it (honours TRUST_PROXY for the scheme and host). */
export const ownOrigin = (req: Request) => `${req.protocol}://${req.get('host')}`;

/** An origin the service trusts with browser writes: its own, or one in CORS_ORIGINS. */
export function isTrustedOrigin(req: Request, origin: string, listed: ReadonlySet<string>): boolean {
  return listed.has(origin) || origin === ownOrigin(req);
}
