import { randomUUID } from 'node:crypto';
import { registeredNodeTypes } from '../../src/resources/node/registry';
import { fanOutEvents } from '../../src/webhook-delivery/fan-out';
import '../../src/schema';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Relay's node(id:) answers every type that registers itself (src/resources/node/registry.ts), read
 * from the registry rather than listed here: a type added there that node(id:) cannot resolve, or
 * that this file cannot make, fails it.
 */
let server: TestServer;
let shop: { id: string; key: string };
let other: { id: string; key: string };

beforeAll(async () => {
  server = await startTestServer();
  [shop, other] = [await makeStoreWithKey(server.prisma), await makeStoreWithKey(server.prisma)];
});
afterAll(() => server.close());

/** The id of what a REST create answers with. */
async function created(path: string, body: unknown): Promise<string> {
  const res = await server.send('POST', `/api/v1${path}`, body, shop.key);
  const json = await res.json();
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data.id;
}

const tag = () => randomUUID().slice(0, 8);
const product = () => created('/product', { name: `Lamp ${tag()}`, priceAmount: 1200, stock: 5 });
/** Public IP literal: creating checks it without DNS, and no worker runs here to send to it. */
const endpoint = () =>
  created('/store/webhooks/endpoints', { url: 'https://93.184.216.34/hooks', events: ['category.created'] });

/** One object of each node type in the shop, made the way the service makes them. */
const makers: Record<string, () => Promise<string>> = {
  Product: product,
  Category: () => created('/category', { name: `Lights ${tag()}` }),
  Coupon: () => created('/coupon', { code: `NODE${tag()}`.toUpperCase(), type: 'percent', value: 10 }),
  Customer: () => created('/customer', { email: `c-${tag()}@example.test` }),
  Order: async () =>
    created('/order', {
      email: `o-${tag()}@example.test`,
      items: [{ productId: await product(), quantity: 1 }],
    }),
  // Customers write reviews; the API only moderates them.
  Review: async () =>
    (await server.prisma.review.create({ data: { storeId: shop.id, productId: await product(), rating: 5 } }))
      .id,
  StaffMember: () => created('/staff', { email: `s-${tag()}@example.test`, name: 'Sam', role: 'STAFF' }),
  WebhookEndpoint: endpoint,
  WebhookDelivery: async () => {
    const endpointId = await endpoint();
    await created('/category', { name: `Evented ${tag()}` });
    const events = await server.prisma.event.findMany({ where: { storeId: shop.id }, select: { id: true } });
    const until = new Date(Date.now() + 60_000);
    const deliveries = await fanOutEvents(
      server.db.pool,
      events.map((event) => event.id),
      new Date(),
      { token: 'node test', until },
    );
    const made = deliveries.find((delivery) => delivery.endpointId === endpointId);
    if (!made) throw new Error('the fan-out made no delivery');
    return made.id;
  },
};

const nodeQuery = 'query($id: ID!) { node(id: $id) { __typename id } }';
const askNode = async (id: string, key: string) => (await server.graphql(nodeQuery, { id }, key)).json();

describe('node(id:) over the node registry', () => {
  it('finds registered types, and this file can make an object of each', () => {
    expect(registeredNodeTypes().length).toBeGreaterThan(0);
    expect(registeredNodeTypes().filter((type) => !makers[type])).toEqual([]);
  });

  it.each(registeredNodeTypes())(
    "answers a %s by its id in its own store, and is null with NOT_FOUND in another's",
    async (type) => {
      await server.prisma.webhookEndpoint.deleteMany({ where: { storeId: shop.id } });
      const id = await (makers[type] as () => Promise<string>)();

      const own = await askNode(id, shop.key);
      expect(own).toEqual({ data: { node: { __typename: type, id } }, extensions: expect.any(Object) });

      const foreign = await askNode(id, other.key);
      expect(foreign.data).toEqual({ node: null });
      expect(foreign.errors).toEqual([
        expect.objectContaining({
          path: ['node'],
          extensions: expect.objectContaining({ code: 'NOT_FOUND' }),
        }),
      ]);
    },
  );
});
