import type { DeliveryStatus } from '../../prisma/generated/client/enums';
import { startTestServer, type TestServer } from '../helpers/server';
import { serverEnv, storeWithEndpoint } from '../helpers/webhooks';

/**
 * An endpoint's `consecutiveFailures`: its newest attempted deliveries, back to the last successful
 * one, whose last attempt failed (pending ones are not attempted yet and do not count).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(serverEnv);
});
afterAll(() => server.close());

let minute = 0;

/** Deliveries straight into the table, each a minute after the one seeded before it. */
async function seed(storeId: string, endpointId: string, statuses: DeliveryStatus[]) {
  for (const status of statuses) {
    const event = await server.prisma.event.create({ data: { storeId, type: 'webhook.test', data: {} } });
    await server.prisma.webhookDelivery.create({
      data: {
        storeId,
        endpointId,
        eventId: event.id,
        eventType: 'webhook.test',
        status,
        payload: '{}',
        createdAt: new Date(Date.UTC(2026, 10, 1) + minute++ * 60_000),
      },
    });
  }
}

async function failuresOf(key: string, endpointId: string) {
  const res = await server.graphql(
    'query($id: ID!) { webhookEndpoint(id: $id) { consecutiveFailures } }',
    { id: endpointId },
    key,
  );
  return (await res.json()).data.webhookEndpoint.consecutiveFailures;
}

it('counts the failing deliveries since the last success, skipping pending ones', async () => {
  const { key, storeId, endpointId } = await storeWithEndpoint(server, 'https://127.0.0.1:9/hook');
  expect(await failuresOf(key, endpointId)).toBe(0);
  await seed(storeId, endpointId, ['failed', 'success', 'exhausted', 'pending', 'failed']);
  expect(await failuresOf(key, endpointId)).toBe(2);
  await seed(storeId, endpointId, ['success']);
  expect(await failuresOf(key, endpointId)).toBe(0);
});

it('counts every delivery when none ever succeeded, up to the cap', async () => {
  const { key, storeId, endpointId } = await storeWithEndpoint(server, 'https://127.0.0.1:9/hook');
  await seed(storeId, endpointId, ['exhausted', 'exhausted', 'failed']);
  expect(await failuresOf(key, endpointId)).toBe(3);
  await seed(
    storeId,
    endpointId,
    Array.from({ length: 100 }, () => 'exhausted' as const),
  );
  expect(await failuresOf(key, endpointId)).toBe(100);
});
