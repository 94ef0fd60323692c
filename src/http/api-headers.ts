import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';

/**
 * What every answer carries unless a page says otherwise: never kept by a browser or a proxy (answers
 * hold sign-in tokens, new and rotated secrets, a store's data), and never read as another media type
 * than the one it declares.
 */
export const API_HEADERS: ReadonlyArray<readonly [name: string, value: string]> = [
  ['Cache-Control', 'no-store'],
  ['X-Content-Type-Options', 'nosniff'],
];

/**
 * Mounted first, so every door, the health and metrics paths, the JSON 404 and any error answer carry
 * the headers, whoever writes the response. The dashboard's and the reference's files set their own
 * Cache-Control over it (their nosniff stays).
 */
export function apiHeaders(_req: Request, res: Response, next: NextFunction): void {
  for (const [name, value] of API_HEADERS) res.setHeader(name, value);
  next();
}

/**
 * express.static's `setHeaders` for the dashboard's and the reference's files: it runs before static
 * writes its caching headers, so a file found gets its long cache (`maxAge`) instead of `no-store`,
 * and a file not found falls through with `no-store` still set.
 */
export function keepFileCache(res: ServerResponse): void {
  res.removeHeader('cache-control');
}

/** The request headers that name the caller, whose rights and store decide a door's answer. */
const CALLER_HEADERS = 'Authorization, tt-api-key, Cookie';

/**
 * Mounted on the three doors: their answers depend on the caller (and /graphql's also on Accept,
 * which picks its media type), so `Vary` says so, as RFC 9110 12.5.5 asks of an answer that carries
 * an ETag; CORS adds `Origin`.
 */
export function varyByCaller(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Vary', req.baseUrl === '/graphql' ? `Accept, ${CALLER_HEADERS}` : CALLER_HEADERS);
  next();
}
