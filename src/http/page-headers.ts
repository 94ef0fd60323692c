import type { Response } from 'express';

/**
 * The pages this server serves (the dashboard, the API reference) run their own code only:
 * scripts, styles, images and API calls from this origin, no framing. Inline style attributes are
 * allowed for the libraries that position with them (dialogs, charts, Swagger UI).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The pages' own headers; nosniff, like every answer, comes from src/http/api-headers.ts. */
export function pageHeaders(res: Response): void {
  res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  res.setHeader('referrer-policy', 'same-origin');
  res.setHeader('x-frame-options', 'DENY');
}
