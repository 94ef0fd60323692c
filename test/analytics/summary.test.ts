import type { OrderStatus } from '../../prisma/generated/client/enums';
import { makeKey, makeStore, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let storeId: string;
let number = 1000;

beforeAll(async () => {
  server = await startTestServer();
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
  const day = (d: number) => new Date(Date.UTC(2026, 9, d, 12));
  const boots = await server.prisma.product.create({
    data: { storeId, name: 'Boots', slug: 'boots', priceAmount: 10_000, currency: 'USD' },
  });
  const socks = await server.prisma.product.create({
    data: { storeId, name: 'Socks', slug: 'socks', priceAmount: 1_000, currency: 'USD' },
  });
  const order = async (
    status: OrderStatus,
    createdAt: Date,
    lines: Array<[typeof boots, number]>,
    store = storeId,
  ) => {
    const subtotal = lines.reduce((sum, [p, q]) => sum + p.priceAmount * q, 0);
    await server.prisma.order.create({
      data: {
        storeId: store,
        number: number++,
        email: 'buyer@example.test',
        status,
        currency: 'USD',
        subtotalAmount: subtotal,
        totalAmount: subtotal,
        createdAt,
        items: {
          create: lines.map(([p, q]) => ({
            productId: p.id,
            name: p.name,
            unitAmount: p.priceAmount,
            quantity: q,
            totalAmount: p.priceAmount * q,
          })),
        },
      },
    });
  };
  await order('paid', day(2), [
    [boots, 1],
    [socks, 3],
  ]); // 13 000
  await order('fulfilled', day(3), [[socks, 5]]); // 5 000
  await order('pending', day(4), [[boots, 4]]); // not revenue
  await order('cancelled', day(5), [[boots, 9]]); // not revenue
  await order('paid', day(20), [[boots, 2]]); // outside the range below
  const other = await makeStore(server.prisma);
  await order('paid', day(3), [[boots, 50]], other.id); // another store
});
afterAll(() => server.close());

describe('GET /api/v1/analytics/summary', () => {
  it('sums orders, revenue, average order value and top products over the range, for this store only', async () => {
    const res = await server.request(
      '/api/v1/analytics/summary?from=2026-10-01T00:00:00Z&to=2026-10-10T00:00:00Z',
      { key },
    );
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({
      from: '2026-10-01T00:00:00.000Z',
      to: '2026-10-10T00:00:00.000Z',
      currency: 'USD',
      ordersCount: 4,
      newCustomersCount: 0,
      paidOrdersCount: 2,
      revenueAmount: 18_000,
      averageOrderValueAmount: 9_000,
      byStatus: { pending: 1, paid: 1, fulfilled: 1, cancelled: 1 },
      topProducts: [
        { productId: expect.any(String), name: 'Socks', quantity: 8, revenueAmount: 8_000 },
        { productId: expect.any(String), name: 'Boots', quantity: 1, revenueAmount: 10_000 },
      ],
      // Every day of the range, in the store's time zone (UTC here); revenue only of paid and fulfilled.
      daily: [
        ['2026-10-01', 0, 0],
        ['2026-10-02', 1, 13_000],
        ['2026-10-03', 1, 5_000],
        ['2026-10-04', 1, 0],
        ['2026-10-05', 1, 0],
        ['2026-10-06', 0, 0],
        ['2026-10-07', 0, 0],
        ['2026-10-08', 0, 0],
        ['2026-10-09', 0, 0],
      ].map(([date, ordersCount, revenueAmount]) => ({ date, ordersCount, revenueAmount })),
    });
  });

  it("counts days in the store's time zone", async () => {
    await server.prisma.store.update({ where: { id: storeId }, data: { timezone: 'Pacific/Kiritimati' } });
    try {
      const res = await server.request(
        '/api/v1/analytics/summary?from=2026-10-02T00:00:00Z&to=2026-10-03T00:00:00Z',
        { key },
      );
      // UTC+14: the order of 2 October, 12:00 UTC, was placed on 3 October there.
      expect((await res.json()).data.daily).toEqual([
        { date: '2026-10-02', ordersCount: 0, revenueAmount: 0 },
        { date: '2026-10-03', ordersCount: 1, revenueAmount: 13_000 },
      ]);
    } finally {
      await server.prisma.store.update({ where: { id: storeId }, data: { timezone: 'UTC' } });
    }
  });

  it('answers an empty range with zeros', async () => {
    const res = await server.request(
      '/api/v1/analytics/summary?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z',
      { key },
    );
    const { data } = await res.json();
    expect(data).toEqual(
      expect.objectContaining({
        ordersCount: 0,
        revenueAmount: 0,
        averageOrderValueAmount: 0,
        topProducts: [],
      }),
    );
  });

  it.each([
    ['from=2026-10-10T00:00:00Z&to=2026-10-01T00:00:00Z', 'from'],
    ['from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['from=yesterday', 'from'],
  ])('refuses %s with 400 naming %s', async (query, path) => {
    const res = await server.request(`/api/v1/analytics/summary?${query}`, { key });
    expect(res.status).toBe(400);
    expect((await res.json()).details[0].path).toBe(path);
  });

  it('needs ANALYTICS READ, and works the same through GraphQL', async () => {
    const ordersOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'ORDERS', actions: ['READ'] }] })
    ).secret;
    expect((await server.request('/api/v1/analytics/summary', { key: ordersOnly })).status).toBe(403);
    const res = await server.graphql(
      '{ analyticsSummary(from: "2026-10-01T00:00:00Z", to: "2026-10-10T00:00:00Z") { revenueAmount topProducts { name } } }',
      {},
      key,
    );
    expect((await res.json()).data.analyticsSummary).toEqual({
      revenueAmount: 18_000,
      topProducts: [{ name: 'Socks' }, { name: 'Boots' }],
    });
  });
});
