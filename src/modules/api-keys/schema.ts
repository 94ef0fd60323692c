import type { ApiKey } from '../../../prisma/generated/client/client';
import { scopeActions, scopeResources, toScopeObjects } from '../../access/scopes';
import { builder, type Types } from '../../builder';
import { requireScope, resourceFragment, shownOnce } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { lookup } from '../../resources/lookup';
import { pageArgs, pageType } from '../../resources/pagination/schema';
import { apiKeyUpdateInput, environments, graceInput, newApiKeyInput, scopeObjectInput } from './input';
import { noticeKinds, noticesOf } from './notices';
import {
  apiKeySortFields,
  createApiKey,
  deleteApiKey,
  getApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from './service';
import { apiKeyStats } from './stats';

type BuilderTypes = PothosSchemaTypes.ExtendDefaultTypes<Types>;

export const ScopeResourceEnum = builder.enumType('ScopeResource', { values: scopeResources });
export const ScopeActionEnum = builder.enumType('ScopeAction', { values: scopeActions });
const EnvironmentEnum = builder.enumType('ApiKeyEnvironment', { values: environments });
const StatusEnum = builder.enumType('ApiKeyStatus', { values: ['active', 'inactive', 'revoked'] as const });
const SortEnum = builder.enumType('ApiKeySortField', { values: apiKeySortFields });
const NoticeEnum = builder.enumType('ApiKeyNotice', {
  description:
    'A lifecycle notice in force (README "Key notices"): `expiring` within 7 days of expiresAt, `usage_threshold` at 80 % of usageLimit or more',
  values: noticeKinds,
});

const ScopeObjectRef = builder.objectRef<{ resource: string; actions: string[] }>('Scope').implement({
  description: 'A granted resource and its actions (spec 2.2)',
  fields: (t) => ({
    resource: t.field({
      type: ScopeResourceEnum,
      resolve: (s) => s.resource as (typeof scopeResources)[number],
    }),
    actions: t.field({
      type: [ScopeActionEnum],
      resolve: (s) => s.actions as (typeof scopeActions)[number][],
    }),
  }),
});

const ScopeInput = inputTypeOf('ScopeInput', scopeObjectInput, {
  types: { resource: ScopeResourceEnum, actions: [ScopeActionEnum] },
});

/** The key as every response shows it: never the secret, only its last four characters. */
function apiKeyFields<Shape extends ApiKey>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Shape>) {
  return {
    keyId: t.id({ resolve: (key) => key.id }),
    keyName: t.string({ resolve: (key) => key.keyName }),
    environment: t.field({ type: EnvironmentEnum, resolve: (key) => key.environment }),
    scopes: t.field({ type: [ScopeObjectRef], resolve: (key) => toScopeObjects(key.scopes) }),
    ipAllowlist: t.stringList({ resolve: (key) => key.ipAllowlist }),
    expiresAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.expiresAt }),
    usageLimit: t.int({ nullable: true, resolve: (key) => key.usageLimit }),
    usageCount: t.field({ type: 'Long', resolve: (key) => key.usageCount }),
    lastUsedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.lastUsedAt }),
    status: t.field({ type: StatusEnum, resolve: (key) => key.status }),
    isActive: t.boolean({ resolve: (key) => key.status === 'active' }),
    lastFour: t.string({ resolve: (key) => key.lastFour }),
    notices: t.field({
      type: [NoticeEnum],
      description:
        'The lifecycle notices in force for an active key: expiring (expires within 7 days), usage_threshold (usageCount at 80 % of usageLimit or more, as last flushed); empty for a revoked, inactive or expired key',
      resolve: (key, _args, ctx) => noticesOf(key, ctx.now()),
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (key) => key.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (key) => key.updatedAt }),
    revokedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.revokedAt }),
    rotatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (key) => key.rotatedAt }),
  };
}

const ApiKeyRef = builder.objectRef<ApiKey>('ApiKey').implement({
  extensions: resourceFragment({ relations: { scopes: true } }),
  fields: (t) => apiKeyFields(t),
});

const IssuedApiKeyRef = builder.objectRef<ApiKey & { secret: string }>('IssuedApiKey').implement({
  description: 'A key with its secret: returned once, by create and rotate, and never again',
  fields: (t) => ({ ...apiKeyFields(t), secret: t.exposeString('secret', { extensions: shownOnce }) }),
});

const DailyUsageRef = builder.objectRef<{ date: string; count: number }>('DailyUsage').implement({
  fields: (t) => ({
    date: t.exposeString('date', { description: 'UTC day, YYYY-MM-DD' }),
    count: t.field({ type: 'Long', resolve: (d) => d.count }),
  }),
});

type Stats = Awaited<ReturnType<typeof apiKeyStats>>;
const countsRef = <K extends string>(name: string, keys: readonly K[]) =>
  builder.objectRef<Record<K, number>>(name).implement({
    fields: (t) => Object.fromEntries(keys.map((k) => [k, t.int({ resolve: (counts) => counts[k] })])),
  });
