import { PAGINATION_SELECTION } from '../../src/resources/pagination/schema';
import { route } from '../route';

const tag = 'API keys';

export const apiKeyRoutes = [
  route({
    method: 'GET',
    path: '/api-key',
    tag,
    summary: 'List API keys (filter by status, environment, q; never shows secrets)',
    operation: `query ListApiKeys($page: Int, $limit: Int, $sortBy: ApiKeySortField, $sortDirection: SortDirection,
        $status: ApiKeyStatus, $environment: ApiKeyEnvironment, $q: String) {
      apiKeys(page: $page, limit: $limit, sortBy: $sortBy, sortDirection: $sortDirection, status: $status,
          environment: $environment, q: $q) {
        items { ...ApiKeyFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'apiKeys' },
  }),
  route({
    method: 'GET',
    path: '/api-key/stats',
    tag,
    summary: 'Key counts by status and environment, total usage, daily usage for 30 days per store and key',
    operation: `query ApiKeyStats {
      apiKeyStats {
        totalKeys byStatus { active inactive revoked } byEnvironment { production staging development }
        totalUsage daily { date count }
        keys { keyId keyName usageCount lastUsedAt daily { date count } }
      }
    }`,
    result: { kind: 'item', field: 'apiKeyStats' },
  }),
  route({
    method: 'GET',
    path: '/api-key/{keyId}',
    tag,
    summary: 'Get an API key',
    operation: `query GetApiKey($keyId: ID!) { apiKey(keyId: $keyId) { ...ApiKeyFields } }`,
    result: { kind: 'item', field: 'apiKey' },
  }),
  route({
    method: 'POST',
    path: '/api-key',
    tag,
    summary: 'Create an API key; the response carries its secret, shown this once only',
    operation: `mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { ...ApiKeyFields secret } }`,
    body: 'input',
    result: { kind: 'item', field: 'createApiKey' },
    status: 201,
  }),
  route({
    method: 'PATCH',
    path: '/api-key/{keyId}',
    tag,
    summary: 'Update name, scopes, IP allowlist, expiry, usage limit or isActive',
    operation: `mutation UpdateApiKey($keyId: ID!, $input: UpdateApiKeyInput!) {
      updateApiKey(keyId: $keyId, input: $input) { ...ApiKeyFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateApiKey' },
  }),
  route({
    method: 'POST',
    path: '/api-key/{keyId}/revoke',
    tag,
    summary: 'Revoke a key, at once or after gracePeriodSeconds',
    operation: `mutation RevokeApiKey($keyId: ID!, $input: GracePeriodInput) {
      revokeApiKey(keyId: $keyId, input: $input) { ...ApiKeyFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'revokeApiKey' },
  }),
  route({
    method: 'POST',
    path: '/api-key/{keyId}/rotate',
    tag,
    summary: 'Issue a new secret; the old one works for gracePeriodSeconds (default 86400)',
    operation: `mutation RotateApiKey($keyId: ID!, $input: GracePeriodInput) {
      rotateApiKey(keyId: $keyId, input: $input) { ...ApiKeyFields secret }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'rotateApiKey' },
  }),
  route({
    method: 'DELETE',
    path: '/api-key/{keyId}',
    tag,
    summary: 'Delete an API key',
    operation: 'mutation DeleteApiKey($keyId: ID!) { deleteApiKey(keyId: $keyId) { keyId deleted } }',
    result: { kind: 'empty', field: 'deleteApiKey' },
  }),
  route({
    method: 'GET',
    path: '/audit-log',
    tag: 'Audit log',
    summary: 'Who did what and when: key changes and sign-ins',
    operation: `query AuditLog($page: Int, $limit: Int, $sortBy: AuditSortField, $sortDirection: SortDirection,
        $action: String, $targetId: String) {
      auditLog(page: $page, limit: $limit, sortBy: $sortBy, sortDirection: $sortDirection, action: $action,
          targetId: $targetId) {
        items { id actorType actorId action targetType targetId ip details createdAt }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'auditLog' },
  }),
];
