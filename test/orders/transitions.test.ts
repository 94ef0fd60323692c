import { makeKey } from '../helpers/factories';
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

const eventIdsOf = async (orderId: string) =>
  (await eventsFor(server, shop.id))
    .filter((e) => (e.data as { object: { id: string } }).object.id === orderId)
    .map((e) => e.type);

type Status = 'pending' | 'paid' | 'fulfilled' | 'cancelled';

/** A placed order moved to `status` through the API. */
async function orderIn(status: Status, quantity = 1) {
  const product = await makeProduct(server, shop.id, { stock: 10 });
  const order = await api.place({ email: 'x@example.test', items: [{ productId: product.id, quantity }] });
  const path = (action: string) => `/order/vendor/${action}/${order.id}`;
  if (status === 'paid' || status === 'fulfilled')
    expect((await api.send('POST', path('pay'))).status).toBe(200);
  if (status === 'fulfilled') expect((await api.send('POST', path('fulfill'))).status).toBe(200);
  if (status === 'cancelled') expect((await api.send('POST', path('cancel'))).status).toBe(200);
  return { order, product };
}

const actions = {
  pay: { to: 'paid', stamp: 'paidAt', event: 'order.paid', refusal: 'ORDER_NOT_PAYABLE' },
  fulfill: {
    to: 'fulfilled',
    stamp: 'fulfilledAt',
    event: 'order.fulfilled',
    refusal: 'ORDER_NOT_FULFILLABLE',
  },
  cancel: {
    to: 'cancelled',
    stamp: 'cancelledAt',
    event: 'order.cancelled',
    refusal: 'ORDER_NOT_CANCELLABLE',
  },
} as const;

const allowed: Record<Status, Array<keyof typeof actions>> = {
  pending: ['pay', 'cancel'],
  paid: ['fulfill', 'cancel'],
  fulfilled: [],
  cancelled: [],
};

const cases = (Object.keys(allowed) as Status[]).flatMap((from) =>
  (Object.keys(actions) as Array<keyof typeof actions>).map((action) => ({
    from,
    action,
    ok: allowed[from].includes(action),
  })),
);

