import type { TestServer } from '../helpers/server';
import { client, eventsFor, makeProduct, makeShop, type Shop, startOrdersServer, stockOf } from './setup';

let server: TestServer;
let shop: Shop;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startOrdersServer();
  shop = await makeShop(server);
  api = client(server, shop.key);
});
afterAll(() => server.close());

const placeNow = (body: unknown) => api.send('POST', '/order', body);

describe('concurrent orders', () => {
  it('50 concurrent orders against a stock of 10: exactly 10 succeed and stock ends at 0', async () => {
    const product = await makeProduct(server, shop.id, { stock: 10, priceAmount: 500 });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        placeNow({ email: `buyer${i}@example.test`, items: [{ productId: product.id, quantity: 1 }] }),
      ),
    );
    const bodies = await Promise.all(responses.map((res) => res.json()));
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    for (const body of bodies.filter((b) => !b.success)) {
      expect(body).toEqual(
        expect.objectContaining({
          code: 'INSUFFICIENT_STOCK',
          details: [expect.objectContaining({ path: 'input.items.0.quantity' })],
        }),
      );
    }
    expect(await stockOf(server, product.id)).toBe(0);
    const orders = await server.prisma.order.findMany({
      where: { storeId: shop.id },
      orderBy: { number: 'asc' },
    });
    expect(orders).toHaveLength(10);
    // Numbers come from one counter: no gaps, no repeats, even though 40 placements rolled back.
    expect(orders.map((o) => o.number)).toEqual(Array.from({ length: 10 }, (_, i) => 1001 + i));
    const placed = await eventsFor(server, shop.id, 'order.placed');
    expect(placed.map((e) => (e.data as { object: { id: string } }).object.id).sort()).toEqual(
      orders.map((o) => o.id).sort(),
    );
  });

  it('orders over several products in opposite line order neither deadlock nor oversell', async () => {
    const a = await makeProduct(server, shop.id, { stock: 6 });
    const b = await makeProduct(server, shop.id, { stock: 6 });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        placeNow({
          email: `multi${i}@example.test`,
          items:
            i % 2 === 0
              ? [
                  { productId: a.id, quantity: 1 },
                  { productId: b.id, quantity: 2 },
                ]
              : [
                  { productId: b.id, quantity: 2 },
                  { productId: a.id, quantity: 1 },
                ],
        }),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(17);
    expect([await stockOf(server, a.id), await stockOf(server, b.id)]).toEqual([3, 0]);
  });

  it('a coupon with maxRedemptions 3 under 10 concurrent orders is used exactly 3 times', async () => {
    const product = await makeProduct(server, shop.id, { stock: 100, priceAmount: 1000 });
    const coupon = await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'ONLY3', type: 'fixed', value: 100, maxRedemptions: 3 },
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        placeNow({
          email: `coupon${i}@example.test`,
          couponCode: 'ONLY3',
          items: [{ productId: product.id, quantity: 1 }],
        }),
      ),
    );
    const bodies = await Promise.all(responses.map((res) => res.json()));
    expect(responses.filter((res) => res.status === 201)).toHaveLength(3);
    expect(bodies.filter((b) => b.code === 'COUPON_REDEMPTION_LIMIT_REACHED')).toHaveLength(7);
    expect((await server.prisma.coupon.findUniqueOrThrow({ where: { id: coupon.id } })).redemptionCount).toBe(
      3,
    );
    expect(await server.prisma.order.count({ where: { couponId: coupon.id } })).toBe(3);
    // Only the three placed orders took stock.
    expect(await stockOf(server, product.id)).toBe(97);
  });

  it('concurrent cancels of one order: one wins, stock and coupon are released once, one event', async () => {
    const product = await makeProduct(server, shop.id, { stock: 10 });
    await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'ONCE', type: 'percent', value: 10, maxRedemptions: 5 },
    });
    const order = await api.place({
      email: 'x@example.test',
      couponCode: 'ONCE',
      items: [{ productId: product.id, quantity: 4 }],
    });
    expect(await stockOf(server, product.id)).toBe(6);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.send('POST', `/order/vendor/cancel/${order.id}`)),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((res) => res.status === 409)) {
      expect(await refused.json()).toEqual(
        expect.objectContaining({
          code: 'ORDER_NOT_CANCELLABLE',
          details: [{ path: 'status', message: 'cancelled' }],
        }),
      );
    }
    expect(await stockOf(server, product.id)).toBe(10);
    expect(
      (await server.prisma.coupon.findFirstOrThrow({ where: { storeId: shop.id, code: 'ONCE' } }))
        .redemptionCount,
    ).toBe(0);
    const cancelled = (await eventsFor(server, shop.id, 'order.cancelled')).filter(
      (e) => (e.data as { object: { id: string } }).object.id === order.id,
    );
    expect(cancelled).toHaveLength(1);
  });

  it('8 concurrent pays of one order: one wins, the others are 409 ORDER_NOT_PAYABLE naming status paid', async () => {
    const product = await makeProduct(server, shop.id, { stock: 10 });
    const order = await api.place({
      email: 'payer@example.test',
      items: [{ productId: product.id, quantity: 1 }],
    });
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.send('POST', `/order/vendor/pay/${order.id}`)),
    );
    expect(responses.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of responses.filter((res) => res.status === 409)) {
      expect(await refused.json()).toEqual(
        expect.objectContaining({
          code: 'ORDER_NOT_PAYABLE',
          details: [{ path: 'status', message: 'paid' }],
        }),
      );
    }
    const paid = (await eventsFor(server, shop.id, 'order.paid')).filter(
      (e) => (e.data as { object: { id: string } }).object.id === order.id,
    );
    expect(paid).toHaveLength(1);
  });

  it('a pay racing a cancel ends consistently, whichever runs first', async () => {
    const product = await makeProduct(server, shop.id, { stock: 10 });
    const order = await api.place({
      email: 'x@example.test',
      items: [{ productId: product.id, quantity: 1 }],
    });
    const [pay, cancel] = await Promise.all([
      api.send('POST', `/order/vendor/pay/${order.id}`),
      api.send('POST', `/order/vendor/cancel/${order.id}`),
    ]);
    // Either order of the two is valid: pay then cancel (both succeed), or cancel first (pay refused).
    const stored = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored.status).toBe('cancelled');
    expect(cancel.status).toBe(200);
    expect([200, 409]).toContain(pay.status);
    expect(stored.paidAt !== null).toBe(pay.status === 200);
    expect(await stockOf(server, product.id)).toBe(10);
  });
});
