import type { ApiKey, Prisma } from '../../../prisma/generated/client/client';
import type { ApiKeyEnvironment, ApiKeyStatus } from '../../../prisma/generated/client/enums';
import { assertHoldsRights, type Rights, rightsOfKey } from '../../access/credential-rights';
import { planFeatures } from '../../access/plans';
import { mayChangeOwner } from '../../access/principal';
import { toScopePairs } from '../../access/scopes';
import { generateApiKeySecret, hashSecret, lastFour } from '../../auth/api-key-secret';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, notFound, stateConflict } from '../../errors';
import { loadPage, type PageArgs, pageWindow, resolvePage } from '../../resources/pagination/page';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { recordAudit } from '../audit/service';
import { apiKeyUpdateInput, graceInput, newApiKeyInput } from './input';
import { issueApiKey } from './issue';

export const apiKeySortFields = ['createdAt', 'keyName', 'lastUsedAt'] as const;
export type ApiKeySortField = (typeof apiKeySortFields)[number];

export const ROTATE_DEFAULT_GRACE_SECONDS = 86_400;
export const REVOKE_DEFAULT_GRACE_SECONDS = 0;

/** Key management needs a plan with API access, also through a dashboard session. */
export function assertApiAccess(ctx: Context): string {
  const storeId = storeIdOf(ctx);
  if (ctx.principal && !planFeatures[ctx.principal.plan].apiAccess) {
    throw new AppError('PLAN_NOT_ELIGIBLE', `API keys are not included in the ${ctx.principal.plan} plan`);
  }
  return storeId;
}

async function findKey(ctx: Context, keyId: string, storeId: string) {
  const key = await ctx.prisma.apiKey.findFirst({ where: { id: keyId, storeId } });
  if (!key) throw notFound('API key');
  return key;
}

/** What a state change asks of the key as it is when the change is written, and what it says otherwise. */
interface Expectation {
  status: Prisma.ApiKeyWhereInput['status'];
  refusal: (current: ApiKeyStatus) => string;
}

/** A change of a key: what is written, what the audit says, and what it asks first. */
interface KeyChange {
  data: Prisma.ApiKeyUpdateManyMutationInput;
  audit: { action: string; details: Prisma.InputJsonValue };
  /** The status the change needs; absent: any. */
  expected?: Expectation;
  /**
   * The credential rule, for a change that may give the key's holder more (rotate, update, reactivate):
   * what the caller does, and the key's rights afterwards, judged on the key as locked.
   */
  empowers?: { what: string; after: (key: ApiKey) => Rights };
  alsoInTx?: (tx: Tx) => Promise<void>;
}

/**
 * Writes a change to a key as one conditional statement (`WHERE status …` when expected), then what
 * `alsoInTx` adds and the audit entry, in one transaction, then tells every API process to drop the key
 * from its verified-key cache. Of concurrent changes the first to be written wins; one the key no
 * longer allows is 409 API_KEY_STATE_CONFLICT naming the status it has now. A change that empowers
 * first locks the key and asks the credential rule about the key as it is then and as it would be.
 */
async function changeKey(ctx: Context, storeId: string, keyId: string, change: KeyChange) {
  const key = await writeStore(ctx, storeId, async (tx) => {
    if (change.empowers) {
      const current = await lockKey(tx, storeId, keyId);
      assertHoldsRights(
        ctx.principal,
        [rightsOfKey(current), change.empowers.after(current)],
        change.empowers.what,
      );
    }
    const where = { id: keyId, storeId, ...(change.expected ? { status: change.expected.status } : {}) };
    const { count } = await tx.apiKey.updateMany({ where, data: change.data });
    if (count === 0) {
      const current = await tx.apiKey.findFirst({ where: { id: keyId, storeId }, select: { status: true } });
      if (!current) throw notFound('API key');
      throw stateConflict('API_KEY_STATE_CONFLICT', change.expected?.refusal(current.status) ?? 'Conflict', {
        status: current.status,
      });
    }
    // The update holds the key's row lock from here to the commit.
    await change.alsoInTx?.(tx);
    await recordAudit(tx, ctx, {
      action: change.audit.action,
      targetType: 'api_key',
      targetId: keyId,
      details: change.audit.details,
    });
    return tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
  });
  await ctx.invalidateAuth({ keyId });
  return key;
}

