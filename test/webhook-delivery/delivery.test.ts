import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Runner } from 'graphile-worker';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { startWorker } from '../../jobs/worker';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  capturingLogger,
  createCategory,
  eventually,
  jsonHeaders,
  type ReceivedRequest,
  type Receiver,
  serverEnv,
  startReceiver,
  storeWithEndpoint,
  testWorkerOptions,
} from '../helpers/webhooks';

/** End to end: a mutation commits → outbox → fan-out → signed POST to a local HTTPS receiver → log updated. */
let server: TestServer;
let receiver: Receiver;
let worker: Runner;
const serverLogs = capturingLogger('debug');
const workerLogs = capturingLogger('debug');
const secrets: string[] = [];
const base = '/api/v1/store/webhooks/endpoints';

beforeAll(async () => {
  server = await startTestServer(serverEnv, { logger: serverLogs.logger });
  receiver = await startReceiver(() => ({ status: 200, body: 'thanks' }));
  worker = await startWorker({
    pgPool: server.db.pool,
    logger: workerLogs.logger,
    concurrency: 3,
    usageMeter: server.runtime.usage,
    prisma: server.prisma,
    webhooks: testWorkerOptions(),
    pollInterval: 200,
  });
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await server.close();
});

/** An endpoint at the local receiver; its secret is remembered to prove it never reaches a log. */
async function endpointFor(events: string[], path: string) {
  const created = await storeWithEndpoint(server, receiver.url(path), events);
  secrets.push(created.secret);
  return created;
}

/** The receiver's own verification of X-Service-Signature, written from docs/design.md "Delivery request" alone. */
function verifiedByHand(request: ReceivedRequest, secret: string): boolean {
  const match = request.headers['x-service-signature']?.match(/^t=(\d+),v1=([0-9a-f]{64})$/);
  if (!match) return false;
  const [, t, v1] = match;
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${request.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1 as string, 'hex'));
}

