import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildDemoData, DEMO_OWNER_EMAIL, DEMO_PASSWORD, seedDemoStore } from '../../prisma/seed/demo-store';
import { verifyPassword } from '../../src/auth/password';
import { connectDatabase, type Database } from '../../src/db/client';
import { createStore } from '../../src/modules/stores/provision';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { verifyKey } from '../helpers/factories';
import { root } from '../helpers/process';

jest.setTimeout(60_000);

const DAY = 86_400_000;
const now = new Date('2026-06-15T12:00:00.000Z');

let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;
let result: Awaited<ReturnType<typeof seedDemoStore>>;
let seedMs: number;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 3 });
  const started = Date.now();
  result = await seedDemoStore(db.prisma, { now });
  seedMs = Date.now() - started;
});

afterAll(async () => {
  await db.close();
  await database.drop();
});

async function tableCounts() {
  const p = db.prisma;
  return {
    stores: await p.store.count(),
    staff: await p.staffUser.count(),
    categories: await p.category.count(),
    products: await p.product.count(),
    customers: await p.customer.count(),
    orders: await p.order.count(),
    items: await p.orderItem.count(),
    coupons: await p.coupon.count(),
    reviews: await p.review.count(),
    keys: await p.apiKey.count(),
    secrets: await p.apiKeySecret.count(),
  };
}

