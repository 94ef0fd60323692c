import { request } from 'node:https';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { quickAddJob, type Runner } from 'graphile-worker';
import { eventTypes } from '../../src/events/catalog';
import { taskName } from '../../src/task-catalog';
import { payloadMismatch } from '../helpers/event-schemas';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  eventually,
  type Receiver,
  receiverCa,
  serverEnv,
  startReceiver,
  startTestWorker,
  storeWithEndpoint,
} from '../helpers/webhooks';

/**
 * Typed events (issue 31, item 3): each event type's body has a JSON Schema derived from the GraphQL
 * resource its payload is built from, published by GET /store/webhooks/event-types, GraphQL and the
 * OpenAPI `webhooks`; every body a test receiver gets is checked against it.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(serverEnv);
});
afterAll(() => server.close());

interface EventTypeEntry {
  type: string;
  description: string;
  schema: Record<string, unknown> & { properties: { data: { properties: { object: ObjectSchema } } } };
  example: unknown;
}
interface ObjectSchema {
  required: string[];
  properties: Record<string, unknown>;
}

const objectOf = (entry: EventTypeEntry) => entry.schema.properties.data.properties.object;

async function publishedTypes(key: string): Promise<EventTypeEntry[]> {
  const res = await server.request('/api/v1/store/webhooks/event-types', { key });
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

describe('GET /api/v1/store/webhooks/event-types', () => {
  it('lists every type of the catalog with its description, schema and an example valid against it', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    const types = await publishedTypes(secret);
    expect(types.map((entry) => entry.type)).toEqual(eventTypes);
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    for (const entry of types) {
      expect(entry.description).toMatch(/\w/);
      const validate = ajv.compile(entry.schema);
      expect({ type: entry.type, valid: validate(entry.example), errors: validate.errors ?? null }).toEqual({
        type: entry.type,
        valid: true,
        errors: null,
      });
    }
    const placed = types.find((entry) => entry.type === 'order.placed')!;
    expect(placed.example).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      type: 'order.placed',
      data: {
        object: {
          id: expect.stringMatching(/^ord_/),
          // each nested object's example is made under its own type: the customer's id is a customer's
          customer: expect.objectContaining({ id: expect.stringMatching(/^cus_/) }),
          items: [expect.objectContaining({ id: expect.stringMatching(/^itm_/), quantity: 12 })],
        },
      },
    });
  });

  it('answers GraphQL’s webhookEventTypes with the same list', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    const res = await server.send(
      'POST',
      '/graphql',
      { query: '{ webhookEventTypes { type description schema example } }' },
      secret,
    );
    expect((await res.json()).data.webhookEventTypes).toEqual(await publishedTypes(secret));
  });

  it('refuses a key without STORE_SETTINGS READ (403)', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id, {
      scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
    });
    const res = await server.request('/api/v1/store/webhooks/event-types', { key: secret });
    expect(res.status).toBe(403);
  });

  it('gives each resource’s events the shape REST gives the resource, nullability and descriptions included', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    const types = await publishedTypes(secret);
    const openapi = await (await server.request('/api/v1/openapi.json')).json();
    const restItem: Record<string, string> = {
      order: 'Order',
      product: 'Product',
      category: 'Category',
      customer: 'Customer',
      api_key: 'ApiKey',
    };
    for (const entry of types.filter((e) => e.type !== 'webhook.test')) {
      const component = openapi.components.schemas[restItem[entry.type.split('.')[0]!]!];
      const object = objectOf(entry);
      expect({ type: entry.type, required: object.required }).toEqual({
        type: entry.type,
        required: component.required,
      });
      // scalars alike; nested objects are inline here, $refs there
      for (const [name, property] of Object.entries(
        component.properties as Record<string, { $ref?: string }>,
      ))
        if (!JSON.stringify(property).includes('$ref'))
          expect({ type: entry.type, name, property: object.properties[name] }).toEqual({
            type: entry.type,
            name,
            property,
          });
    }
    const productObject = objectOf(types.find((e) => e.type === 'product.updated')!);
    expect(productObject.properties.category).toMatchObject({
      type: ['object', 'null'],
      required: ['id', 'name'],
    });
  });
});

describe('every delivered body against its published schema', () => {
  let receiver: Receiver;
  let worker: Runner;
  beforeAll(async () => {
    receiver = await startReceiver();
    worker = await startTestWorker(server, { pollInterval: 100 });
  });
  afterAll(async () => {
    await worker.stop();
    await receiver.close();
  });

  it('delivers one event of every type of the catalog, each body valid against its schema', async () => {
    const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/all'), ['*']);
    const ok = async (method: string, path: string, body: unknown, status = 200) => {
      const res = await server.send(method, `/api/v1${path}`, body, key);
      expect({ path, status: res.status }).toEqual({ path, status });
      return res.status === 204 ? null : (await res.json()).data;
    };
    const category = await ok('POST', '/category', { name: 'Shirts' }, 201);
    await ok('PATCH', `/category/${category.id}`, { name: 'Linen shirts' });
    const product = await ok(
      'POST',
      '/product',
      { name: 'Linen Shirt', priceAmount: 4900, stock: 10, status: 'active', categoryId: category.id },
      201,
    );
    await ok('PATCH', `/product/${product.id}`, { priceAmount: 5200 });
    const customer = await ok('POST', '/customer', { email: 'ann@example.com', firstName: 'Ann' }, 201);
    await ok('PATCH', `/customer/${customer.id}`, { lastName: 'Lee' });
    const line = [{ productId: product.id, quantity: 2 }];
    const paid = await ok('POST', '/order', { customerId: customer.id, items: line }, 201);
    await ok('POST', `/order/vendor/pay/${paid.id}`, {});
    await ok('POST', `/order/vendor/fulfill/${paid.id}`, {});
    const cancelled = await ok('POST', '/order', { email: 'bo@example.com', items: line }, 201);
    await ok('POST', `/order/vendor/cancel/${cancelled.id}`, { reason: 'Changed my mind' });
    await ok('DELETE', `/product/${product.id}`, undefined, 204);
    await ok('DELETE', `/category/${category.id}`, undefined, 204);
    await ok('POST', `/store/webhooks/endpoints/${endpointId}/test`, {}, 202);
    // A key expiring within 7 days, and one at 80 % of its limit: the notice job's two events.
    const expiresAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await ok(
      'POST',
      '/api-key',
      {
        keyName: 'Ending',
        environment: 'production',
        scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
        expiresAt,
      },
      201,
    );
    const busy = await ok(
      'POST',
      '/api-key',
      {
        keyName: 'Busy',
        environment: 'production',
        scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
        usageLimit: 10,
      },
      201,
    );
    await server.prisma.apiKey.update({ where: { id: busy.keyId }, data: { usageCount: 8 } });
    await quickAddJob({ pgPool: server.db.pool }, taskName.send_key_notices, {});

    const typesReceived = () => new Set(receiver.requests.map((r) => r.headers['x-service-event']));
    await eventually(async () => typesReceived().size === eventTypes.length);
    expect(typesReceived()).toEqual(new Set(eventTypes));
    expect(receiver.mismatches).toEqual([]);
  });
});

describe('a delivered body outside its schema', () => {
  const orderPlaced = {
    id: 'msg_0f6b2c1d9e8a47b3a5c4d3e2f1a0b9c8',
    type: 'order.placed',
    apiVersion: 'v1',
    createdAt: '2026-11-24T09:30:00.000Z',
    storeId: 'str_1',
  };
  let example: { data: { object: Record<string, unknown> } };
  beforeAll(async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    example = (await publishedTypes(secret)).find((e) => e.type === 'order.placed')!
      .example as typeof example;
  });
  const withObject = (object: Record<string, unknown>) =>
    JSON.stringify({ ...orderPlaced, data: { object } });

  it('is named: a missing field, a field the schema does not publish, a wrong type, an unknown event type', () => {
    expect(payloadMismatch(withObject(example.data.object))).toBeNull();
    const { items: _items, ...withoutItems } = example.data.object;
    expect(payloadMismatch(withObject(withoutItems))).toMatch(
      /order\.placed: .*must have required property 'items'/,
    );
    expect(payloadMismatch(withObject({ ...example.data.object, internalNote: 'x' }))).toMatch(
      /body\/data\/object must NOT have additional properties: internalNote/,
    );
    expect(payloadMismatch(withObject({ ...example.data.object, totalAmount: '49.00' }))).toMatch(
      /body\/data\/object\/totalAmount must be integer/,
    );
    expect(payloadMismatch(JSON.stringify({ ...orderPlaced, type: 'order.lost', data: {} }))).toMatch(
      /no published schema for the type "order.lost"/,
    );
  });

  it('fails the test whose receiver got it: waitFor and close reject', async () => {
    const receiver = await startReceiver();
    const { items: _items, ...withoutItems } = example.data.object;
    await new Promise<void>((resolve, reject) => {
      const post = request(receiver.url('/wrong'), { method: 'POST', ca: receiverCa }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      post.on('error', reject);
      post.end(withObject(withoutItems));
    });
    await expect(receiver.waitFor(1)).rejects.toThrow(/delivered payloads outside their schema/);
    await expect(receiver.close()).rejects.toThrow(/must have required property 'items'/);
  });
});
