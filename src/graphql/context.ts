import type { Request } from 'express';
import { sessionCookieOf } from '../auth/session-cookie';
import type { Context, RequestServices } from '../context';

/** The same request context for every front door. */
export function contextFromRequest(services: RequestServices, req: Request): Context {
  return {
    ...services,
    principal: req.state.principal,
    requestId: req.state.requestId,
    clientAddress: req.state.clientAddress,
    userAgent: req.get('user-agent'),
    log: req.state.log,
    sessionCookie: sessionCookieOf(req, { alwaysSecure: services.alwaysSecureCookies ?? false }),
  };
}