describe('seedDemoStore', () => {
  it('creates the PRO demo store with its owner, an admin and a staff user, in a few seconds', async () => {
    expect(result).toEqual({
      created: true,
      storeId: expect.stringMatching(/^str_/),
      ownerEmail: DEMO_OWNER_EMAIL,
      ownerPassword: 'demo-password',
      apiKey: expect.stringMatching(/^tt_[0-9a-f]{64}$/),
    });
    expect(seedMs).toBeLessThan(15_000); // about 1-2 s here; generous for loaded machines

    const store = await db.prisma.store.findUniqueOrThrow({
      where: { id: result.storeId },
      include: { owner: true, staff: true },
    });
    expect(store).toMatchObject({ name: 'Demo Outfitters', plan: 'PRO', status: 'ACTIVE', currency: 'USD' });
    expect(store.owner?.email).toBe(DEMO_OWNER_EMAIL);
    expect(store.staff.map((s) => s.role).sort()).toEqual(['ADMIN', 'OWNER', 'STAFF']);
    for (const staff of store.staff) {
      expect(staff.passwordHash).toEqual(expect.any(String));
      expect(await verifyPassword(DEMO_PASSWORD, staff.passwordHash as string)).toBe(true);
    }
  });

  it('meets the minimum counts, across categories and statuses', async () => {
    const where = { storeId: result.storeId };
    const counts = await tableCounts();
    expect(counts.categories).toBeGreaterThanOrEqual(8);
    expect(counts.products).toBeGreaterThanOrEqual(50);
    expect(counts.customers).toBeGreaterThanOrEqual(30);
    expect(counts.orders).toBeGreaterThanOrEqual(200);
    expect(counts.reviews).toBeGreaterThanOrEqual(40);

    const products = await db.prisma.product.findMany({ where });
    expect(new Set(products.map((p) => p.status))).toEqual(new Set(['active', 'draft', 'archived']));
    expect(new Set(products.map((p) => p.sku)).size).toBe(products.length);
    expect(new Set(products.map((p) => p.categoryId)).size).toBe(counts.categories);
    for (const product of products) {
      expect(Number.isInteger(product.priceAmount) && product.priceAmount > 0).toBe(true);
      expect(product.currency).toBe('USD');
      expect(product.stock).toBeGreaterThanOrEqual(0);
    }

    const reviews = await db.prisma.review.findMany({ where });
    expect(new Set(reviews.map((r) => r.status))).toEqual(new Set(['pending', 'approved', 'rejected']));
    expect(reviews.every((r) => r.rating >= 1 && r.rating <= 5 && r.createdAt <= now)).toBe(true);

    const coupons = await db.prisma.coupon.findMany({ where });
    expect(new Set(coupons.map((c) => c.type))).toEqual(new Set(['percent', 'fixed']));
  });

  it('writes orders whose amounts, numbers, coupons and timestamps are consistent', async () => {
    const orders = await db.prisma.order.findMany({
      where: { storeId: result.storeId },
      include: { items: true, coupon: true },
      orderBy: { number: 'asc' },
    });
    expect(new Set(orders.map((o) => o.status))).toEqual(
      new Set(['pending', 'paid', 'fulfilled', 'cancelled']),
    );
    expect(orders.map((o) => o.number)).toEqual(orders.map((_, i) => 1001 + i));
    const store = await db.prisma.store.findUniqueOrThrow({ where: { id: result.storeId } });
    expect(store.nextOrderNumber).toBe(1001 + orders.length);

    const oldest = Math.min(...orders.map((o) => o.createdAt.getTime()));
    expect(now.getTime() - oldest).toBeGreaterThan(100 * DAY);
    expect(now.getTime() - oldest).toBeLessThanOrEqual(121 * DAY);
    let discounted = 0;
    for (const order of orders) {
      expect(order.items.length).toBeGreaterThanOrEqual(1);
      expect(order.items.length).toBeLessThanOrEqual(4);
      for (const item of order.items) expect(item.unitAmount * item.quantity).toBe(item.totalAmount);
      expect(order.items.reduce((sum, item) => sum + item.totalAmount, 0)).toBe(order.subtotalAmount);
      expect(order.totalAmount).toBe(order.subtotalAmount - order.discountAmount);
      expect(order.currency).toBe('USD');
      expect(order.createdAt.getTime()).toBeLessThan(now.getTime());
      if (order.coupon) {
        discounted++;
        const { type, value, minSubtotalAmount } = order.coupon;
        expect(order.discountAmount).toBe(
          type === 'percent'
            ? Math.floor((order.subtotalAmount * value) / 100)
            : Math.min(value, order.subtotalAmount),
        );
        expect(order.subtotalAmount).toBeGreaterThanOrEqual(minSubtotalAmount ?? 0);
      } else {
        expect(order.discountAmount).toBe(0);
      }

      const { paidAt, fulfilledAt, cancelledAt } = order;
      for (const at of [paidAt, fulfilledAt, cancelledAt]) {
        if (at) {
          expect(at.getTime()).toBeGreaterThan(order.createdAt.getTime());
          expect(at.getTime()).toBeLessThanOrEqual(now.getTime());
        }
      }
      switch (order.status) {
        case 'pending':
          expect([paidAt, fulfilledAt, cancelledAt]).toEqual([null, null, null]);
          break;
        case 'paid':
          expect(paidAt).not.toBeNull();
          expect([fulfilledAt, cancelledAt]).toEqual([null, null]);
          break;
        case 'fulfilled':
          expect(paidAt).not.toBeNull();
          expect(fulfilledAt?.getTime()).toBeGreaterThan(paidAt?.getTime() ?? Infinity);
          expect(cancelledAt).toBeNull();
          break;
        case 'cancelled':
          expect(cancelledAt).not.toBeNull();
          expect(order.cancelReason).toEqual(expect.any(String));
          expect(fulfilledAt).toBeNull();
          break;
      }
    }
    expect(discounted).toBeGreaterThan(10);

    const coupons = await db.prisma.coupon.findMany({
      where: { storeId: result.storeId },
      include: { _count: { select: { orders: true } } },
    });
    for (const coupon of coupons) {
      expect(coupon.redemptionCount).toBe(coupon._count.orders);
      if (coupon.maxRedemptions !== null)
        expect(coupon.redemptionCount).toBeLessThanOrEqual(coupon.maxRedemptions);
    }
  });

  it('returns a demo key that authenticates, in development, with all 84 scope pairs', async () => {
    const principal = await verifyKey(db.prisma, result.apiKey, '203.0.113.7', new Date());
    expect(principal).toMatchObject({ kind: 'apiKey', storeId: result.storeId, environment: 'development' });
    expect(principal.scopes.size).toBe(84);
    const keys = await db.prisma.apiKey.findMany({ where: { storeId: result.storeId } });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ keyName: 'Demo key (all scopes)', ipAllowlist: [], expiresAt: null });
    expect(keys[0]?.lastFour).toBe(result.apiKey?.slice(-4));
  });

  it('does nothing the second time and says so', async () => {
    const before = await tableCounts();
    const again = await seedDemoStore(db.prisma, { now });
    expect(again).toEqual({ created: false, storeId: result.storeId, ownerEmail: DEMO_OWNER_EMAIL });
    expect(await tableCounts()).toEqual(before);
  });

  it('starts over when an earlier run died before its data committed, unless that run may still be going', async () => {
    const fresh = await createDatabaseFromTemplate();
    const other = connectDatabase(fresh.url, { max: 2 });
    try {
      // What a run killed right after createStore leaves: the store and its owner, nothing else.
      const empty = await createStore(other.prisma, {
        name: 'Demo Outfitters',
        plan: 'PRO',
        ownerEmail: DEMO_OWNER_EMAIL,
      });
      expect(await seedDemoStore(other.prisma, { now })).toEqual({
        created: false,
        storeId: empty.id,
        ownerEmail: DEMO_OWNER_EMAIL,
      });
      await other.prisma.store.update({
        where: { id: empty.id },
        data: { createdAt: new Date(Date.now() - 5 * 60_000) },
      });
      const seeded = await seedDemoStore(other.prisma, { now });
      expect(seeded).toMatchObject({ created: true, apiKey: expect.stringMatching(/^tt_/) });
      expect(seeded.storeId).not.toBe(empty.id);
      expect(await other.prisma.store.count()).toBe(1);
      expect(await other.prisma.order.count()).toBeGreaterThanOrEqual(200);
    } finally {
      await other.close();
      await fresh.drop();
    }
  });

  it('builds the same data set every time (a fixed-seed PRNG)', () => {
    const shape = (data: ReturnType<typeof buildDemoData>) => ({
      products: data.products.map((p) => [p.name, p.sku, p.priceAmount, p.status, p.stock]),
      orders: data.orders.map((o) => [o.number, o.status, o.subtotalAmount, o.totalAmount, o.createdAt]),
      reviews: data.reviews.map((r) => [r.rating, r.status, r.createdAt]),
    });
    expect(shape(buildDemoData('str_a', now))).toEqual(shape(buildDemoData('str_b', now)));
  });
});

