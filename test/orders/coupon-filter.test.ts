import type { TestServer } from '../helpers/server';
import { callTool, connectMcp, resultOf } from '../mcp/client';
import { client, makeProduct, makeShop, type Shop, startOrdersServer } from './setup';

/**
 * README "Orders": `couponId` lists the orders that used a coupon (its redemptions), in GraphQL
 * (`orders`, `ordersConnection`), REST (`GET /order/vendor?couponId=`) and MCP (`list_orders`), one
 * filter for all three.
 */
let server: TestServer;
let shop: Shop;
let other: Shop;
let api: ReturnType<typeof client>;
let couponId: string;
let otherCouponId: string;
const numbers: number[] = [];

async function makeCoupon(as: ReturnType<typeof client>, code: string) {
  const res = await as.send('POST', '/coupon', { code, type: 'percent', value: 10 });
  expect(res.status).toBe(201);
  return (await res.json()).data.id as string;
}

beforeAll(async () => {
  server = await startOrdersServer();
  [shop, other] = await Promise.all([makeShop(server), makeShop(server)]);
  api = client(server, shop.key);
  couponId = await makeCoupon(api, 'SPRING10');
  await makeCoupon(api, 'OTHER5');
  otherCouponId = await makeCoupon(client(server, other.key), 'SPRING10');
  const product = await makeProduct(server, shop.id, { priceAmount: 2000 });
  const line = [{ productId: product.id, quantity: 1 }];
  for (const couponCode of ['spring10', null, 'OTHER5', 'SPRING10']) {
    const order = await api.place({ email: 'buyer@example.test', items: line, couponCode });
    if (couponCode?.toUpperCase() === 'SPRING10') numbers.push(order.number);
  }
});
afterAll(() => server.close());

const restNumbers = async (query: string, key = shop.key) => {
  const res = await api.send('GET', `/order/vendor${query}`, undefined, key);
  expect(res.status).toBe(200);
  return (await res.json()).data.map((o: { number: number }) => o.number).sort();
};

it('REST lists the orders that used the coupon, and only those', async () => {
  expect(await restNumbers(`?couponId=${couponId}`)).toEqual(numbers.sort());
  expect(await restNumbers('?couponId=cpn_nothing')).toEqual([]);
});

it('GraphQL orders and ordersConnection take the same filter', async () => {
  const json = await api.gql(
    `query ($couponId: ID) {
      orders(couponId: $couponId) { items { number couponCode } pagination { totalResults } }
      ordersConnection(couponId: $couponId) { totalCount edges { node { number } } }
    }`,
    { couponId },
  );
  expect(json.errors).toBeUndefined();
  expect(json.data.orders.pagination.totalResults).toBe(2);
  expect(json.data.orders.items.map((o: { couponCode: string }) => o.couponCode)).toEqual([
    'SPRING10',
    'SPRING10',
  ]);
  expect(json.data.ordersConnection.totalCount).toBe(2);
});

it('another store’s coupon id finds nothing, in either store', async () => {
  expect(await restNumbers(`?couponId=${otherCouponId}`)).toEqual([]);
  expect(await restNumbers(`?couponId=${couponId}`, other.key)).toEqual([]);
  const json = await api.gql('query ($c: ID) { orders(couponId: $c) { items { id } } }', {
    c: otherCouponId,
  });
  expect(json.data.orders.items).toEqual([]);
});

it('MCP list_orders takes couponId too', async () => {
  const mcp = await connectMcp(server, shop.key);
  try {
    const listed = resultOf<{ items: Array<{ number: number }> }>(
      await callTool(mcp.client, 'list_orders', { couponId }),
      'orders',
    );
    expect(listed.items.map((o) => o.number).sort()).toEqual(numbers.sort());
  } finally {
    await mcp.close();
  }
});