describe('the order state machine over REST', () => {
  it.each(cases.filter((c) => c.ok))(
    '$action moves a $from order, stamps it and emits its event',
    async ({ from, action }) => {
      const { order } = await orderIn(from);
      const before = await eventIdsOf(order.id);
      server.clock.now = new Date(server.clock.now.getTime() + 60_000);
      const res = await api.send('POST', `/order/vendor/${action}/${order.id}`);
      expect(res.status).toBe(200);
      const { data } = await res.json();
      const { to, stamp, event } = actions[action];
      expect(data).toEqual(
        expect.objectContaining({
          id: order.id,
          status: to,
          [stamp]: server.clock.now.toISOString(),
          updatedAt: server.clock.now.toISOString(),
        }),
      );
      expect(await eventIdsOf(order.id)).toEqual([...before, event]);
      const [last] = (await eventsFor(server, shop.id, event)).slice(-1);
      expect(last?.data).toEqual({ object: data });
    },
  );

  it.each(cases.filter((c) => !c.ok))(
    '$action refuses a $from order with 409 and changes nothing',
    async ({ from, action }) => {
      const { order, product } = await orderIn(from);
      const stored = await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } });
      const before = { events: await eventIdsOf(order.id), stock: await stockOf(server, product.id) };
      const res = await api.send('POST', `/order/vendor/${action}/${order.id}`);
      expect(res.status).toBe(409);
      const json = await res.json();
      expect(json).toEqual(
        expect.objectContaining({ success: false, status: 409, code: actions[action].refusal }),
      );
      expect(json.message).toContain(from);
      expect(await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(stored);
      expect({ events: await eventIdsOf(order.id), stock: await stockOf(server, product.id) }).toEqual(
        before,
      );
    },
  );

  it('cancelling returns the stock and the coupon redemption, and keeps the reason', async () => {
    const product = await makeProduct(server, shop.id, { stock: 10 });
    const coupon = await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'CANCELME', type: 'percent', value: 10, maxRedemptions: 1 },
    });
    const order = await api.place({
      email: 'x@example.test',
      couponCode: 'CANCELME',
      items: [{ productId: product.id, quantity: 4 }],
    });
    expect(await stockOf(server, product.id)).toBe(6);
    const res = await api.send('POST', `/order/vendor/cancel/${order.id}`, { reason: '  Changed my mind ' });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(
      expect.objectContaining({
        status: 'cancelled',
        cancelReason: 'Changed my mind',
        couponCode: 'CANCELME',
      }),
    );
    expect(await stockOf(server, product.id)).toBe(10);
    expect((await server.prisma.coupon.findUniqueOrThrow({ where: { id: coupon.id } })).redemptionCount).toBe(
      0,
    );
    // The released redemption can be used again.
    await api.place({
      email: 'y@example.test',
      couponCode: 'CANCELME',
      items: [{ productId: product.id, quantity: 1 }],
    });
  });

  it('cancels a paid order whose product was archived or deleted: stock returns where the product still exists', async () => {
    const kept = await makeProduct(server, shop.id, { stock: 5 });
    const gone = await makeProduct(server, shop.id, { stock: 5 });
    const order = await api.place({
      email: 'x@example.test',
      items: [
        { productId: kept.id, quantity: 2 },
        { productId: gone.id, quantity: 2 },
      ],
    });
    await api.send('POST', `/order/vendor/pay/${order.id}`);
    await server.prisma.product.update({ where: { id: kept.id }, data: { status: 'archived' } });
    await server.prisma.product.delete({ where: { id: gone.id } });
    const res = await api.send('POST', `/order/vendor/cancel/${order.id}`);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual(
      expect.objectContaining({ status: 'cancelled', cancelReason: null, paidAt: expect.any(String) }),
    );
    expect(await stockOf(server, kept.id)).toBe(5);
  });

  it('refuses a bad cancel body and writes nothing', async () => {
    const { order } = await orderIn('pending');
    for (const [body, path] of [
      [{ reason: 'x'.repeat(501) }, 'input.reason'],
      [{ why: 'no' }, 'input.why'],
      [{ reason: 5 }, 'input.reason'],
    ] as const) {
      const res = await api.send('POST', `/order/vendor/cancel/${order.id}`, body);
      expect(res.status).toBe(400);
      expect((await res.json()).details.map((d: { path: string }) => d.path)).toEqual([path]);
    }
    expect((await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).status).toBe('pending');
  });

  it('treats another store’s order as missing, and needs ORDERS UPDATE', async () => {
    const other = await makeShop(server);
    const otherApi = client(server, other.key);
    const product = await makeProduct(server, other.id);
    const foreign = await otherApi.place({
      email: 'x@example.test',
      items: [{ productId: product.id, quantity: 1 }],
    });
    for (const action of ['pay', 'fulfill', 'cancel']) {
      const res = await api.send('POST', `/order/vendor/${action}/${foreign.id}`);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
    expect((await api.send('POST', '/order/vendor/pay/ord_missing')).status).toBe(404);
    expect((await server.prisma.order.findUniqueOrThrow({ where: { id: foreign.id } })).status).toBe(
      'pending',
    );

    const { order } = await orderIn('pending');
    const writeOnly = (
      await makeKey(server.prisma, shop.id, { scopes: [{ resource: 'ORDERS', actions: ['READ', 'WRITE'] }] })
    ).secret;
    const denied = await api.send('POST', `/order/vendor/pay/${order.id}`, undefined, writeOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');
  });
});

describe('the order state machine over GraphQL', () => {
  it('pays, fulfils and refuses a cancel of a fulfilled order with its code', async () => {
    const { order } = await orderIn('pending');
    const paid = await api.gql('mutation($id: ID!) { payOrder(id: $id) { status paidAt } }', {
      id: order.id,
    });
    expect(paid.data.payOrder).toEqual({ status: 'paid', paidAt: expect.any(String) });
    const fulfilled = await api.gql(
      'mutation($id: ID!) { fulfillOrder(id: $id) { status items { quantity } } }',
      {
        id: order.id,
      },
    );
    expect(fulfilled.data.fulfillOrder).toEqual({ status: 'fulfilled', items: [{ quantity: 1 }] });
    const refused = await api.gql('mutation($id: ID!) { cancelOrder(id: $id, reason: "late") { id } }', {
      id: order.id,
    });
    expect(refused.errors[0].extensions).toEqual(expect.objectContaining({ code: 'ORDER_NOT_CANCELLABLE' }));
  });

  it('cancels with the reason as an argument, but not given twice', async () => {
    const { order } = await orderIn('paid');
    const twice = await api.gql(
      'mutation($id: ID!) { cancelOrder(id: $id, reason: "a", input: { reason: "b" }) { id } }',
      { id: order.id },
    );
    expect(twice.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const cancelled = await api.gql(
      'mutation($id: ID!) { cancelOrder(id: $id, reason: "Out of stock") { status cancelReason } }',
      {
        id: order.id,
      },
    );
    expect(cancelled.data.cancelOrder).toEqual({ status: 'cancelled', cancelReason: 'Out of stock' });
  });
});
