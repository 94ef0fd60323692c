import { PAGINATION_SELECTION } from '../../src/resources/pagination/schema';
import { route } from '../route';

const tag = 'Webhooks';

/** docs/design.md "Endpoints", test ping included; scope STORE_SETTINGS (READ / WRITE / UPDATE / DELETE). */
export const webhookRoutes = [
  route({
    method: 'GET',
    path: '/store/webhooks/event-types',
    tag,
    summary:
      'The event types an endpoint may subscribe to, each with its description, the JSON Schema of the body its deliveries POST and an example',
    operation: 'query ListWebhookEventTypes { webhookEventTypes { type description schema example } }',
    result: { kind: 'item', field: 'webhookEventTypes' },
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/endpoints',
    tag,
    summary: 'List webhook endpoints (the signing secret is never included)',
    operation: `query ListWebhookEndpoints($page: Int, $limit: Int, $sortBy: WebhookEndpointSortField,
        $sortDirection: SortDirection) {
      webhookEndpoints(page: $page, limit: $limit, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...WebhookEndpointFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'webhookEndpoints' },
  }),
  route({
    method: 'POST',
    path: '/store/webhooks/endpoints',
    tag,
    summary: 'Register an endpoint (at most 5 per store); the response carries its secret, shown this once',
    operation: `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
      createWebhookEndpoint(input: $input) { ...WebhookEndpointFields secret }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'createWebhookEndpoint' },
    status: 201,
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/endpoints/{id}',
    tag,
    summary: 'Get a webhook endpoint',
    operation: `query GetWebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ...WebhookEndpointFields } }`,
    result: { kind: 'item', field: 'webhookEndpoint' },
  }),
  route({
    method: 'PATCH',
    path: '/store/webhooks/endpoints/{id}',
    tag,
    summary: 'Update url, events, description, metadata, rateLimitPerSecond or isActive',
    operation: `mutation UpdateWebhookEndpoint($id: ID!, $input: UpdateWebhookEndpointInput!) {
      updateWebhookEndpoint(id: $id, input: $input) { ...WebhookEndpointFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'updateWebhookEndpoint' },
  }),
  route({
    method: 'DELETE',
    path: '/store/webhooks/endpoints/{id}',
    tag,
    summary: 'Delete a webhook endpoint and its delivery log',
    operation: 'mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) { id deleted } }',
    result: { kind: 'empty', field: 'deleteWebhookEndpoint' },
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/endpoints/{id}/logs',
    tag,
    summary: 'Delivery log of the endpoint, newest first (filter by status)',
    operation: `query WebhookDeliveryLog($id: ID!, $page: Int, $limit: Int, $sortBy: WebhookDeliverySortField,
        $sortDirection: SortDirection, $status: WebhookDeliveryStatus) {
      webhookDeliveries(endpointId: $id, page: $page, limit: $limit, sortBy: $sortBy, sortDirection: $sortDirection,
          status: $status) {
        items { ...WebhookDeliveryFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'webhookDeliveries' },
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/endpoints/{id}/health',
    tag,
    summary:
      'Attempts, success rate and median/p95 latency per hour (window=LAST_24_HOURS, the default) or per day of the store’s time zone (window=LAST_30_DAYS)',
    operation: `query WebhookEndpointHealth($id: ID!, $window: WebhookHealthWindow = LAST_24_HOURS) {
      webhookEndpointHealth(id: $id, window: $window) {
        endpointId window unit buckets { start deliveries attempts succeeded failed successRate medianMs p95Ms }
      }
    }`,
    result: { kind: 'item', field: 'webhookEndpointHealth' },
  }),
  route({
    method: 'POST',
    path: '/store/webhooks/endpoints/{id}/rotate-secret',
    tag,
    summary: 'Issue a new signing secret, returned once; the old one is invalid at once',
    operation: `mutation RotateWebhookEndpointSecret($id: ID!) {
      rotateWebhookEndpointSecret(id: $id) { ...WebhookEndpointFields secret }
    }`,
    result: { kind: 'item', field: 'rotateWebhookEndpointSecret' },
  }),
  route({
    method: 'POST',
    path: '/store/webhooks/endpoints/{id}/replay-exhausted',
    tag,
    summary: 'Re-queue every exhausted delivery of the endpoint with fresh retries',
    operation: `mutation ReplayExhaustedWebhookDeliveries($id: ID!) {
      replayExhaustedWebhookDeliveries(id: $id) { replayed }
    }`,
    result: { kind: 'item', field: 'replayExhaustedWebhookDeliveries' },
  }),
  route({
    method: 'POST',
    path: '/store/webhooks/endpoints/{id}/recover',
    tag,
    summary:
      'Re-send the failed and exhausted deliveries created since a moment (at most 30 days back; optionally until a moment, of some event types) as one background job; 409 WEBHOOK_RECOVERY_IN_PROGRESS while one runs',
    operation: `mutation RecoverWebhookEndpoint($id: ID!, $input: RecoverWebhookEndpointInput!) {
      recoverWebhookEndpoint(id: $id, input: $input) { ...WebhookRecoveryFields }
    }`,
    body: 'input',
    result: { kind: 'item', field: 'recoverWebhookEndpoint' },
    status: 202,
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/endpoints/{id}/recoveries',
    tag,
    summary: 'The recovers of the endpoint with their progress, newest first',
    operation: `query ListWebhookRecoveries($id: ID!, $page: Int, $limit: Int, $sortBy: WebhookRecoverySortField,
        $sortDirection: SortDirection) {
      webhookRecoveries(endpointId: $id, page: $page, limit: $limit, sortBy: $sortBy, sortDirection: $sortDirection) {
        items { ...WebhookRecoveryFields }
        ${PAGINATION_SELECTION}
      }
    }`,
    result: { kind: 'list', field: 'webhookRecoveries' },
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/recoveries/{recoveryId}',
    tag,
    summary: 'A recover and its progress (status, total, done, queued)',
    operation: `query GetWebhookRecovery($recoveryId: ID!) {
      webhookRecovery(id: $recoveryId) { ...WebhookRecoveryFields }
    }`,
    result: { kind: 'item', field: 'webhookRecovery' },
  }),
  route({
    method: 'POST',
    path: '/store/webhooks/endpoints/{id}/test',
    tag,
    summary: 'Send a webhook.test event to the endpoint through the normal pipeline',
    operation: 'mutation TestWebhookEndpoint($id: ID!) { testWebhookEndpoint(id: $id) { eventId } }',
    result: { kind: 'item', field: 'testWebhookEndpoint' },
    status: 202,
  }),
  route({
    method: 'GET',
    path: '/store/webhooks/deliveries/{deliveryId}',
    tag,
    summary: 'A delivery: the request body sent and every attempt with its response excerpt',
    operation: `query GetWebhookDelivery($deliveryId: ID!) {
      webhookDelivery(id: $deliveryId) {
        ...WebhookDeliveryFields payload
        attempts { id number status httpStatus durationMs errorMessage responseBody createdAt }
      }
    }`,
    result: { kind: 'item', field: 'webhookDelivery' },
  }),
  route({
    method: 'POST',
    path: '/store/webhooks/deliveries/{deliveryId}/resend',
    tag,
    summary: 'Send one delivery again now, whatever its status (same delivery id; a fresh round of retries)',
    operation: `mutation ResendWebhookDelivery($deliveryId: ID!) {
      resendWebhookDelivery(id: $deliveryId) { ...WebhookDeliveryFields }
    }`,
    result: { kind: 'item', field: 'resendWebhookDelivery' },
    status: 202,
  }),
];
