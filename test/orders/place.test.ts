import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  client,
  detailPaths,
  eventsFor,
  makeCustomer,
  makeProduct,
  makeShop,
  type Shop,
  startOrdersServer,
  stockOf,
} from './setup';

let server: TestServer;
let shop: Shop;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startOrdersServer();
  shop = await makeShop(server);
  api = client(server, shop.key);
});
afterAll(() => server.close());

/** What must not change when a placement fails: orders, events, stock, coupon redemptions. */
async function snapshot(productIds: string[]) {
  return {
    orders: await server.prisma.order.count({ where: { storeId: shop.id } }),
    events: await server.prisma.event.count({ where: { storeId: shop.id } }),
    stock: await Promise.all(productIds.map((id) => stockOf(server, id))),
    redemptions: (
      await server.prisma.coupon.findMany({ where: { storeId: shop.id }, orderBy: { id: 'asc' } })
    ).map((c) => c.redemptionCount),
    nextNumber: (await server.prisma.store.findUniqueOrThrow({ where: { id: shop.id } })).nextOrderNumber,
  };
}

describe('placing an order', () => {
  it('reserves stock, snapshots the lines, numbers the order and emits order.placed with the REST item', async () => {
    const shoe = await makeProduct(server, shop.id, {
      name: 'Shoe',
      sku: 'SHOE-1',
      priceAmount: 2599,
      stock: 5,
    });
    const sock = await makeProduct(server, shop.id, { name: 'Sock', sku: null, priceAmount: 350, stock: 10 });
    const res = await api.send('POST', '/order', {
      email: ' Buyer@Example.TEST ',
      items: [
        { productId: sock.id, quantity: 3 },
        { productId: shoe.id, quantity: 2 },
      ],
      note: 'Leave at the door',
    });
    expect(res.status).toBe(201);
    const { success, data } = await res.json();
    expect(success).toBe(true);
    expect(data).toEqual({
      id: expect.stringMatching(/^ord_/),
      number: 1001,
      status: 'pending',
      email: 'buyer@example.test',
      customerId: null,
      customer: null,
      currency: 'USD',
      subtotalAmount: 2 * 2599 + 3 * 350,
      discountAmount: 0,
      totalAmount: 2 * 2599 + 3 * 350,
      couponId: null,
      couponCode: null,
      note: 'Leave at the door',
      items: [
        {
          id: expect.stringMatching(/^itm_/),
          productId: shoe.id,
          name: 'Shoe',
          sku: 'SHOE-1',
          unitAmount: 2599,
          quantity: 2,
          totalAmount: 5198,
        },
        {
          id: expect.stringMatching(/^itm_/),
          productId: sock.id,
          name: 'Sock',
          sku: null,
          unitAmount: 350,
          quantity: 3,
          totalAmount: 1050,
        },
      ],
      paidAt: null,
      fulfilledAt: null,
      cancelledAt: null,
      cancelReason: null,
      createdAt: server.clock.now.toISOString(),
      updatedAt: server.clock.now.toISOString(),
    });
    expect(await stockOf(server, shoe.id)).toBe(3);
    expect(await stockOf(server, sock.id)).toBe(7);
    const events = await eventsFor(server, shop.id, 'order.placed');
    expect(events.map((e) => e.data)).toEqual([{ object: data }]);
    const got = await api.send('GET', `/order/details/${data.id}`);
    expect((await got.json()).data).toEqual(data);

    // The line keeps its snapshot when the product changes or goes away.
    await server.prisma.product.update({ where: { id: shoe.id }, data: { name: 'Boot', priceAmount: 9999 } });
    await server.prisma.product.delete({ where: { id: sock.id } });
    const later = (await (await api.send('GET', `/order/details/${data.id}`)).json()).data;
    expect(later.items.map((i: { name: string; unitAmount: number; productId: string | null }) => i)).toEqual(
      [
        expect.objectContaining({ name: 'Shoe', unitAmount: 2599, productId: shoe.id }),
        expect.objectContaining({ name: 'Sock', unitAmount: 350, productId: null }),
      ],
    );

    const second = await api.place({ email: 'b@example.test', items: [{ productId: shoe.id, quantity: 1 }] });
    expect(second.number).toBe(1002);
  });

  it('takes the e-mail from the customer, or the one given, and shows the customer', async () => {
    const product = await makeProduct(server, shop.id);
    const customer = await makeCustomer(server, shop.id, 'ada@example.test');
    const own = await api.place({ customerId: customer.id, items: [{ productId: product.id, quantity: 1 }] });
    expect(own).toEqual(
      expect.objectContaining({
        email: 'ada@example.test',
        customerId: customer.id,
        customer: { id: customer.id, email: 'ada@example.test', firstName: 'Ada', lastName: 'Lovelace' },
      }),
    );
    const other = await api.place({
      customerId: customer.id,
      email: 'gift@example.test',
      items: [{ productId: product.id, quantity: 1 }],
    });
    expect(other.email).toBe('gift@example.test');
  });

  it('applies a percent coupon (half up) and a fixed one (never beyond the subtotal), counting redemptions', async () => {
    const product = await makeProduct(server, shop.id, { priceAmount: 1005, stock: 100 });
    const percent = await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'TENPCT', type: 'percent', value: 10 },
    });
    const fixed = await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'BIGFIX', type: 'fixed', value: 5000 },
    });
    // 1005 × 1 at 10% = 100.5 → 101.
    const a = await api.place({
      email: 'a@example.test',
      couponCode: 'tenpct',
      items: [{ productId: product.id, quantity: 1 }],
    });
    expect(a).toEqual(
      expect.objectContaining({
        subtotalAmount: 1005,
        discountAmount: 101,
        totalAmount: 904,
        couponId: percent.id,
        couponCode: 'TENPCT',
      }),
    );
    // 1005 × 3 at 10% = 301.5 → 302; 1005 × 4 = 4020 at 10% = 402.
    const b = await api.place({
      email: 'a@example.test',
      couponCode: 'TENPCT',
      items: [{ productId: product.id, quantity: 3 }],
    });
    expect(b.discountAmount).toBe(302);
    const c = await api.place({
      email: 'a@example.test',
      couponCode: 'BIGFIX',
      items: [{ productId: product.id, quantity: 2 }],
    });
    expect(c).toEqual(
      expect.objectContaining({ subtotalAmount: 2010, discountAmount: 2010, totalAmount: 0 }),
    );
    expect(
      (await server.prisma.coupon.findUniqueOrThrow({ where: { id: percent.id } })).redemptionCount,
    ).toBe(2);
    expect((await server.prisma.coupon.findUniqueOrThrow({ where: { id: fixed.id } })).redemptionCount).toBe(
      1,
    );
  });

  it('refuses invalid input with field paths, and unknown fields by name, writing nothing', async () => {
    const product = await makeProduct(server, shop.id);
    const ok = { email: 'x@example.test', items: [{ productId: product.id, quantity: 1 }] };
    const before = await snapshot([product.id]);
    for (const [body, path] of [
      [{ items: ok.items }, 'input.email'],
      [{ ...ok, email: 'not-an-email' }, 'input.email'],
      [{ ...ok, items: [] }, 'input.items'],
      [
        { ...ok, items: Array.from({ length: 101 }, () => ({ productId: product.id, quantity: 1 })) },
        'input.items',
      ],
      [{ ...ok, items: [{ productId: product.id, quantity: 0 }] }, 'input.items.0.quantity'],
      [{ ...ok, items: [{ productId: product.id, quantity: 1001 }] }, 'input.items.0.quantity'],
      [{ ...ok, items: [{ productId: product.id, quantity: 1.5 }] }, 'input.items.0.quantity'],
      [{ ...ok, items: [{ quantity: 1 }] }, 'input.items.0.productId'],
      [
        {
          ...ok,
          items: [
            { productId: product.id, quantity: 1 },
            { productId: product.id, quantity: 2 },
          ],
        },
        'input.items.1.productId',
      ],
      [{ ...ok, items: [{ productId: 'prd_nope', quantity: 1 }] }, 'input.items.0.productId'],
      [{ ...ok, note: 'x'.repeat(1001) }, 'input.note'],
      [{ ...ok, customerId: 'cus_nope' }, 'input.customerId'],
      [{ ...ok, couponCode: 'NOSUCHCODE' }, 'input.couponCode'],
      [{ ...ok, status: 'paid' }, 'input.status'],
      [{ ...ok, totalAmount: 1 }, 'input.totalAmount'],
      [{ ...ok, items: [{ productId: product.id, quantity: 1, unitAmount: 1 }] }, 'input.items.0.unitAmount'],
    ] as const) {
      const res = await api.send('POST', '/order', body);
      const json = await res.json();
      expect({ status: res.status, code: json.code, paths: detailPaths(json) }).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        paths: expect.arrayContaining([path]),
      });
    }
    expect(await snapshot([product.id])).toEqual(before);
  });

  it('refuses inactive products, other stores’ products and customers, and foreign currencies', async () => {
    const active = await makeProduct(server, shop.id);
    const draft = await makeProduct(server, shop.id, { status: 'draft' });
    const archived = await makeProduct(server, shop.id, { status: 'archived' });
    const euro = await makeProduct(server, shop.id, { currency: 'EUR' });
    const other = await makeShop(server);
    const foreign = await makeProduct(server, other.id);
    const foreignCustomer = await makeCustomer(server, other.id);
    const before = await snapshot([active.id, draft.id, archived.id, euro.id]);
    const res = await api.send('POST', '/order', {
      email: 'x@example.test',
      items: [
        { productId: active.id, quantity: 1 },
        { productId: draft.id, quantity: 1 },
        { productId: archived.id, quantity: 1 },
        { productId: foreign.id, quantity: 1 },
        { productId: euro.id, quantity: 1 },
      ],
    });
    expect(res.status).toBe(400);
    expect(detailPaths(await res.json())).toEqual([
      'input.items.1.productId',
      'input.items.2.productId',
      'input.items.3.productId',
      'input.items.4.productId',
    ]);
    const customer = await api.send('POST', '/order', {
      customerId: foreignCustomer.id,
      items: [{ productId: active.id, quantity: 1 }],
    });
    expect(detailPaths(await customer.json())).toEqual(['input.customerId']);
    expect(await snapshot([active.id, draft.id, archived.id, euro.id])).toEqual(before);
    expect(await stockOf(server, foreign.id)).toBe(100);
  });

  it('answers insufficient stock with 409 naming the line, and writes nothing at all', async () => {
    const plenty = await makeProduct(server, shop.id, { stock: 50 });
    const scarce = await makeProduct(server, shop.id, { stock: 2 });
    const coupon = await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'ROLLBACK', type: 'percent', value: 5 },
    });
    const before = await snapshot([plenty.id, scarce.id]);
    // Lines are reserved in productId order, so the plenty line may already be reserved when the
    // scarce one fails: the rollback must undo it.
    const res = await api.send('POST', '/order', {
      email: 'x@example.test',
      couponCode: 'ROLLBACK',
      items: [
        { productId: plenty.id, quantity: 10 },
        { productId: scarce.id, quantity: 3 },
      ],
    });
    expect(res.status).toBe(409);
    const json = await res.json();
    expect(json).toEqual(
      expect.objectContaining({
        code: 'INSUFFICIENT_STOCK',
        details: [{ path: 'input.items.1.quantity', message: 'only 2 in stock, 3 ordered' }],
      }),
    );
    expect(await snapshot([plenty.id, scarce.id])).toEqual(before);
    expect((await server.prisma.coupon.findUniqueOrThrow({ where: { id: coupon.id } })).redemptionCount).toBe(
      0,
    );
    expect(await eventsFor(server, shop.id, 'order.placed')).toHaveLength(before.orders);
  });

  it('refuses coupons that are inactive, outside their window, under their minimum or used up', async () => {
    const product = await makeProduct(server, shop.id, { priceAmount: 1000 });
    const now = server.clock.now.getTime();
    const rows = [
      { code: 'OFF-INACTIVE', isActive: false },
      { code: 'OFF-LATER', startsAt: new Date(now + 60_000) },
      { code: 'OFF-ENDED', endsAt: new Date(now) },
      { code: 'OFF-MIN', minSubtotalAmount: 1001 },
    ];
    for (const row of rows) {
      await server.prisma.coupon.create({ data: { storeId: shop.id, type: 'fixed', value: 100, ...row } });
    }
    const usedUp = await server.prisma.coupon.create({
      data: {
        storeId: shop.id,
        code: 'OFF-USED',
        type: 'fixed',
        value: 100,
        maxRedemptions: 2,
        redemptionCount: 2,
      },
    });
    const before = await snapshot([product.id]);
    for (const { code } of rows) {
      const res = await api.send('POST', '/order', {
        email: 'x@example.test',
        couponCode: code,
        items: [{ productId: product.id, quantity: 1 }],
      });
      expect(res.status).toBe(400);
      expect(detailPaths(await res.json())).toEqual(['input.couponCode']);
    }
    const used = await api.send('POST', '/order', {
      email: 'x@example.test',
      couponCode: 'off-used',
      items: [{ productId: product.id, quantity: 1 }],
    });
    expect(used.status).toBe(409);
    expect((await used.json()).code).toBe('COUPON_REDEMPTION_LIMIT_REACHED');
    expect(await snapshot([product.id])).toEqual(before);
    expect((await server.prisma.coupon.findUniqueOrThrow({ where: { id: usedUp.id } })).redemptionCount).toBe(
      2,
    );

    // At its start time the window is open; at its end it is closed ([startsAt, endsAt)).
    await server.prisma.coupon.create({
      data: { storeId: shop.id, code: 'OFF-NOW', type: 'fixed', value: 100, startsAt: new Date(now) },
    });
    const open = await api.place({
      email: 'x@example.test',
      couponCode: 'OFF-NOW',
      items: [{ productId: product.id, quantity: 1 }],
    });
    expect(open.discountAmount).toBe(100);
  });

  it('needs ORDERS WRITE to place, and answers through GraphQL the same way', async () => {
    const product = await makeProduct(server, shop.id);
    const readOnly = (
      await makeKey(server.prisma, shop.id, { scopes: [{ resource: 'ORDERS', actions: ['READ'] }] })
    ).secret;
    const body = { email: 'x@example.test', items: [{ productId: product.id, quantity: 1 }] };
    const denied = await api.send('POST', '/order', body, readOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');

    const placed = await api.gql(
      `mutation($input: PlaceOrderInput!) {
        placeOrder(input: $input, idempotencyKey: "place-1") { number status totalAmount items { productId quantity } }
      }`,
      { input: body },
    );
    expect(placed.data.placeOrder).toEqual(
      expect.objectContaining({ status: 'pending', items: [{ productId: product.id, quantity: 1 }] }),
    );
    const invalid = await api.gql('mutation($input: PlaceOrderInput!) { placeOrder(input: $input) { id } }', {
      input: { ...body, items: [{ productId: product.id, quantity: 0 }] },
    });
    expect(invalid.errors[0].extensions).toEqual(
      expect.objectContaining({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ path: 'input.items.0.quantity' })],
      }),
    );
  });

  it('replays a repeated Idempotency-Key instead of placing twice', async () => {
    const product = await makeProduct(server, shop.id, { stock: 10 });
    const body = JSON.stringify({ email: 'x@example.test', items: [{ productId: product.id, quantity: 1 }] });
    const post = () =>
      server.request('/api/v1/order', {
        method: 'POST',
        key: shop.key,
        headers: { 'content-type': 'application/json', 'idempotency-key': `order-${product.id}` },
        body,
      });
    const first = await post();
    const again = await post();
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).data.id).toBe((await first.json()).data.id);
    expect(await stockOf(server, product.id)).toBe(9);
  });
});
