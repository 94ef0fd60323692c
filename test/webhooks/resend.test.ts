import type { Runner } from 'graphile-worker';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  eventually,
  jsonHeaders,
  type Receiver,
  serverEnv,
  startReceiver,
  startTestWorker,
  storeWithEndpoint,
} from '../helpers/webhooks';

/**
 * A delivery's page (the request body sent, every attempt with its response) and "resend": the same
 * event, the same delivery id, sent again now whatever the delivery's status; earlier attempts stay.
 */
let server: TestServer;
let receiver: Receiver;
let worker: Runner;

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver(() => ({ status: 200, body: 'received' }));
  worker = await startTestWorker(server);
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await server.close();
});

it('shows the request body and each attempt, and resends a delivered event once more with the same id', async () => {
  const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/resend'), ['webhook.test']);
  const test = await server.request(`/api/v1/store/webhooks/endpoints/${endpointId}/test`, {
    method: 'POST',
    headers: jsonHeaders(key),
  });
  expect(test.status).toBe(202);
  const [first] = await receiver.waitFor(1, (r) => r.path === '/resend');
  const deliveryId = first?.headers['x-service-delivery'] as string;
  const detail = await eventually(async () => {
    const res = await server.request(`/api/v1/store/webhooks/deliveries/${deliveryId}`, { key });
    const { data } = await res.json();
    return data?.status === 'success' ? data : null;
  });
  expect(detail.payload).toBe(first?.body);
  expect(detail.attempts).toEqual([
    expect.objectContaining({ number: 1, status: 'success', httpStatus: 200, responseBody: 'received' }),
  ]);

  const resend = await server.request(`/api/v1/store/webhooks/deliveries/${deliveryId}/resend`, {
    method: 'POST',
    headers: jsonHeaders(key),
  });
  expect(resend.status).toBe(202);
  expect((await resend.json()).data).toMatchObject({ id: deliveryId, status: 'pending' });
  const both = await receiver.waitFor(2, (r) => r.path === '/resend');
  expect(both.map((r) => r.headers['x-service-delivery'])).toEqual([deliveryId, deliveryId]);
  expect(both[1]?.body).toBe(first?.body);

  const after = await eventually(async () => {
    const res = await server.graphql(
      'query($id: ID!) { webhookDelivery(id: $id) { status attempts { number status } } }',
      { id: deliveryId },
      key,
    );
    const delivery = (await res.json()).data.webhookDelivery;
    return delivery.status === 'success' && delivery.attempts.length === 2 ? delivery : null;
  });
  expect(after.attempts.map((a: { status: string }) => a.status)).toEqual(['success', 'success']);
});

it('refuses to resend for an inactive endpoint (409) and answers 404 for another store’s delivery', async () => {
  const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/inactive'), ['webhook.test']);
  await server.request(`/api/v1/store/webhooks/endpoints/${endpointId}/test`, {
    method: 'POST',
    headers: jsonHeaders(key),
  });
  const [sent] = await receiver.waitFor(1, (r) => r.path === '/inactive');
  const deliveryId = sent?.headers['x-service-delivery'] as string;
  await server.request(`/api/v1/store/webhooks/endpoints/${endpointId}`, {
    method: 'PATCH',
    headers: jsonHeaders(key),
    body: JSON.stringify({ isActive: false }),
  });
  const refused = await server.request(`/api/v1/store/webhooks/deliveries/${deliveryId}/resend`, {
    method: 'POST',
    headers: jsonHeaders(key),
  });
  expect(refused.status).toBe(409);
  const other = await storeWithEndpoint(server, receiver.url('/other'), ['webhook.test']);
  const foreign = await server.request(`/api/v1/store/webhooks/deliveries/${deliveryId}/resend`, {
    method: 'POST',
    headers: jsonHeaders(other.key),
  });
  expect(foreign.status).toBe(404);
});
