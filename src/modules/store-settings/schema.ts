import { StoreStatus } from '../../../prisma/generated/client/enums';
import { type PlanFeatures, planFeatures } from '../../access/plans';
import { builder } from '../../builder';
import { requireScope, resourceFragment, versionedRead } from '../../field-extensions';
import { idempotencyArg } from '../../resources/idempotency-arg';
import { inputTypeOf } from '../../resources/input-type';
import { timestamps } from '../../resources/timestamps';
import { PlanEnum } from '../sessions/schema';
import { MAX_ENDPOINTS_PER_STORE } from '../webhooks/input';
import { storeSettingsUpdateInput } from './input';
import { getStoreSettings, type StoreSettings, updateStoreSettings } from './service';

export const StoreStatusEnum = builder.enumType('StoreStatus', { values: Object.values(StoreStatus) });

const PlanFeaturesRef = builder.objectRef<PlanFeatures>('PlanFeatures').implement({
  description:
    'What the store’s plan includes (the one table: src/access/plans.ts); the plan changes through billing',
  fields: (t) => ({
    apiAccess: t.exposeBoolean('apiAccess', {
      description: 'API keys, and so the REST, GraphQL and MCP doors for programs',
    }),
    webhooks: t.exposeBoolean('canAccessWebhooks', { description: 'Webhook endpoints' }),
    webhookEndpointLimit: t.int({
      description: 'How many webhook endpoints the store may have (0 without webhooks)',
      resolve: (features) => (features.canAccessWebhooks ? MAX_ENDPOINTS_PER_STORE : 0),
    }),
  }),
});

const StoreSettingsRef = builder.objectRef<StoreSettings>('StoreSettings').implement({
  extensions: resourceFragment({ relations: { planFeatures: true } }),
  description: 'The store’s own settings; plan and status are shown but changed elsewhere',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    currency: t.exposeString('currency', { description: 'ISO 4217 code, e.g. USD' }),
    timezone: t.exposeString('timezone', { description: 'IANA time-zone name, e.g. Europe/Berlin' }),
    contactEmail: t.exposeString('contactEmail', { nullable: true }),
    plan: t.field({
      type: PlanEnum,
      description: 'Read-only; changed through billing',
      resolve: (s) => s.plan,
    }),
    planFeatures: t.field({
      type: PlanFeaturesRef,
      description: 'What the plan includes; read-only',
      resolve: (s) => planFeatures[s.plan],
    }),
    status: t.field({ type: StoreStatusEnum, description: 'Read-only', resolve: (s) => s.status }),
    ...timestamps(t),
  }),
});

/** plan and status are declared only to be refused with a clear message (./input.ts). */
const UpdateStoreSettingsInput = inputTypeOf('UpdateStoreSettingsInput', storeSettingsUpdateInput, {
  types: { plan: PlanEnum, status: StoreStatusEnum },
});

builder.queryField('storeSettings', (t) =>
  t.field({
    type: StoreSettingsRef,
    description: 'The settings of the caller’s store',
    authScopes: requireScope('STORE_SETTINGS', 'READ'),
    // Only writeStore changes the store's row (README "Conditional requests").
    extensions: versionedRead,
    resolve: (_root, _args, ctx) => getStoreSettings(ctx),
  }),
);

builder.mutationField('updateStoreSettings', (t) =>
  t.field({
    type: StoreSettingsRef,
    description: 'Changes name, currency, time zone or contact e-mail of the caller’s store',
    authScopes: requireScope('STORE_SETTINGS', 'UPDATE'),
    args: {
      ...idempotencyArg(t.arg),
      input: t.arg({ type: UpdateStoreSettingsInput, required: true }),
    },
    resolve: (_root, { input }, ctx) => updateStoreSettings(ctx, input),
  }),
);
