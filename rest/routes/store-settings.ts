import { route } from '../route';

const settingsFields = 'id name currency timezone contactEmail plan status createdAt updatedAt';

export const storeSettingsRoutes = [
  route({
    method: 'GET',
    path: '/store/settings',
    tag: 'Store settings',
    summary: 'Get the store’s settings',
    operation: `query GetStoreSettings { storeSettings { ${settingsFields} } }`,
    result: { kind: 'item', field: 'storeSettings' },
  }),
  route({
    method: 'PATCH',
    path: '/store/settings',
    tag: 'Store settings',
    summary: 'Update name, currency, timezone or contactEmail (plan and status are read-only)',
    operation: `mutation UpdateStoreSettings($input: UpdateStoreSettingsInput!) {
      updateStoreSettings(input: $input) { ${settingsFields} }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateStoreSettings' },
  }),
];
