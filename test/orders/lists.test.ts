import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { client, makeCustomer, makeProduct, makeShop, type Shop, startOrdersServer } from './setup';

let server: TestServer;
let shop: Shop;
let api: ReturnType<typeof client>;
const base = Date.UTC(2026, 0, 1);
const at = (minute: number) => new Date(base + minute * 60_000);

/** Orders seeded straight into the table: number, e-mail, status, total and minute of creation. */
const rows = [
  { number: 1001, email: 'alice@example.test', status: 'pending', totalAmount: 3000, minute: 0 },
  { number: 1002, email: 'bob@example.test', status: 'paid', totalAmount: 1000, minute: 10 },
  { number: 1003, email: 'carol@shop.test', status: 'fulfilled', totalAmount: 5000, minute: 20 },
  { number: 1004, email: 'dave@example.test', status: 'cancelled', totalAmount: 2000, minute: 30 },
  { number: 1005, email: 'ALICE.2@example.test', status: 'paid', totalAmount: 3000, minute: 40 },
  // Same createdAt as 1005: ties are broken by id.
  { number: 1006, email: 'erin@shop.test', status: 'pending', totalAmount: 4000, minute: 40 },
] as const;

const ids = new Map<number, string>();

beforeAll(async () => {
  server = await startOrdersServer();
  shop = await makeShop(server);
  api = client(server, shop.key);
  const product = await makeProduct(server, shop.id, { name: 'Widget', priceAmount: 1000 });
  const customer = await makeCustomer(server, shop.id, 'alice@example.test');
  for (const row of rows) {
    const order = await server.prisma.order.create({
      data: {
        storeId: shop.id,
        number: row.number,
        email: row.email,
        status: row.status,
        customerId: row.number === 1001 ? customer.id : null,
        currency: 'USD',
        subtotalAmount: row.totalAmount,
        totalAmount: row.totalAmount,
        createdAt: at(row.minute),
        items: {
          create: [
            {
              productId: product.id,
              name: 'Widget',
              unitAmount: 1000,
              quantity: row.totalAmount / 1000,
              totalAmount: row.totalAmount,
            },
            { productId: null, name: 'Archived thing', unitAmount: 0, quantity: 1, totalAmount: 0 },
          ],
        },
      },
    });
    ids.set(row.number, order.id);
  }
});
afterAll(() => server.close());

const numbersOf = async (query: string, key = shop.key) => {
  const res = await api.send('GET', `/order/vendor${query}`, undefined, key);
  const json = await res.json();
  expect({ status: res.status, body: json }).toEqual(expect.objectContaining({ status: 200 }));
  return json.data.map((o: { number: number }) => o.number);
};

/** 1005 and 1006 share a createdAt; by id in the direction of the sort. */
const tiedDesc = () =>
  [1005, 1006].sort((a, b) => ((ids.get(a) as string) < (ids.get(b) as string) ? 1 : -1));

/** Runs `fn` and counts the SQL statements on the order tables that reach the pool meanwhile. */
async function countingOrderQueries<T>(fn: () => Promise<T>) {
  const pool = server.db.pool as unknown as { query: (...args: unknown[]) => unknown };
  const original = pool.query;
  let count = 0;
  pool.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (/"(Order|OrderItem|Customer|Coupon)"/.test(text)) count++;
    return original.apply(this, args);
  };
  try {
    const result = await fn();
    return { result, count };
  } finally {
    pool.query = original;
  }
}

