import type { ApiKey, PrismaClient } from '../../../prisma/generated/client/client';
import type { Tx } from '../../db/client';
import { emitEvent } from '../../events/outbox';
import { taskName } from '../../task-catalog';
import {
  apiKeyPayload,
  EXPIRY_NOTICE_DAYS,
  expiryHorizon,
  type NoticeKind,
  noticeSubject,
  noticesOf,
  USAGE_NOTICE_PERCENT,
} from './notices';

export interface KeyNoticeDeps {
  prisma: PrismaClient;
  /** The dashboard's address (PUBLIC_URL): the e-mails link to its keys page. */
  publicUrl: string;
  now: () => Date;
}

/**
 * README "Key notices": sends every notice now due (src/modules/api-keys/notices.ts) that was not sent
 * for its key and subject before. Each notice is one transaction: its row (unique per key, kind and
 * subject), its `api_key.<kind>` event through the outbox and one e-mail job per active owner and admin
 * commit together, so a re-run, or two workers at once, send nothing twice. Answers the notices sent.
 */
export async function sendKeyNotices(deps: KeyNoticeDeps): Promise<number> {
  const now = deps.now();
  const due = await dueNotices(deps.prisma, now);
  let sent = 0;
  for (const { keyId, kind } of due) {
    if (await deps.prisma.$transaction((tx) => sendNotice(tx, deps, keyId, kind, now))) sent++;
  }
  return sent;
}

/** The (key, kind) pairs due now and not yet noticed for the key's current expiry or limit. */
async function dueNotices(prisma: PrismaClient, now: Date) {
  // A superset of the keys noticesOf flags, found by SQL; noticesOf then decides.
  const candidates = await prisma.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "ApiKey"
     WHERE status = 'active'
       AND ("expiresAt" IS NULL OR "expiresAt" > ${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')
       AND ("expiresAt" <= ${expiryHorizon(now).toISOString()}::timestamptz AT TIME ZONE 'UTC'
            OR ("usageLimit" IS NOT NULL AND "usageCount" * 100 >= "usageLimit"::bigint * ${USAGE_NOTICE_PERCENT}))`;
  if (candidates.length === 0) return [];
  const keys = await prisma.apiKey.findMany({
    where: { id: { in: candidates.map((c) => c.id) } },
    include: { notices: { select: { kind: true, subject: true } } },
    orderBy: { id: 'asc' },
  });
  return keys.flatMap((key) =>
    noticesOf(key, now)
      .filter((kind) => !key.notices.some((n) => n.kind === kind && n.subject === noticeSubject(key, kind)))
      .map((kind) => ({ keyId: key.id, kind })),
  );
}

/**
 * One notice, if the key (share-locked, so a revoke or update waits for this commit) still calls for
 * it and no one sent it first. Answers whether it was sent.
 */
async function sendNotice(tx: Tx, deps: KeyNoticeDeps, keyId: string, kind: NoticeKind, now: Date) {
  const locked = await tx.$queryRaw<
    Array<{ id: string }>
  >`SELECT id FROM "ApiKey" WHERE id = ${keyId} FOR SHARE`;
  if (locked.length === 0) return false;
  const key = await tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  if (!noticesOf(key, now).includes(kind)) return false;
  const inserted = await tx.$queryRaw<Array<{ id: string }>>`
    INSERT INTO "ApiKeyNotice" ("apiKeyId", "storeId", kind, subject, "sentAt")
    VALUES (${key.id}, ${key.storeId}, ${kind}, ${noticeSubject(key, kind)}, ${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')
    ON CONFLICT ("apiKeyId", kind, subject) DO NOTHING
    RETURNING id`;
  if (inserted.length === 0) return false;
  await emitEvent(tx, {
    storeId: key.storeId,
    type: kind === 'expiring' ? 'api_key.expiring' : 'api_key.usage_threshold',
    data: { object: apiKeyPayload(key, now) },
    now,
  });
  const store = await tx.store.findUniqueOrThrow({
    where: { id: key.storeId },
    select: {
      name: true,
      contactEmail: true,
      staff: { where: { isActive: true, role: { in: ['OWNER', 'ADMIN'] } }, select: { email: true } },
    },
  });
  // Staff e-mails are unique per store; a store without an owner or admin falls back to its contact.
  const recipients = store.staff.map((member) => member.email);
  if (recipients.length === 0 && store.contactEmail) recipients.push(store.contactEmail);
  const message = noticeMail(key, kind, store.name, deps.publicUrl, now);
  for (const to of recipients) {
    await tx.$executeRaw`SELECT graphile_worker.add_job(${taskName.send_email}, ${JSON.stringify({ to, ...message })}::json, max_attempts := 10)`;
  }
  return true;
}

/** The e-mail of a notice: the key by name and id (never its secret), what is near, what to do. */
function noticeMail(key: ApiKey, kind: NoticeKind, storeName: string, publicUrl: string, now: Date) {
  const name = `"${key.keyName}" (${key.id})`;
  if (kind === 'expiring') {
    const expiresAt = key.expiresAt!;
    const days = Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / 86_400_000));
    return {
      subject: `API key "${key.keyName}" expires in ${days} day${days === 1 ? '' : 's'}`,
      text: [
        `The API key ${name} of ${storeName} expires at ${expiresAt.toISOString()} (within ${EXPIRY_NOTICE_DAYS} days).`,
        'From then on its requests are refused with 401 API_KEY_EXPIRED.',
        '',
        `Extend its expiry, or create a new key and move your integration to it: ${publicUrl}/keys`,
      ].join('\n'),
    };
  }
  const percent = Math.floor((Number(key.usageCount) * 100) / key.usageLimit!);
  return {
    subject: `API key "${key.keyName}" has used ${percent} % of its usage limit`,
    text: [
      `The API key ${name} of ${storeName} has made ${key.usageCount} of its ${key.usageLimit} requests (${percent} %).`,
      'Once the limit is reached its requests are refused with 429 API_KEY_USAGE_LIMIT_REACHED.',
      '',
      `Raise its usage limit, or create a new key: ${publicUrl}/keys`,
    ].join('\n'),
  };
}
