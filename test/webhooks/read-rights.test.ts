import { type ScopePair, toScopeObjects } from '../../src/access/scopes';
import { eventTypes } from '../../src/events/catalog';
import { eventReadRight } from '../../src/events/read-rights';
import { fanOutEvents } from '../../src/webhook-delivery/fan-out';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { jsonHeaders } from '../helpers/webhooks';

/**
 * Webhook data follows read rights: a delivery's payload (an order, a customer …) is shown only to a
 * caller holding its resource's read right, and subscribing an endpoint — choosing where that data
 * goes — needs the same rights. STORE_SETTINGS alone neither shows nor routes store data.
 */
let server: TestServer;
let shop: { id: string; key: string };

beforeAll(async () => {
  server = await startTestServer();
  shop = await makeStoreWithKey(server.prisma);
});
afterAll(() => server.close());

const endpoints = '/api/v1/store/webhooks/endpoints';
/** Public IP literal: creating checks it without DNS, and no worker runs here to send to it. */
const url = 'https://93.184.216.34/hooks';

const keyWith = async (pairs: ScopePair[]) =>
  (await makeKey(server.prisma, shop.id, { scopes: toScopeObjects(pairs) })).secret;
const send = (key: string, method: string, path: string, body?: unknown) =>
  server.request(path, {
    method,
    headers: jsonHeaders(key),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
const gql = async (key: string, query: string, variables: Record<string, unknown> = {}) =>
  (await server.graphql(query, variables, key)).json();
const endpointCount = () => server.prisma.webhookEndpoint.count({ where: { storeId: shop.id } });
const noEndpoints = () => server.prisma.webhookEndpoint.deleteMany({ where: { storeId: shop.id } });

describe('the event → read right mapping', () => {
  it('maps every event type of the catalog', () => {
    const unmapped = eventTypes.filter((type) => eventReadRight(type) === undefined);
    expect(unmapped).toEqual([]);
  });

  it.each([
    ['order.placed', 'ORDERS:READ'],
    ['order.cancelled', 'ORDERS:READ'],
    ['product.deleted', 'PRODUCTS:READ'],
    ['category.created', 'CATEGORIES:READ'],
    ['customer.updated', 'CUSTOMERS:READ'],
    ['webhook.test', null],
    ['invented.type', undefined],
  ])('%s needs %s', (type, right) => expect(eventReadRight(type)).toBe(right));
});

describe("a delivery's payload", () => {
  let orderDelivery: { id: string; payload: string };
  let testDelivery: { id: string; payload: string };

  beforeAll(async () => {
    await noEndpoints();
    const created = await (await send(shop.key, 'POST', endpoints, { url, events: ['order.placed'] })).json();
    const endpointId = created.data.id;
    const product = await (
      await send(shop.key, 'POST', '/api/v1/product', { name: 'Lamp', priceAmount: 1200, stock: 5 })
    ).json();
    const order = await send(shop.key, 'POST', '/api/v1/order', {
      email: 'buyer@example.test',
      items: [{ productId: product.data.id, quantity: 1 }],
    });
    expect(order.status).toBe(201);
    expect((await send(shop.key, 'POST', `${endpoints}/${endpointId}/test`)).status).toBe(202);
    const events = await server.prisma.event.findMany({ where: { storeId: shop.id }, select: { id: true } });
    // Leased until a moment ago, as after a finished attempt: a resend may take them.
    const deliveries = await fanOutEvents(
      server.db.pool,
      events.map((event) => event.id),
      server.clock.now,
      { token: 'read rights', until: new Date(server.clock.now.getTime() - 1000) },
    );
    const of = (type: string) => {
      const found = deliveries.find((delivery) => delivery.eventType === type);
      if (!found) throw new Error(`no ${type} delivery`);
      return { id: found.id, payload: found.payload };
    };
    orderDelivery = of('order.placed');
    testDelivery = of('webhook.test');
    expect(JSON.parse(orderDelivery.payload).data.object.email).toBe('buyer@example.test');
  });

  const deliveryQuery = `query($id: ID!) {
    webhookDelivery(id: $id) { eventType payload }
    node(id: $id) { ... on WebhookDelivery { payload } }
  }`;

  it('is null over GraphQL for an order.* delivery to a key with STORE_SETTINGS:READ alone; the test ping shows', async () => {
    const key = await keyWith(['STORE_SETTINGS:READ']);
    expect(await gql(key, deliveryQuery, { id: orderDelivery.id })).toEqual({
      data: { webhookDelivery: { eventType: 'order.placed', payload: null }, node: { payload: null } },
      extensions: expect.any(Object),
    });
    expect((await gql(key, deliveryQuery, { id: testDelivery.id })).data).toEqual({
      webhookDelivery: { eventType: 'webhook.test', payload: testDelivery.payload },
      node: { payload: testDelivery.payload },
    });
    const endpointId = (
      await server.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: orderDelivery.id } })
    ).endpointId;
    const log = await gql(
      key,
      'query($id: ID!) { webhookDeliveries(endpointId: $id) { items { eventType payload } } }',
      { id: endpointId },
    );
    expect(log.data.webhookDeliveries.items).toEqual(
      expect.arrayContaining([
        { eventType: 'order.placed', payload: null },
        { eventType: 'webhook.test', payload: testDelivery.payload },
      ]),
    );
  });

  it('shows over GraphQL once the key holds ORDERS:READ as well', async () => {
    const key = await keyWith(['STORE_SETTINGS:READ', 'ORDERS:READ']);
    expect((await gql(key, deliveryQuery, { id: orderDelivery.id })).data).toEqual({
      webhookDelivery: { eventType: 'order.placed', payload: orderDelivery.payload },
      node: { payload: orderDelivery.payload },
    });
  });

  it('is null over REST without ORDERS:READ and shown with it', async () => {
    const path = `/api/v1/store/webhooks/deliveries/${orderDelivery.id}`;
    const without = await send(await keyWith(['STORE_SETTINGS:READ']), 'GET', path);
    expect(without.status).toBe(200);
    expect((await without.json()).data).toEqual(
      expect.objectContaining({ id: orderDelivery.id, payload: null }),
    );
    const withRight = await send(await keyWith(['STORE_SETTINGS:READ', 'ORDERS:READ']), 'GET', path);
    expect((await withRight.json()).data.payload).toBe(orderDelivery.payload);
    const ping = await send(
      await keyWith(['STORE_SETTINGS:READ']),
      'GET',
      `/api/v1/store/webhooks/deliveries/${testDelivery.id}`,
    );
    expect((await ping.json()).data.payload).toBe(testDelivery.payload);
  });

  it('is null in the answer of a resend by a key without ORDERS:READ', async () => {
    const key = await keyWith(['STORE_SETTINGS:UPDATE']);
    const resent = await gql(
      key,
      'mutation($id: ID!) { resendWebhookDelivery(id: $id) { id status payload } }',
      {
        id: orderDelivery.id,
      },
    );
    expect(resent).toEqual({
      data: { resendWebhookDelivery: { id: orderDelivery.id, status: 'pending', payload: null } },
      extensions: expect.any(Object),
    });
  });
});