/** The key as it is now, its row locked to the commit: what the rule judges is what the change changes. */
async function lockKey(tx: Tx, storeId: string, keyId: string): Promise<ApiKey> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM "ApiKey" WHERE id = ${keyId} AND "storeId" = ${storeId} FOR UPDATE`;
  if (locked.length === 0) throw notFound('API key');
  return tx.apiKey.findUniqueOrThrow({ where: { id: keyId } });
}

const notRevoked = (refusal: string): Expectation => ({ status: { not: 'revoked' }, refusal: () => refusal });

/** Activation moves an inactive key to active, deactivation an active one to inactive; nothing else. */
function activation(isActive: boolean): Expectation {
  const from: ApiKeyStatus = isActive ? 'inactive' : 'active';
  return {
    status: from,
    refusal: (current) =>
      current === 'revoked'
        ? 'A revoked key cannot be activated or deactivated'
        : `The API key is already ${current}`,
  };
}

export interface ApiKeyFilter {
  status?: ApiKeyStatus | null;
  environment?: ApiKeyEnvironment | null;
  q?: string | null;
}

export async function listApiKeys(ctx: Context, args: PageArgs<ApiKeySortField> & ApiKeyFilter) {
  const q = args.q?.trim();
  const where: Prisma.ApiKeyWhereInput = {
    storeId: assertApiAccess(ctx),
    ...(args.status ? { status: args.status } : {}),
    ...(args.environment ? { environment: args.environment } : {}),
    ...(q ? { keyName: { contains: q, mode: 'insensitive' } } : {}),
  };
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.apiKey.findMany({ where, ...pageWindow(page) }),
    ctx.prisma.apiKey.count({ where }),
  );
}

export async function getApiKey(ctx: Context, keyId: string) {
  return findKey(ctx, keyId, assertApiAccess(ctx));
}

export async function createApiKey(ctx: Context, input: unknown) {
  const storeId = assertApiAccess(ctx);
  const fields = parseInput(newApiKeyInput(ctx.now()), input, 'input');
  const principal = ctx.principal;
  const canChangeOwner = mayChangeOwner(principal);
  assertHoldsRights(
    principal,
    [
      rightsOfKey({
        scopes: toScopePairs(fields.scopes),
        canChangeOwner,
        ipAllowlist: fields.ipAllowlist ?? [],
        expiresAt: fields.expiresAt ?? null,
        usageLimit: fields.usageLimit ?? null,
      }),
    ],
    'create this key',
  );
  return writeStore(ctx, storeId, async (tx) => {
    const issued = await issueApiKey(tx, storeId, fields, {
      now: ctx.now(),
      createdByKeyId: principal?.kind === 'apiKey' ? principal.keyId : undefined,
      createdByStaffId: principal?.kind === 'session' ? principal.staffUserId : undefined,
      canChangeOwner,
    });
    const key = await tx.apiKey.findUniqueOrThrow({ where: { id: issued.keyId } });
    await recordAudit(tx, ctx, {
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: key.id,
      details: { keyName: key.keyName, environment: key.environment, scopes: key.scopes },
    });
    return { ...key, secret: issued.secret };
  });
}

export async function updateApiKey(ctx: Context, keyId: string, input: unknown) {
  const storeId = assertApiAccess(ctx);
  const fields = parseInput(apiKeyUpdateInput(ctx.now()), input, 'input');
  const data: Prisma.ApiKeyUpdateManyMutationInput = {
    ...(fields.keyName !== undefined ? { keyName: fields.keyName } : {}),
    ...(fields.scopes !== undefined ? { scopes: toScopePairs(fields.scopes) } : {}),
    ...(fields.ipAllowlist !== undefined ? { ipAllowlist: fields.ipAllowlist ?? [] } : {}),
    ...(fields.expiresAt !== undefined ? { expiresAt: fields.expiresAt } : {}),
    ...(fields.usageLimit !== undefined ? { usageLimit: fields.usageLimit } : {}),
    ...(fields.isActive !== undefined ? { status: fields.isActive ? 'active' : 'inactive' } : {}),
    updatedAt: ctx.now(),
  };
  const { isActive, ...others } = fields;
  // Deactivating only takes rights away; every other change is judged by the credential rule.
  const onlyDeactivates = isActive === false && Object.keys(others).length === 0;
  return changeKey(ctx, storeId, keyId, {
    data,
    audit: { action: 'api_key.updated', details: { changed: Object.keys(fields) } },
    expected: isActive !== undefined ? activation(isActive) : undefined,
    empowers: onlyDeactivates
      ? undefined
      : {
          what: isActive ? 'reactivate this key' : 'change this key',
          after: (key) =>
            rightsOfKey({
              scopes: fields.scopes !== undefined ? toScopePairs(fields.scopes) : key.scopes,
              canChangeOwner: key.canChangeOwner,
              ipAllowlist: fields.ipAllowlist !== undefined ? (fields.ipAllowlist ?? []) : key.ipAllowlist,
              expiresAt: fields.expiresAt !== undefined ? fields.expiresAt : key.expiresAt,
              usageLimit: fields.usageLimit !== undefined ? fields.usageLimit : key.usageLimit,
            }),
        },
  });
}

/** Revocation holds at once, or when the grace period given now ends; then `API_KEY_REVOKED`. */
export async function revokeApiKey(ctx: Context, keyId: string, input: unknown) {
  const storeId = assertApiAccess(ctx);
  const { gracePeriodSeconds } = parseInput(graceInput(REVOKE_DEFAULT_GRACE_SECONDS), input ?? {}, 'input');
  const effectiveAt = new Date(ctx.now().getTime() + gracePeriodSeconds * 1000);
  return changeKey(ctx, storeId, keyId, {
    data: { status: 'revoked', revokedAt: effectiveAt, updatedAt: ctx.now() },
    audit: {
      action: 'api_key.revoked',
      details: { gracePeriodSeconds, effectiveAt: effectiveAt.toISOString() },
    },
    expected: notRevoked('The API key is already revoked'),
  });
}

/**
 * Issues a new secret; the current one keeps working until the grace ends (default one day), then
 * `API_KEY_GRACE_PERIOD_EXPIRED`. Secrets already in a grace period keep theirs, never longer; old
 * secrets stay stored (as hashes) so that they keep answering GRACE_PERIOD_EXPIRED, not INVALID_API_KEY.
 */
export async function rotateApiKey(ctx: Context, keyId: string, input: unknown) {
  const storeId = assertApiAccess(ctx);
  const { gracePeriodSeconds } = parseInput(graceInput(ROTATE_DEFAULT_GRACE_SECONDS), input ?? {}, 'input');
  const now = ctx.now();
  const graceEndsAt = new Date(now.getTime() + gracePeriodSeconds * 1000);
  const secret = generateApiKeySecret();
  // Rotations of one key are written one after another (the key's row lock); each keeps its secret
  // working through the grace its successor gives it.
  const key = await changeKey(ctx, storeId, keyId, {
    data: { lastFour: lastFour(secret), rotatedAt: now, updatedAt: now },
    audit: {
      action: 'api_key.rotated',
      details: { gracePeriodSeconds, oldSecretValidUntil: graceEndsAt.toISOString() },
    },
    expected: notRevoked('A revoked key cannot be rotated'),
    // A new secret hands over everything the key holds.
    empowers: { what: 'rotate this key', after: rightsOfKey },
    alsoInTx: async (tx) => {
      await tx.apiKeySecret.updateMany({
        where: { apiKeyId: keyId, graceEndsAt: null },
        data: { graceEndsAt },
      });
      await tx.apiKeySecret.updateMany({
        where: { apiKeyId: keyId, graceEndsAt: { gt: graceEndsAt } },
        data: { graceEndsAt },
      });
      await tx.apiKeySecret.create({
        data: { apiKeyId: keyId, hash: hashSecret(secret), lastFour: lastFour(secret) },
      });
    },
  });
  return { ...key, secret };
}

/** One conditional statement: of concurrent deletes one answers 204, the others find no key (404). */
export async function deleteApiKey(ctx: Context, keyId: string) {
  const storeId = assertApiAccess(ctx);
  await writeStore(ctx, storeId, async (tx) => {
    const deleted = await tx.$queryRaw<Array<{ keyName: string }>>`
      DELETE FROM "ApiKey" WHERE id = ${keyId} AND "storeId" = ${storeId} RETURNING "keyName"`;
    const key = deleted[0];
    if (!key) throw notFound('API key');
    await recordAudit(tx, ctx, {
      action: 'api_key.deleted',
      targetType: 'api_key',
      targetId: keyId,
      details: { keyName: key.keyName },
    });
  });
  await ctx.invalidateAuth({ keyId });
  return { keyId, deleted: true };
}