describe('npm run db:seed (prisma/seed/index.ts)', () => {
  it('prints the owner login and the key once, then reports that the demo store exists', async () => {
    const fresh = await createDatabaseFromTemplate();
    try {
      const run = () =>
        promisify(execFile)(process.execPath, ['--import', 'tsx', 'prisma/seed/index.ts'], {
          cwd: root,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: fresh.url },
        });
      const first = await run();
      expect(first.stdout).toContain('Owner login:  owner@demo.store / demo-password');
      const key = first.stdout.match(/tt_[0-9a-f]{64}/)?.[0];
      expect(key).toBeDefined();
      const second = await run();
      expect(second.stdout).toMatch(/demo store already exists/);
      expect(second.stdout).not.toMatch(/tt_/);
    } finally {
      await fresh.drop();
    }
  });

  it('refuses with NODE_ENV=production in one line, seeding nothing (demo staff have a published password)', async () => {
    const fresh = await createDatabaseFromTemplate();
    try {
      const refused = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'prisma/seed/index.ts'],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '/tmp',
            NODE_ENV: 'production',
            DATABASE_URL: fresh.url,
            WEBHOOK_SECRET_KEY: 'a'.repeat(64),
          },
        },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
      );
      expect(refused).toEqual({
        code: 1,
        stderr:
          'Error: db:seed creates the demo store, whose staff sign in with the published password `demo-password`: not with NODE_ENV=production\n',
      });
      const other = connectDatabase(fresh.url, { max: 1 });
      try {
        expect(await other.prisma.staffUser.count()).toBe(0);
      } finally {
        await other.close();
      }
    } finally {
      await fresh.drop();
    }
  });
});
