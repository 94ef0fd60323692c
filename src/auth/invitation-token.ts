import { createHash, randomBytes } from 'node:crypto';

/** An invitation link works for 72 hours from the e-mail that carries it. */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;

/** 32 random bytes, base64url: 43 characters. Anything else is refused before any lookup. */
export const INVITATION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new link token; it goes into the e-mail and nowhere else. */
export const mintInvitationToken = (): string => randomBytes(32).toString('base64url');

/** Only this digest is stored (StaffInvitation.tokenHash). */
export const hashInvitationToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export const invitationExpiry = (from: Date): Date => new Date(from.getTime() + INVITATION_TTL_MS);
