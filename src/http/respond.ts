import type { Response } from 'express';
import { type AppError, errorEnvelope } from '../errors';

/**
 * How to authenticate, on every 401 of every door (RFC 9110, section 11.6.1; MCP's authorization spec asks
 * for it too): an API key as `Authorization: Bearer` or in the `tt-api-key` header.
 */
export const AUTHENTICATE_CHALLENGE =
  'Bearer realm="commerce-api", ApiKey realm="commerce-api", header="tt-api-key"';

/** The headers an error answer carries beside its body: the 401 challenge, Retry-After. */
export function setErrorHeaders(res: Response, error: AppError): void {
  if (error.status === 401) res.setHeader('WWW-Authenticate', AUTHENTICATE_CHALLENGE);
  const retryAfter = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
}

/** The REST error envelope with its HTTP status. */
export function sendRestError(res: Response, error: AppError): void {
  setErrorHeaders(res, error);
  res.req.state.errorCode ??= error.code;
  res.status(error.status).json(errorEnvelope(error, res.req.state.requestId));
}

/** A failure before GraphQL execution: a GraphQL-shaped body, and the HTTP status set too. */
export function sendGraphQLError(res: Response, error: AppError): void {
  setErrorHeaders(res, error);
  res.req.state.errorCode ??= error.code;
  res.status(error.status).json({
    errors: [
      {
        message: error.message,
        extensions: {
          code: error.code,
          status: error.status,
          requestId: res.req.state.requestId,
          ...(error.details ? { details: error.details } : {}),
        },
      },
    ],
  });
}

export type ErrorResponder = (res: Response, error: AppError) => void;