const KeyUsageRef = builder.objectRef<Stats['keys'][number]>('ApiKeyUsage').implement({
  fields: (t) => ({
    keyId: t.exposeID('keyId'),
    keyName: t.exposeString('keyName'),
    usageCount: t.field({ type: 'Long', resolve: (k) => k.usageCount }),
    lastUsedAt: t.field({ type: 'DateTime', nullable: true, resolve: (k) => k.lastUsedAt }),
    daily: t.field({ type: [DailyUsageRef], resolve: (k) => k.daily }),
  }),
});
const StatsRef = builder.objectRef<Stats>('ApiKeyStats').implement({
  fields: (t) => ({
    totalKeys: t.exposeInt('totalKeys'),
    byStatus: t.field({
      type: countsRef('ApiKeyStatusCounts', ['active', 'inactive', 'revoked']),
      resolve: (s) => s.byStatus,
    }),
    byEnvironment: t.field({
      type: countsRef('ApiKeyEnvironmentCounts', environments),
      resolve: (s) => s.byEnvironment,
    }),
    totalUsage: t.field({ type: 'Long', resolve: (s) => s.totalUsage }),
    daily: t.field({
      type: [DailyUsageRef],
      description: 'The store, last 30 days',
      resolve: (s) => s.daily,
    }),
    keys: t.field({ type: [KeyUsageRef], description: 'Each key, last 30 days', resolve: (s) => s.keys }),
  }),
});

// The shapes do not depend on the moment the rules are checked at (`now`, the grace default).
const CreateInput = inputTypeOf('CreateApiKeyInput', newApiKeyInput(new Date(0)), {
  types: { environment: EnvironmentEnum, scopes: [ScopeInput] },
});
const UpdateInput = inputTypeOf('UpdateApiKeyInput', apiKeyUpdateInput(new Date(0)), {
  description:
    'Every field optional; null clears ipAllowlist, expiresAt and usageLimit. The environment is fixed.',
  types: { scopes: [ScopeInput] },
});
const GraceInput = inputTypeOf('GracePeriodInput', graceInput(0));

const DeletedRef = builder.objectRef<{ keyId: string; deleted: boolean }>('DeletedApiKey').implement({
  fields: (t) => ({ keyId: t.exposeID('keyId'), deleted: t.exposeBoolean('deleted') }),
});

builder.queryFields((t) => ({
  apiKeys: t.field({
    type: pageType('ApiKey', ApiKeyRef),
    description: 'The store’s API keys (never their secrets)',
    authScopes: requireScope('API_KEYS', 'READ'),
    args: {
      ...pageArgs(t.arg, SortEnum),
      status: t.arg({ type: StatusEnum }),
      environment: t.arg({ type: EnvironmentEnum }),
      q: t.arg.string({ description: 'Matches the key name' }),
    },
    resolve: (_root, args, ctx) => listApiKeys(ctx, args),
  }),
  apiKey: t.field({
    ...lookup('API key'),
    type: ApiKeyRef,
    authScopes: requireScope('API_KEYS', 'READ'),
    args: { keyId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => getApiKey(ctx, args.keyId),
  }),
  apiKeyStats: t.field({
    type: StatsRef,
    authScopes: requireScope('API_KEYS', 'READ'),
    resolve: (_root, _args, ctx) => apiKeyStats(ctx),
  }),
}));

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: IssuedApiKeyRef,
    description: 'Creates a key; the response holds its secret, the only time it is ever shown',
    authScopes: requireScope('API_KEYS', 'WRITE'),
    args: { ...idempotencyArg(t.arg), input: t.arg({ type: CreateInput, required: true }) },
    resolve: (_root, { input }, ctx) => createApiKey(ctx, input),
  }),
  updateApiKey: t.field({
    type: ApiKeyRef,
    authScopes: requireScope('API_KEYS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      keyId: t.arg.id({ required: true }),
      input: t.arg({ type: UpdateInput, required: true }),
    },
    resolve: (_root, { keyId, input }, ctx) => updateApiKey(ctx, keyId, input),
  }),
  revokeApiKey: t.field({
    type: ApiKeyRef,
    authScopes: requireScope('API_KEYS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      keyId: t.arg.id({ required: true }),
      input: t.arg({ type: GraceInput }),
    },
    resolve: (_root, { keyId, input }, ctx) => revokeApiKey(ctx, keyId, input),
  }),
  rotateApiKey: t.field({
    type: IssuedApiKeyRef,
    description: 'Issues a new secret; the old one works until the grace period ends',
    authScopes: requireScope('API_KEYS', 'WRITE'),
    args: {
      ...idempotencyArg(t.arg),
      keyId: t.arg.id({ required: true }),
      input: t.arg({ type: GraceInput }),
    },
    resolve: (_root, { keyId, input }, ctx) => rotateApiKey(ctx, keyId, input),
  }),
  deleteApiKey: t.field({
    type: DeletedRef,
    authScopes: requireScope('API_KEYS', 'DELETE'),
    args: { ...idempotencyArg(t.arg), keyId: t.arg.id({ required: true }) },
    resolve: (_root, { keyId }, ctx) => deleteApiKey(ctx, keyId),
  }),
}));
