import type { IncomingHttpHeaders } from 'node:http';

/** Session tokens: `tts_` + 64 hex. Never confused with an API key (`tt_` + 64 hex). */
export const SESSION_TOKEN_PREFIX = 'tts_';

export type Credential =
  | { kind: 'apiKey'; value: string }
  /** `cookie`: the browser sent it on its own (cross-site writes must be checked); `bearer`: the client did. */
  | { kind: 'session'; token: string; via: 'cookie' | 'bearer' }
  | { kind: 'none' };

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.trim();

/**
 * What the request presents: `tt-api-key` wins, then `Authorization: Bearer` (a `tts_` token is a
 * dashboard session, anything else is taken as an API key), then the session cookie, by the name the
 * session-cookie policy gives it (src/auth/session-cookie.ts).
 */
export function presentedCredential(headers: IncomingHttpHeaders, sessionCookieName: string): Credential {
  const direct = first(headers['tt-api-key']);
  if (direct) return { kind: 'apiKey', value: direct };
  const bearer = first(headers.authorization)
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim();
  if (bearer) {
    return bearer.startsWith(SESSION_TOKEN_PREFIX)
      ? { kind: 'session', token: bearer, via: 'bearer' }
      : { kind: 'apiKey', value: bearer };
  }
  const cookie = sessionCookie(first(headers.cookie), sessionCookieName);
  if (cookie) return { kind: 'session', token: cookie, via: 'cookie' };
  return { kind: 'none' };
}

/** The session cookie's value; a malformed one counts as absent (the session check then says 401). */
function sessionCookie(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim()) || undefined;
    } catch {
      return part.slice(at + 1).trim() || undefined;
    }
  }
  return undefined;
}
