import type { Response } from 'express';
import { type AppError, errorEnvelope } from '../errors';

/** The REST error envelope with its HTTP status. */
export function sendRestError(res: Response, error: AppError): void {
  setRetryAfter(res, error);
  res.status(error.status).json(errorEnvelope(error, res.req.state.requestId));
}

/** A failure before GraphQL execution: a GraphQL-shaped body, and the HTTP status set too. */
export function sendGraphQLError(res: Response, error: AppError): void {
  setRetryAfter(res, error);
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

/** Errors that know when to come back (a sign-in throttle, an unreachable database) say so in Retry-After. */
function setRetryAfter(res: Response, error: AppError): void {
  const retryAfter = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
}

export type ErrorResponder = (res: Response, error: AppError) => void;
