import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

/**
 * Issue 15 item 10: single-item lookups are nullable (a missing or foreign id nulls that field, with
 * NOT_FOUND, and leaves its siblings), Relay's node(id:) answers any object with its own lookup's
 * scope check, and connections say their totalCount. REST keeps its 404.
 */
let server: TestServer;
let shop: { id: string; key: string };
let other: { id: string; key: string };
let productId: string;
let orderId: string;

beforeAll(async () => {
  server = await startTestServer();
  [shop, other] = [await makeStoreWithKey(server.prisma), await makeStoreWithKey(server.prisma)];
  for (const [i, status] of (['active', 'active', 'draft'] as const).entries()) {
    const res = await server.send(
      'POST',
      '/api/v1/product',
      { name: `Thing ${i}`, priceAmount: 100, stock: 5, status },
      shop.key,
    );
    if (i === 0) productId = (await res.json()).data.id;
  }
  const order = await server.send(
    'POST',
    '/api/v1/order',
    { email: 'a@b.test', items: [{ productId, quantity: 1 }] },
    shop.key,
  );
  orderId = (await order.json()).data.id;
});
afterAll(() => server.close());

const gql = async (query: string, variables: Record<string, unknown> = {}, as = shop.key) =>
  (await server.graphql(query, variables, as)).json();

describe('single-item lookups', () => {
  it('null the missing item only, with NOT_FOUND at its path; siblings keep their data', async () => {
    const json = await gql(
      `query($id: ID!, $gone: ID!) {
        gone: product(id: $gone) { id }
        found: product(id: $id) { id name }
        products(limit: 1) { pagination { totalResults } }
      }`,
      { id: productId, gone: 'prd_doesnotexist' },
    );
    expect(json.data).toEqual({
      gone: null,
      found: { id: productId, name: 'Thing 0' },
      products: { pagination: { totalResults: 3 } },
    });
    expect(json.errors).toEqual([
      expect.objectContaining({ path: ['gone'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) }),
    ]);
  });

  it("treat another store's id as missing", async () => {
    const json = await gql('query($id: ID!) { order(id: $id) { id } }', { id: orderId }, other.key);
    expect(json.data).toEqual({ order: null });
    expect(json.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('leave REST as it was: 404 NOT_FOUND', async () => {
    const res = await server.request('/api/v1/product/prd_doesnotexist', { key: shop.key });
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('NOT_FOUND');
  });
});

describe('node(id:)', () => {
  it('answers any object by its id, with the fields of its type', async () => {
    const json = await gql(
      `query($p: ID!, $o: ID!) {
        p: node(id: $p) { __typename id ... on Product { name } }
        o: node(id: $o) { __typename ... on Order { number items { name } } }
      }`,
      { p: productId, o: orderId },
    );
    expect(json.errors).toBeUndefined();
    expect(json.data).toEqual({
      p: { __typename: 'Product', id: productId, name: 'Thing 0' },
      o: { __typename: 'Order', number: 1001, items: [{ name: 'Thing 0' }] },
    });
  });

  it("is null with NOT_FOUND for an unknown, malformed or other store's id", async () => {
    for (const [id, key] of [
      ['prd_doesnotexist', shop.key],
      ['nonsense', shop.key],
      [productId, other.key],
    ] as const) {
      const json = await gql('query($id: ID!) { node(id: $id) { id } }', { id }, key);
      expect(json.data).toEqual({ node: null });
      expect(json.errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it("checks the pair of the type's own lookup, for keys and sessions", async () => {
    const reader = await makeKey(server.prisma, shop.id, {
      scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
    });
    const product = await gql('query($id: ID!) { node(id: $id) { id } }', { id: productId }, reader.secret);
    expect(product.data.node).toEqual({ id: productId });
    const order = await gql('query($id: ID!) { node(id: $id) { id } }', { id: orderId }, reader.secret);
    expect(order.data).toEqual({ node: null });
    expect(order.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');

    const { token } = await signInAs(server, shop.id, 'STAFF');
    const endpointLike = await (
      await server.request('/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ node(id: "whe_anything") { id } }' }),
      })
    ).json();
    expect(endpointLike.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('connections', () => {
  it('say how many match their filter in totalCount', async () => {
    const json = await gql(`{
      all: productsConnection(first: 1) { totalCount edges { node { id } } }
      drafts: productsConnection(first: 1, status: draft) { totalCount }
      orders: ordersConnection(first: 5) { totalCount }
      none: customersConnection(first: 5, q: "nobody") { totalCount }
    }`);
    expect(json.errors).toBeUndefined();
    expect(json.data.all.totalCount).toBe(3);
    expect(json.data.all.edges).toHaveLength(1);
    expect(json.data.drafts.totalCount).toBe(1);
    expect(json.data.orders.totalCount).toBe(1);
    expect(json.data.none.totalCount).toBe(0);
  });
});