describe('subscribing an endpoint to events', () => {
  beforeEach(noEndpoints);

  it('refuses order.placed to a key with STORE_SETTINGS:WRITE alone: 403 naming the pair, nothing created', async () => {
    const res = await send(await keyWith(['STORE_SETTINGS:WRITE']), 'POST', endpoints, {
      url,
      events: ['order.placed'],
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 403,
      body: {
        success: false,
        status: 403,
        code: 'INSUFFICIENT_SCOPE',
        message: 'Subscribing to order.placed needs ORDERS:READ, which this API key lacks',
        requestId: res.headers.get('x-request-id'),
      },
    });
    expect(await endpointCount()).toBe(0);
  });

  it('refuses "*" without every resource’s read right, naming each missing pair', async () => {
    const key = await keyWith(['STORE_SETTINGS:WRITE', 'ORDERS:READ', 'PRODUCTS:READ']);
    const res = await send(key, 'POST', endpoints, { url, events: ['*'] });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 403,
      body: expect.objectContaining({
        code: 'INSUFFICIENT_SCOPE',
        message:
          'Subscribing to * needs CATEGORIES:READ and CUSTOMERS:READ and API_KEYS:READ, which this API key lacks',
      }),
    });
    const graphql = await gql(
      key,
      'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id } }',
      { input: { url, events: ['*'] } },
    );
    expect(graphql.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(await endpointCount()).toBe(0);
  });

  it('lets STORE_SETTINGS:WRITE alone subscribe to webhook.test', async () => {
    const res = await send(await keyWith(['STORE_SETTINGS:WRITE']), 'POST', endpoints, {
      url,
      events: ['webhook.test'],
    });
    expect(res.status).toBe(201);
    expect(await endpointCount()).toBe(1);
  });

  it('lets a key with ORDERS:READ subscribe to order.*, and names only what it still lacks', async () => {
    const key = await keyWith(['STORE_SETTINGS:WRITE', 'ORDERS:READ']);
    const allowed = await send(key, 'POST', endpoints, { url, events: ['order.placed', 'order.paid'] });
    expect(allowed.status).toBe(201);
    const mixed = await send(key, 'POST', endpoints, {
      url,
      events: ['order.placed', 'customer.created', 'customer.updated'],
    });
    expect({ status: mixed.status, message: (await mixed.json()).message }).toEqual({
      status: 403,
      message:
        'Subscribing to customer.created, customer.updated needs CUSTOMERS:READ, which this API key lacks',
    });
    expect(await endpointCount()).toBe(1);
  });

  it('applies to a PATCH of events too', async () => {
    const created = await (await send(shop.key, 'POST', endpoints, { url, events: ['webhook.test'] })).json();
    const path = `${endpoints}/${created.data.id}`;
    const refused = await send(await keyWith(['STORE_SETTINGS:UPDATE']), 'PATCH', path, {
      events: ['order.placed'],
    });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: expect.objectContaining({
        code: 'INSUFFICIENT_SCOPE',
        message: 'Subscribing to order.placed needs ORDERS:READ, which this API key lacks',
      }),
    });
    const star = await send(await keyWith(['STORE_SETTINGS:UPDATE', 'ORDERS:READ']), 'PATCH', path, {
      events: ['*'],
    });
    expect(star.status).toBe(403);
    const after = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.data.id } });
    expect(after.events).toEqual(['webhook.test']);

    const allowed = await send(await keyWith(['STORE_SETTINGS:UPDATE', 'ORDERS:READ']), 'PATCH', path, {
      events: ['order.placed'],
    });
    expect(allowed.status).toBe(200);
    expect((await allowed.json()).data.events).toEqual(['order.placed']);
  });

  it('applies to a PATCH of the URL: the endpoint’s events would go to the new one', async () => {
    const created = await (await send(shop.key, 'POST', endpoints, { url, events: ['order.paid'] })).json();
    const path = `${endpoints}/${created.data.id}`;
    const updater = await keyWith(['STORE_SETTINGS:UPDATE']);
    const refused = await send(updater, 'PATCH', path, { url: 'https://93.184.216.35/mine' });
    expect({ status: refused.status, body: await refused.json() }).toEqual({
      status: 403,
      body: expect.objectContaining({
        code: 'INSUFFICIENT_SCOPE',
        message:
          'Changing the URL of an endpoint subscribed to order.paid needs ORDERS:READ, which this API key lacks',
      }),
    });
    expect(
      (await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.data.id } })).url,
    ).toBe(url);
    // What routes no data stays STORE_SETTINGS' alone.
    expect((await send(updater, 'PATCH', path, { description: 'ERP' })).status).toBe(200);
    const withRight = await send(await keyWith(['STORE_SETTINGS:UPDATE', 'ORDERS:READ']), 'PATCH', path, {
      url: 'https://93.184.216.35/mine',
    });
    expect(withRight.status).toBe(200);
  });

  it('lets an admin’s session subscribe to everything (its role holds every pair)', async () => {
    const { token } = await signInAs(server, shop.id, 'ADMIN');
    const res = await server.request(endpoints, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url, events: ['*'] }),
    });
    expect(res.status).toBe(201);
  });
});
