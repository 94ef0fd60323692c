import cors from 'cors';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../errors';
import { sendRestError } from './respond';

/** The request headers the API reads, which a browser must be allowed to send. */
const ALLOWED_HEADERS = [
  'tt-api-key',
  'authorization',
  'content-type',
  'idempotency-key',
  'x-request-id',
  'if-none-match',
  'mcp-protocol-version',
  'mcp-session-id',
];
/** The response headers a browser script may read. */
const EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Cost-Limit',
  'X-Cost-Remaining',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'Idempotent-Replayed',
  'ETag',
  'WWW-Authenticate',
];

/**
 * CORS for the three doors, once (README "Browsers and CORS"): an origin in CORS_ORIGINS gets the
 * CORS headers with credentials (its preflight 204 with the methods and headers the API reads); any
 * other origin gets no CORS header at all, and its preflight a coded 403. Requests without an Origin
 * are not CORS requests and pass untouched. (The `cors` package writes the headers.)
 */
export function corsFor(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  const listed = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'PUT', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    if (origin === undefined) return next();
    if (allowed.has(origin)) return listed(req, res, next);
    // Caches must keep answers to different origins apart, listed or not.
    res.vary('Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      return sendRestError(
        res,
        new AppError(
          'ORIGIN_NOT_ALLOWED',
          `The origin ${origin} may not call this API from a browser (CORS_ORIGINS)`,
        ),
      );
    }
    next();
  };
}
