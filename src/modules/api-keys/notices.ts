import type { ApiKey } from '../../../prisma/generated/client/client';
import { toScopeObjects } from '../../access/scopes';

/**
 * README "Key notices": the lifecycle notices of a key, the one place their rule is written. The
 * keys page marks a key by `noticesOf`, and the send_key_notices job sends each notice it returns
 * once per key and subject.
 */
export const noticeKinds = ['expiring', 'usage_threshold'] as const;
export type NoticeKind = (typeof noticeKinds)[number];

export const EXPIRY_NOTICE_DAYS = 7;
export const USAGE_NOTICE_PERCENT = 80;
const DAY_MS = 86_400_000;

export type NoticedKey = Pick<ApiKey, 'status' | 'expiresAt' | 'usageLimit' | 'usageCount'>;

/**
 * The notices in force for a key at `now`: `expiring` within 7 days of its expiry, `usage_threshold`
 * once its flushed usage reaches 80 % of its limit. A key that cannot authenticate (revoked,
 * deactivated, expired) has none: there is nothing left to warn about.
 */
export function noticesOf(key: NoticedKey, now: Date): NoticeKind[] {
  if (key.status !== 'active' || (key.expiresAt && key.expiresAt <= now)) return [];
  const kinds: NoticeKind[] = [];
  if (key.expiresAt && key.expiresAt.getTime() - now.getTime() <= EXPIRY_NOTICE_DAYS * DAY_MS)
    kinds.push('expiring');
  if (
    key.usageLimit !== null &&
    key.usageCount * 100n >= BigInt(key.usageLimit) * BigInt(USAGE_NOTICE_PERCENT)
  )
    kinds.push('usage_threshold');
  return kinds;
}

/**
 * What a notice is about, stored with it: the expiry for `expiring`, the limit for `usage_threshold`.
 * A key whose expiry is extended or whose limit is raised is noticed again when it nears the new one.
 */
export function noticeSubject(key: NoticedKey, kind: NoticeKind): string {
  return kind === 'expiring' ? (key.expiresAt?.toISOString() ?? '') : String(key.usageLimit);
}

/** The moment up to which an expiry is near: candidates' `expiresAt` is at most this. */
export const expiryHorizon = (now: Date) => new Date(now.getTime() + EXPIRY_NOTICE_DAYS * DAY_MS);

/** The key as REST, GraphQL and the `api_key.*` events show it (never its secret). */
export const apiKeyPayload = (key: ApiKey, now: Date) => ({
  keyId: key.id,
  keyName: key.keyName,
  environment: key.environment,
  scopes: toScopeObjects(key.scopes).map(({ resource, actions }) => ({ resource, actions })),
  ipAllowlist: key.ipAllowlist,
  expiresAt: key.expiresAt?.toISOString() ?? null,
  usageLimit: key.usageLimit,
  usageCount: Number(key.usageCount),
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  status: key.status,
  isActive: key.status === 'active',
  lastFour: key.lastFour,
  notices: noticesOf(key, now),
  createdAt: key.createdAt.toISOString(),
  updatedAt: key.updatedAt.toISOString(),
  revokedAt: key.revokedAt?.toISOString() ?? null,
  rotatedAt: key.rotatedAt?.toISOString() ?? null,
});
