import { route } from '../route';

export const storeSettingsRoutes = [
  route({
    method: 'GET',
    path: '/store/settings',
    tag: 'Store settings',
    summary: 'Get the store’s settings',
    operation: `query GetStoreSettings { storeSettings { ...StoreSettingsFields } }`,
    result: { kind: 'item', field: 'storeSettings' },
  }),
  route({
    method: 'PATCH',
    path: '/store/settings',
    tag: 'Store settings',
    summary: 'Update name, currency, timezone or contactEmail (plan and status are read-only)',
    operation: `mutation UpdateStoreSettings($input: UpdateStoreSettingsInput!) {
      updateStoreSettings(input: $input) { ...StoreSettingsFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateStoreSettings' },
  }),
];