describe('webhook delivery, end to end', () => {
  it('delivers a category mutation to a subscribed endpoint, signed both ways, and logs it', async () => {
    const { key, endpointId, secret } = await endpointFor(['category.created'], '/e2e');
    const category = await createCategory(server, key, 'Sneakers');
    const [request] = await receiver.waitFor(1, (r) => r.path === '/e2e');
    const req = request as ReceivedRequest;
    const envelope = JSON.parse(req.body);
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('Service-Webhooks/1.0');
    expect(envelope).toEqual({
      id: expect.stringMatching(/^msg_/),
      type: 'category.created',
      apiVersion: 'v1',
      createdAt: expect.any(String),
      storeId: expect.stringMatching(/^str_/),
      data: { object: expect.objectContaining({ id: category.id, name: 'Sneakers' }) },
    });
    expect(req.headers['x-service-delivery']).toBe(envelope.id);
    expect(req.headers['x-service-event']).toBe(envelope.type);
    expect(req.headers['webhook-id']).toBe(envelope.id);

    expect(verifiedByHand(req, secret)).toBe(true);
    expect(new Webhook(secret).verify(req.body, req.headers)).toEqual(envelope);
    expect(
      Stripe.webhooks.constructEvent(req.body, req.headers['x-service-signature'] as string, secret),
    ).toEqual(envelope);

    const log = await eventually(async () => {
      const res = await (await server.request(`${base}/${endpointId}/logs`, { key })).json();
      return res.data[0]?.status === 'success' ? res : null;
    });
    expect(log.data).toEqual([
      expect.objectContaining({
        id: envelope.id,
        eventType: 'category.created',
        status: 'success',
        attempt: 1,
        httpStatus: 200,
        responseBody: 'thanks',
        errorMessage: null,
        nextRetryAt: null,
        deliveredAt: expect.any(String),
      }),
    ]);
    const gql = await (
      await server.graphql(
        `query($id: ID!) { webhookDelivery(id: $id) { id status attempts { number status httpStatus durationMs errorMessage } } }`,
        { id: envelope.id },
        key,
      )
    ).json();
    expect(gql.data.webhookDelivery.attempts).toEqual([
      { number: 1, status: 'success', httpStatus: 200, durationMs: expect.any(Number), errorMessage: null },
    ]);
  });

  it('sends each event only to active endpoints subscribed to its type or to "*"', async () => {
    const store = await endpointFor(['category.updated'], '/subscribed-other');
    const secondKeyStore = store.key;
    const star = await server.request(base, {
      method: 'POST',
      headers: jsonHeaders(secondKeyStore),
      body: JSON.stringify({ url: receiver.url('/star'), events: ['*'] }),
    });
    secrets.push((await star.json()).data.secret);
    const paused = await (
      await server.request(base, {
        method: 'POST',
        headers: jsonHeaders(secondKeyStore),
        body: JSON.stringify({ url: receiver.url('/paused'), events: ['*'] }),
      })
    ).json();
    secrets.push(paused.data.secret);
    await server.request(`${base}/${paused.data.id}`, {
      method: 'PATCH',
      headers: jsonHeaders(secondKeyStore),
      body: JSON.stringify({ isActive: false }),
    });
    await createCategory(server, secondKeyStore, 'Hats');
    await receiver.waitFor(1, (r) => r.path === '/star');
    const event = await server.prisma.event.findFirstOrThrow({
      where: { storeId: store.storeId, type: 'category.created' },
    });
    await eventually(
      async () =>
        (await server.prisma.webhookDelivery.count({ where: { eventId: event.id, status: 'success' } })) ===
        1,
    );
    expect(await server.prisma.webhookDelivery.count({ where: { eventId: event.id } })).toBe(1);
    expect(receiver.requests.filter((r) => r.path === '/subscribed-other' || r.path === '/paused')).toEqual(
      [],
    );
  });

  it('test sends a webhook.test event to that endpoint only', async () => {
    const { key, endpointId, secret } = await endpointFor(['order.paid'], '/ping');
    await server
      .request(base, {
        method: 'POST',
        headers: jsonHeaders(key),
        body: JSON.stringify({ url: receiver.url('/ping-other'), events: ['*'] }),
      })
      .then(async (res) => secrets.push((await res.json()).data.secret));
    const res = await server.request(`${base}/${endpointId}/test`, { method: 'POST', key });
    expect(res.status).toBe(202);
    const [ping] = await receiver.waitFor(1, (r) => r.path === '/ping');
    expect(ping?.headers['x-service-event']).toBe('webhook.test');
    expect(new Webhook(secret).verify(ping?.body as string, ping?.headers as Record<string, string>)).toEqual(
      expect.objectContaining({
        type: 'webhook.test',
        data: { object: expect.objectContaining({ endpointId }) },
      }),
    );
    expect(receiver.requests.filter((r) => r.path === '/ping-other')).toEqual([]);
  });

  it('signs with the new secret right after rotate-secret; the old one no longer verifies', async () => {
    const { key, endpointId, secret: old } = await endpointFor(['category.created'], '/rotated');
    const rotated = await (
      await server.request(`${base}/${endpointId}/rotate-secret`, { method: 'POST', key })
    ).json();
    const fresh: string = rotated.data.secret;
    secrets.push(fresh);
    await createCategory(server, key, 'After rotation');
    const [req] = await receiver.waitFor(1, (r) => r.path === '/rotated');
    const request = req as ReceivedRequest;
    expect(new Webhook(fresh).verify(request.body, request.headers)).toBeTruthy();
    expect(
      Stripe.webhooks.constructEvent(request.body, request.headers['x-service-signature'] as string, fresh),
    ).toBeTruthy();
    expect(verifiedByHand(request, old)).toBe(false);
    expect(() => new Webhook(old).verify(request.body, request.headers)).toThrow();
    expect(() =>
      Stripe.webhooks.constructEvent(request.body, request.headers['x-service-signature'] as string, old),
    ).toThrow();
  });

  it('never writes a signing secret to the logs', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(5);
    const text = serverLogs.text() + workerLogs.text();
    expect(text.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(6));
    }
  });
});
