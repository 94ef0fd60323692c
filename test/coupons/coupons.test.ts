import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { detailPaths } from '../helpers/responses';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let storeId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const send = (method: string, path: string, body?: unknown, as = key) => server.send(method, path, body, as);

const gql = async (query: string, variables: Record<string, unknown> = {}, as = key) =>
  (await server.graphql(query, variables, as)).json();

const freshStore = () => makeStoreWithKey(server.prisma);

const base = Date.UTC(2026, 0, 1);
async function seedCoupons(
  forStore: string,
  rows: Array<{ code: string; redemptionCount?: number; isActive?: boolean; minute?: number }>,
) {
  const created = [];
  for (const [i, row] of rows.entries()) {
    created.push(
      await server.prisma.coupon.create({
        data: {
          storeId: forStore,
          code: row.code,
          type: 'percent',
          value: 10,
          redemptionCount: row.redemptionCount ?? 0,
          isActive: row.isActive ?? true,
          createdAt: new Date(base + (row.minute ?? i) * 60_000),
        },
      }),
    );
  }
  return created;
}

describe('coupons over REST', () => {
  it('creates with an upper-cased code and the defaults, and reads it back', async () => {
    const res = await send('POST', '/api/v1/coupon', {
      code: 'summer-10_a',
      type: 'percent',
      value: 10,
      minSubtotalAmount: 5000,
      maxRedemptions: 100,
      startsAt: '2026-06-01T00:00:00.000Z',
      endsAt: '2026-09-01T00:00:00.000Z',
    });
    expect(res.status).toBe(201);
    const { success, data } = await res.json();
    expect(success).toBe(true);
    expect(data).toEqual({
      id: expect.stringMatching(/^cpn_/),
      code: 'SUMMER-10_A',
      type: 'percent',
      value: 10,
      minSubtotalAmount: 5000,
      maxRedemptions: 100,
      redemptionCount: 0,
      startsAt: '2026-06-01T00:00:00.000Z',
      endsAt: '2026-09-01T00:00:00.000Z',
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const got = await send('GET', `/api/v1/coupon/${data.id}`);
    expect(got.status).toBe(200);
    expect((await got.json()).data).toEqual(data);
  });

  it('refuses invalid input with field paths and writes nothing', async () => {
    const before = await server.prisma.coupon.count({ where: { storeId } });
    const ok = { code: 'VALID-1', type: 'percent', value: 10 };
    for (const [body, path] of [
      [{ ...ok, code: 'ab' }, 'input.code'],
      [{ ...ok, code: 'x'.repeat(41) }, 'input.code'],
      [{ ...ok, code: 'NO SPACES' }, 'input.code'],
      [{ ...ok, code: 'ÄÖÜ-123' }, 'input.code'],
      [{ ...ok, value: 150 }, 'input.value'],
      [{ ...ok, value: 0 }, 'input.value'],
      [{ ...ok, type: 'fixed', value: 0 }, 'input.value'],
      [{ ...ok, type: 'bogus' }, 'input.type'],
      [{ ...ok, maxRedemptions: 0 }, 'input.maxRedemptions'],
      [{ ...ok, minSubtotalAmount: -1 }, 'input.minSubtotalAmount'],
      [{ ...ok, startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-01-01T00:00:00Z' }, 'input.endsAt'],
      [{ ...ok, startsAt: '2026-02-01T00:00:00Z', endsAt: '2026-02-01T00:00:00Z' }, 'input.endsAt'],
      [{ ...ok, redemptionCount: 5 }, 'input.redemptionCount'],
      [{ ...ok, color: 'red' }, 'input.color'],
      [{ type: 'percent', value: 10 }, 'input.code'],
    ] as const) {
      const res = await send('POST', '/api/v1/coupon', body);
      expect(res.status).toBe(400);
      const json = await res.clone().json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(await detailPaths(res)).toContain(path);
    }
    expect(await server.prisma.coupon.count({ where: { storeId } })).toBe(before);
  });

  it('says clearly that redemptionCount is read-only', async () => {
    const res = await send('POST', '/api/v1/coupon', {
      code: 'RO-1',
      type: 'fixed',
      value: 500,
      redemptionCount: 0,
    });
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.details).toEqual([
      { path: 'input.redemptionCount', message: expect.stringMatching(/read-only/) },
    ]);
  });

  it('accepts a fixed coupon of any positive amount', async () => {
    const res = await send('POST', '/api/v1/coupon', { code: 'TENOFF', type: 'fixed', value: 1000 });
    expect(res.status).toBe(201);
    expect((await res.json()).data).toEqual(expect.objectContaining({ type: 'fixed', value: 1000 }));
  });

  it('answers a code clash, in any case, with 409 CONFLICT on create and update', async () => {
    expect((await send('POST', '/api/v1/coupon', { code: 'CLASH', type: 'percent', value: 5 })).status).toBe(
      201,
    );
    const clash = await send('POST', '/api/v1/coupon', { code: 'clash', type: 'percent', value: 5 });
    expect(clash.status).toBe(409);
    expect((await clash.json()).code).toBe('CONFLICT');
    const other = (
      await (await send('POST', '/api/v1/coupon', { code: 'OTHER', type: 'percent', value: 5 })).json()
    ).data;
    const renamed = await send('PATCH', `/api/v1/coupon/${other.id}`, { code: 'Clash' });
    expect(renamed.status).toBe(409);
    // Renaming a coupon to its own code is no clash.
    expect((await send('PATCH', `/api/v1/coupon/${other.id}`, { code: 'other' })).status).toBe(200);
    expect(await server.prisma.coupon.count({ where: { storeId, code: 'CLASH' } })).toBe(1);
  });

  it('lets another store use the same code', async () => {
    const other = await freshStore();
    const res = await send('POST', '/api/v1/coupon', { code: 'CLASH', type: 'percent', value: 5 }, other.key);
    expect(res.status).toBe(201);
  });

  it('updates, checking the rules on the coupon as it would be', async () => {
    const created = (
      await (await send('POST', '/api/v1/coupon', { code: 'UPD-1', type: 'percent', value: 20 })).json()
    ).data;
    await server.prisma.coupon.update({ where: { id: created.id }, data: { redemptionCount: 5 } });
    const patch = (body: unknown) => send('PATCH', `/api/v1/coupon/${created.id}`, body);

    expect(await detailPaths(await patch({ value: 150 }))).toContain('input.value');
    expect(await detailPaths(await patch({ maxRedemptions: 4 }))).toContain('input.maxRedemptions');
    expect(await detailPaths(await patch({ redemptionCount: 0 }))).toContain('input.redemptionCount');
    expect(await detailPaths(await patch({ rating: 3 }))).toContain('input.rating');
    expect(
      await detailPaths(await patch({ endsAt: '2020-01-01T00:00:00Z', startsAt: '2021-01-01T00:00:00Z' })),
    ).toContain('input.endsAt');
    await patch({ startsAt: '2026-03-01T00:00:00Z' });
    expect(await detailPaths(await patch({ endsAt: '2026-02-01T00:00:00Z' }))).toContain('input.endsAt');

    const ok = await patch({ type: 'fixed', value: 1500, maxRedemptions: 5, isActive: false });
    expect(ok.status).toBe(200);
    expect((await ok.json()).data).toEqual(
      expect.objectContaining({
        code: 'UPD-1',
        type: 'fixed',
        value: 1500,
        maxRedemptions: 5,
        redemptionCount: 5,
        isActive: false,
        startsAt: '2026-03-01T00:00:00.000Z',
      }),
    );
    const cleared = await patch({ maxRedemptions: null, startsAt: null });
    expect((await cleared.json()).data).toEqual(
      expect.objectContaining({ maxRedemptions: null, startsAt: null }),
    );
  });

  it('deletes a coupon that orders used; the orders keep their amounts', async () => {
    const coupon = (
      await (await send('POST', '/api/v1/coupon', { code: 'USED-1', type: 'fixed', value: 500 })).json()
    ).data;
    const order = await server.prisma.order.create({
      data: {
        storeId,
        number: 9001,
        email: 'buyer@example.test',
        currency: 'USD',
        subtotalAmount: 3000,
        discountAmount: 500,
        totalAmount: 2500,
        couponId: coupon.id,
      },
    });
    const res = await send('DELETE', `/api/v1/coupon/${coupon.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await server.prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(
      expect.objectContaining({
        couponId: null,
        subtotalAmount: 3000,
        discountAmount: 500,
        totalAmount: 2500,
      }),
    );
    expect((await send('GET', `/api/v1/coupon/${coupon.id}`)).status).toBe(404);
    expect((await send('DELETE', `/api/v1/coupon/${coupon.id}`)).status).toBe(404);
  });
});

describe('coupon lists', () => {
  let store: { id: string; key: string };
  let rows: Awaited<ReturnType<typeof seedCoupons>>;
  const codesOf = async (query: string) => {
    const res = await send('GET', `/api/v1/coupon${query}`, undefined, store.key);
    expect(res.status).toBe(200);
    return (await res.json()).data.map((c: { code: string }) => c.code);
  };

  beforeAll(async () => {
    store = await freshStore();
    rows = await seedCoupons(store.id, [
      { code: 'ALPHA', redemptionCount: 3 },
      { code: 'BRAVO', redemptionCount: 1, isActive: false },
      { code: 'CHARLIE', redemptionCount: 3 },
      { code: 'DELTA-ALPHA', redemptionCount: 0 },
      // Same createdAt as ALPHA: the tie is broken by id.
      { code: 'ECHO', redemptionCount: 3, minute: 0 },
    ]);
  });

  it('answers with the list envelope, newest first by default, ties broken by id', async () => {
    const res = await send('GET', '/api/v1/coupon', undefined, store.key);
    const json = await res.json();
    expect(json).toEqual(
      expect.objectContaining({
        success: true,
        pagination: expect.objectContaining({ totalResults: 5, currentPage: 1, limit: 25, lastPage: 1 }),
      }),
    );
    const sameMinute = [rows[0], rows[4]].sort((a, b) => (a!.id < b!.id ? 1 : -1)).map((r) => r!.code);
    expect(json.data.map((c: { code: string }) => c.code)).toEqual([
      'DELTA-ALPHA',
      'CHARLIE',
      'BRAVO',
      ...sameMinute,
    ]);
  });

  it('sorts by code and by redemptionCount (stable by id)', async () => {
    expect(await codesOf('?sortBy=code&sortDirection=asc')).toEqual([
      'ALPHA',
      'BRAVO',
      'CHARLIE',
      'DELTA-ALPHA',
      'ECHO',
    ]);
    const threes = rows
      .filter((r) => r.redemptionCount === 3)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((r) => r.code);
    expect(await codesOf('?sortBy=redemptionCount&sortDirection=asc')).toEqual([
      'DELTA-ALPHA',
      'BRAVO',
      ...threes,
    ]);
    expect(await codesOf('?sortBy=redemptionCount&sortDirection=desc')).toEqual(
      [...threes].reverse().concat(['BRAVO', 'DELTA-ALPHA']),
    );
  });

  it('filters with q on the code (any case) and isActive', async () => {
    expect(await codesOf('?q=alpha&sortBy=code&sortDirection=asc')).toEqual(['ALPHA', 'DELTA-ALPHA']);
    expect(await codesOf('?isActive=false')).toEqual(['BRAVO']);
    expect((await codesOf('?isActive=true')).sort()).toEqual(['ALPHA', 'CHARLIE', 'DELTA-ALPHA', 'ECHO']);
  });

  it('pages, and refuses bad page arguments and sort fields', async () => {
    const res = await send(
      'GET',
      '/api/v1/coupon?limit=2&page=3&sortBy=code&sortDirection=asc',
      undefined,
      store.key,
    );
    const json = await res.json();
    expect(json.data.map((c: { code: string }) => c.code)).toEqual(['ECHO']);
    expect(json.pagination).toEqual(
      expect.objectContaining({ totalResults: 5, currentPage: 3, limit: 2, lastPage: 3 }),
    );
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?page=0',
      '?sortBy=value',
      '?isActive=maybe',
      '?sort_by=code',
    ]) {
      expect((await send('GET', `/api/v1/coupon${query}`, undefined, store.key)).status).toBe(400);
    }
  });
});

describe('another store’s coupons and scopes', () => {
  it('treats another store’s coupon as missing on every id route and never lists it', async () => {
    const other = await freshStore();
    const [foreign] = await seedCoupons(other.id, [{ code: 'FOREIGN-ONLY' }]);
    const id = foreign!.id;
    expect((await send('GET', `/api/v1/coupon/${id}`)).status).toBe(404);
    const patched = await send('PATCH', `/api/v1/coupon/${id}`, { isActive: false });
    expect(patched.status).toBe(404);
    expect((await patched.json()).code).toBe('NOT_FOUND');
    expect((await send('DELETE', `/api/v1/coupon/${id}`)).status).toBe(404);
    expect(await server.prisma.coupon.findUniqueOrThrow({ where: { id } })).toEqual(
      expect.objectContaining({ isActive: true }),
    );
    const list = await (await send('GET', '/api/v1/coupon?q=FOREIGN&limit=100')).json();
    expect(list.data).toEqual([]);

    const viaGraphql = await gql(
      `query($id: ID!) {
        coupon(id: $id) { id }
      }`,
      { id },
    );
    expect(viaGraphql.errors[0].extensions.code).toBe('NOT_FOUND');
    const connection = await gql('{ couponsConnection(first: 100, q: "FOREIGN") { edges { node { id } } } }');
    expect(connection.data.couponsConnection.edges).toEqual([]);
    const lists = await gql('{ coupons(limit: 100, q: "FOREIGN") { items { id } } }');
    expect(lists.data.coupons.items).toEqual([]);
    for (const mutation of [
      'mutation($id: ID!) { updateCoupon(id: $id, input: { isActive: false }) { id } }',
      'mutation($id: ID!) { deleteCoupon(id: $id) { id } }',
    ]) {
      expect((await gql(mutation, { id })).errors[0].extensions.code).toBe('NOT_FOUND');
    }
  });

  it('needs COUPONS with the exact action: READ alone reads, and only reads', async () => {
    const [coupon] = await seedCoupons(storeId, [{ code: 'SCOPED-1' }]);
    const readOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'COUPONS', actions: ['READ'] }] })
    ).secret;
    expect((await send('GET', '/api/v1/coupon', undefined, readOnly)).status).toBe(200);
    expect((await send('GET', `/api/v1/coupon/${coupon!.id}`, undefined, readOnly)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v1/coupon', { code: 'NOPE-1', type: 'percent', value: 5 }],
      ['PATCH', `/api/v1/coupon/${coupon!.id}`, { isActive: false }],
      ['DELETE', `/api/v1/coupon/${coupon!.id}`, undefined],
    ] as const) {
      const res = await send(method, path, body, readOnly);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    }
    expect(await server.prisma.coupon.findUnique({ where: { id: coupon!.id } })).toEqual(
      expect.objectContaining({ isActive: true }),
    );
    expect(await server.prisma.coupon.count({ where: { storeId, code: 'NOPE-1' } })).toBe(0);

    const reviewsOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'REVIEWS', actions: ['READ'] }] })
    ).secret;
    const denied = await send('GET', '/api/v1/coupon', undefined, reviewsOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');

    const gqlDenied = await gql(
      'mutation { createCoupon(input: { code: "NOPE-2", type: percent, value: 5 }) { id } }',
      {},
      readOnly,
    );
    expect(gqlDenied.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(
      (await gql('{ coupons { items { id } } }', {}, readOnly)).data.coupons.items.length,
    ).toBeGreaterThan(0);
  });
});

describe('coupons over GraphQL', () => {
  it('creates, updates, lists through the connection and deletes', async () => {
    const store = await freshStore();
    const created = await gql(
      `mutation($input: CreateCouponInput!) {
        createCoupon(input: $input, idempotencyKey: "c-1") { id code type value redemptionCount isActive }
      }`,
      { input: { code: 'gql-1', type: 'fixed', value: 250 } },
      store.key,
    );
    expect(created.data.createCoupon).toEqual(
      expect.objectContaining({
        code: 'GQL-1',
        type: 'fixed',
        value: 250,
        redemptionCount: 0,
        isActive: true,
      }),
    );
    const id = created.data.createCoupon.id;
    const updated = await gql(
      'mutation($id: ID!) { updateCoupon(id: $id, input: { value: 300, maxRedemptions: 10 }) { value maxRedemptions } }',
      { id },
      store.key,
    );
    expect(updated.data.updateCoupon).toEqual({ value: 300, maxRedemptions: 10 });
    await seedCoupons(store.id, [{ code: 'GQL-0' }]);

    const page1 = await gql(
      '{ couponsConnection(first: 1, sortBy: code, sortDirection: asc) { edges { node { code } } pageInfo { hasNextPage endCursor } } }',
      {},
      store.key,
    );
    expect(page1.data.couponsConnection.edges).toEqual([{ node: { code: 'GQL-0' } }]);
    expect(page1.data.couponsConnection.pageInfo.hasNextPage).toBe(true);
    const page2 = await gql(
      `query($after: String) {
        couponsConnection(first: 1, after: $after, sortBy: code, sortDirection: asc) { edges { node { code } } }
      }`,
      { after: page1.data.couponsConnection.pageInfo.endCursor },
      store.key,
    );
    expect(page2.data.couponsConnection.edges).toEqual([{ node: { code: 'GQL-1' } }]);

    const byPage = await gql(
      '{ coupons(sortBy: code, sortDirection: desc, isActive: true) { items { code } pagination { totalResults } } }',
      {},
      store.key,
    );
    expect(byPage.data.coupons).toEqual({
      items: [{ code: 'GQL-1' }, { code: 'GQL-0' }],
      pagination: { totalResults: 2 },
    });

    const deleted = await gql(
      'mutation($id: ID!) { deleteCoupon(id: $id) { id deleted } }',
      { id },
      store.key,
    );
    expect(deleted.data.deleteCoupon).toEqual({ id, deleted: true });
  });

  it('reports validation errors with the same paths', async () => {
    const bad = await gql(
      'mutation { createCoupon(input: { code: "OK-CODE", type: percent, value: 150 }) { id } }',
    );
    expect(bad.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(bad.errors[0].extensions.details).toEqual([{ path: 'input.value', message: expect.any(String) }]);
    const readOnly = await gql(
      'mutation($input: CreateCouponInput!) { createCoupon(input: $input) { id } }',
      { input: { code: 'OK-CODE', type: 'percent', value: 10, redemptionCount: 3 } },
    );
    expect(readOnly.errors[0].extensions.details[0].path).toBe('input.redemptionCount');
    const clash = await gql(
      'mutation { createCoupon(input: { code: "summer-10_a", type: percent, value: 10 }) { id } }',
    );
    expect(clash.errors[0].extensions.code).toBe('CONFLICT');
  });
});