describe('GET /order/vendor', () => {
  it('answers with the list envelope, newest first, each order with its lines', async () => {
    const res = await api.send('GET', '/order/vendor');
    const json = await res.json();
    expect(json).toEqual({
      success: true,
      data: expect.any(Array),
      pagination: { results: [], totalResults: 6, currentPage: 1, page: 1, limit: 25, lastPage: 1 },
    });
    expect(json.data.map((o: { number: number }) => o.number)).toEqual([
      ...tiedDesc(),
      1004,
      1003,
      1002,
      1001,
    ]);
    const first = json.data.find((o: { number: number }) => o.number === 1001);
    expect(first.items.map((i: { name: string }) => i.name)).toEqual(['Archived thing', 'Widget']);
    expect(first.customer).toEqual(expect.objectContaining({ email: 'alice@example.test' }));
  });

  it('sorts by number and totalAmount, both ways, ties by id', async () => {
    expect(await numbersOf('?sortBy=number&sortDirection=asc')).toEqual([1001, 1002, 1003, 1004, 1005, 1006]);
    expect(await numbersOf('?sortBy=number')).toEqual([1006, 1005, 1004, 1003, 1002, 1001]);
    const threes = [1001, 1005].sort((a, b) => ((ids.get(a) as string) < (ids.get(b) as string) ? -1 : 1));
    expect(await numbersOf('?sortBy=totalAmount&sortDirection=asc')).toEqual([
      1002,
      1004,
      ...threes,
      1006,
      1003,
    ]);
    expect(await numbersOf('?sortBy=createdAt&sortDirection=asc')).toEqual([
      1001,
      1002,
      1003,
      1004,
      ...tiedDesc().reverse(),
    ]);
  });

  it('filters by status, q (number or e-mail, any case) and the createdAt range [from, to)', async () => {
    expect(await numbersOf('?status=paid&sortBy=number&sortDirection=asc')).toEqual([1002, 1005]);
    expect(await numbersOf('?q=alice&sortBy=number&sortDirection=asc')).toEqual([1001, 1005]);
    expect(await numbersOf('?q=SHOP.TEST&sortBy=number&sortDirection=asc')).toEqual([1003, 1006]);
    expect(await numbersOf('?q=1003')).toEqual([1003]);
    expect(await numbersOf(`?q=${encodeURIComponent('#1004')}`)).toEqual([1004]);
    expect(await numbersOf('?q=99999999999')).toEqual([]);
    const from = encodeURIComponent(at(10).toISOString());
    const to = encodeURIComponent(at(40).toISOString());
    expect(await numbersOf(`?from=${from}&to=${to}&sortBy=number&sortDirection=asc`)).toEqual([
      1002, 1003, 1004,
    ]);
    expect(await numbersOf(`?from=${to}&sortBy=number&sortDirection=asc`)).toEqual([1005, 1006]);
    expect(await numbersOf(`?to=${from}`)).toEqual([1001]);
    expect(await numbersOf(`?from=${from}&status=pending&q=example`)).toEqual([]);
    expect(await numbersOf(`?from=${from}&status=pending&q=erin`)).toEqual([1006]);
  });

  it('filters by customerId: the orders of one customer, not those of a similar e-mail', async () => {
    const customerId = (await server.prisma.order.findUniqueOrThrow({ where: { id: ids.get(1001) } }))
      .customerId as string;
    expect(await numbersOf(`?customerId=${customerId}`)).toEqual([1001]);
    expect(await numbersOf('?customerId=nobody')).toEqual([]);
  });

  it('pages with correct totals, past the end too', async () => {
    const res = await api.send('GET', '/order/vendor?limit=4&page=2&sortBy=number&sortDirection=asc');
    const json = await res.json();
    expect(json.data.map((o: { number: number }) => o.number)).toEqual([1005, 1006]);
    expect(json.pagination).toEqual(
      expect.objectContaining({ totalResults: 6, currentPage: 2, limit: 4, lastPage: 2 }),
    );
    const past = await (await api.send('GET', '/order/vendor?limit=4&page=9')).json();
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual(expect.objectContaining({ totalResults: 6, lastPage: 2 }));
  });

  it('refuses bad arguments with 400 naming them', async () => {
    for (const [query, path] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?page=0', 'page'],
      ['?sortBy=email', 'sortBy'],
      ['?sortDirection=up', 'sortDirection'],
      ['?status=shipped', 'status'],
      ['?from=yesterday', 'from'],
      [`?from=${at(5).toISOString()}&to=${at(5).toISOString()}`, 'to'],
      ['?sort_by=number', 'sort_by'],
    ] as const) {
      const res = await api.send('GET', `/order/vendor${query}`);
      const json = await res.json();
      expect({ query, status: res.status, code: json.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(JSON.stringify(json)).toContain(path);
    }
  });

  it('never shows another store’s orders, and needs ORDERS READ', async () => {
    const other = await makeShop(server);
    expect(await numbersOf('', other.key)).toEqual([]);
    expect((await api.send('GET', `/order/details/${ids.get(1001)}`, undefined, other.key)).status).toBe(404);
    const productsOnly = (
      await makeKey(server.prisma, shop.id, { scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }] })
    ).secret;
    const denied = await api.send('GET', '/order/vendor', undefined, productsOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('GET /order/details/{orderId}', () => {
  it('answers one order, or 404 NOT_FOUND', async () => {
    const res = await api.send('GET', `/order/details/${ids.get(1003)}`);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(
      expect.objectContaining({
        id: ids.get(1003),
        number: 1003,
        status: 'fulfilled',
        email: 'carol@shop.test',
      }),
    );
    const missing = await api.send('GET', '/order/details/ord_nope');
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('NOT_FOUND');
  });
});

describe('orders over GraphQL', () => {
  it('lists a page with lines, customer and coupon in a fixed number of queries, whatever the page size', async () => {
    const query = (limit: number) => `{
      orders(limit: ${limit}, sortBy: number, sortDirection: asc) {
        items { number couponCode customer { email } items { name quantity } }
        pagination { totalResults currentPage limit lastPage }
      }
    }`;
    const small = await countingOrderQueries(() => api.gql(query(2)));
    const large = await countingOrderQueries(() => api.gql(query(6)));
    expect(large.count).toBe(small.count);
    expect(small.count).toBeGreaterThan(1);
    expect(small.count).toBeLessThanOrEqual(5);
    expect(large.result.data.orders.pagination).toEqual({
      totalResults: 6,
      currentPage: 1,
      limit: 6,
      lastPage: 1,
    });
    expect(small.result.data.orders.items[0]).toEqual({
      number: 1001,
      couponCode: null,
      customer: { email: 'alice@example.test' },
      items: [
        { name: 'Archived thing', quantity: 1 },
        { name: 'Widget', quantity: 3 },
      ],
    });
  });

  it('pages through the Relay connection with filters', async () => {
    const first = await api.gql(
      '{ ordersConnection(first: 2, sortBy: number, sortDirection: asc, q: "example") { edges { node { number } } pageInfo { hasNextPage endCursor } } }',
    );
    expect(first.data.ordersConnection.edges.map((e: { node: { number: number } }) => e.node.number)).toEqual(
      [1001, 1002],
    );
    const second = await api.gql(
      `query($after: String) {
        ordersConnection(first: 5, after: $after, sortBy: number, sortDirection: asc, q: "example") { edges { node { number } } }
      }`,
      { after: first.data.ordersConnection.pageInfo.endCursor },
    );
    expect(
      second.data.ordersConnection.edges.map((e: { node: { number: number } }) => e.node.number),
    ).toEqual([1004, 1005]);
  });

  it('reads one order, and another store’s as NOT_FOUND', async () => {
    const json = await api.gql('query($id: ID!) { order(id: $id) { number status } }', { id: ids.get(1002) });
    expect(json.data.order).toEqual({ number: 1002, status: 'paid' });
    const other = await makeShop(server);
    const foreign = await api.gql(
      'query($id: ID!) { order(id: $id) { id } }',
      { id: ids.get(1002) },
      other.key,
    );
    expect(foreign.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('says which transitions each order may take now, from its status', async () => {
    const json = await api.gql(
      '{ orders(sortBy: number, sortDirection: asc) { items { number allowedTransitions } } }',
    );
    const allowed = Object.fromEntries(
      json.data.orders.items.map((o: { number: number; allowedTransitions: string[] }) => [
        o.number,
        o.allowedTransitions,
      ]),
    );
    expect(allowed).toEqual({
      1001: ['pay', 'cancel'],
      1002: ['fulfill', 'cancel'],
      1003: [],
      1004: [],
      1005: ['fulfill', 'cancel'],
      1006: ['pay', 'cancel'],
    });
  });
});
