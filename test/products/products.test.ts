import type { ProductStatus } from '../../prisma/generated/client/enums';
import { published } from '../helpers/event-schemas';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { detailPaths } from '../helpers/responses';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let storeId: string;
let categoryId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
  categoryId = (await server.prisma.category.create({ data: { storeId, name: 'Shoes', slug: 'shoes' } })).id;
});
afterAll(() => server.close());

const send = (method: string, path: string, body?: unknown, as = key) => server.send(method, path, body, as);

const gql = async (query: string, variables: Record<string, unknown> = {}, as = key) =>
  (await server.graphql(query, variables, as)).json();

const freshStore = () => makeStoreWithKey(server.prisma);

const eventIdsOf = async (forStore: string, type: string) =>
  published(
    await server.prisma.event.findMany({ where: { storeId: forStore, type }, orderBy: { createdAt: 'asc' } }),
  ).map((e) => e.data as { object: { id: string } });

const base = Date.UTC(2026, 0, 1);
type Seed = {
  name: string;
  priceAmount: number;
  stock: number;
  minute: number;
  status?: ProductStatus;
  sku?: string;
  categoryId?: string | null;
};
async function seedProducts(forStore: string, rows: Seed[]) {
  const created = [];
  for (const row of rows) {
    created.push(
      await server.prisma.product.create({
        data: {
          storeId: forStore,
          name: row.name,
          slug: `${row.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${row.minute}`,
          sku: row.sku ?? null,
          priceAmount: row.priceAmount,
          stock: row.stock,
          status: row.status ?? 'active',
          currency: 'USD',
          categoryId: row.categoryId ?? null,
          createdAt: new Date(base + row.minute * 60_000),
        },
      }),
    );
  }
  return created;
}

describe('product list', () => {
  let store: { id: string; key: string };
  let rows: Awaited<ReturnType<typeof seedProducts>>;
  let boots: string;
  const namesOf = async (query: string) => {
    const res = await send('GET', `/api/v1/product${query}`, undefined, store.key);
    expect(res.status).toBe(200);
    return (await res.json()).data.map((p: { name: string }) => p.name);
  };
  /** Names ordered by a key, ties by id, in the given direction. */
  const expected = (key: 'priceAmount' | 'stock' | 'name' | 'createdAt', direction: 'asc' | 'desc') => {
    const sign = direction === 'asc' ? 1 : -1;
    return [...rows]
      .sort((a, b) => {
        const x = a[key];
        const y = b[key];
        if (x < y) return -sign;
        if (x > y) return sign;
        return a.id < b.id ? -sign : sign;
      })
      .map((p) => p.name);
  };

  beforeAll(async () => {
    store = await freshStore();
    boots = (
      await server.prisma.category.create({ data: { storeId: store.id, name: 'Boots', slug: 'boots' } })
    ).id;
    rows = await seedProducts(store.id, [
      { name: 'Alpine Boot', priceAmount: 12_000, stock: 5, minute: 0, sku: 'BOOT-1', categoryId: boots },
      { name: 'Beach Sandal', priceAmount: 3_000, stock: 40, minute: 1, sku: 'SAND-1' },
      { name: 'City Sneaker', priceAmount: 8_000, stock: 5, minute: 2, status: 'draft' },
      { name: 'Desert Boot', priceAmount: 8_000, stock: 0, minute: 2, categoryId: boots },
      { name: 'Evening Loafer', priceAmount: 15_000, stock: 12, minute: 3, status: 'archived' },
    ]);
  });

  it('answers with the list envelope, newest first by default, with the category', async () => {
    const res = await send('GET', '/api/v1/product', undefined, store.key);
    const json = await res.json();
    expect(json.pagination).toEqual({
      results: [],
      totalResults: 5,
      currentPage: 1,
      page: 1,
      limit: 25,
      lastPage: 1,
    });
    expect(json.data.map((p: { name: string }) => p.name)).toEqual(expected('createdAt', 'desc'));
    expect(json.data.find((p: { name: string }) => p.name === 'Alpine Boot')).toEqual({
      id: rows[0]!.id,
      name: 'Alpine Boot',
      slug: 'alpine-boot-0',
      description: null,
      sku: 'BOOT-1',
      priceAmount: 12_000,
      compareAtAmount: null,
      currency: 'USD',
      stock: 5,
      status: 'active',
      categoryId: boots,
      category: { id: boots, name: 'Boots' },
      createdAt: new Date(base).toISOString(),
      updatedAt: expect.any(String),
    });
  });

  it.each([['createdAt'], ['name'], ['priceAmount'], ['stock']] as const)(
    'sorts by %s in both directions, ties broken by id',
    async (field) => {
      expect(await namesOf(`?sortBy=${field}&sortDirection=asc`)).toEqual(expected(field, 'asc'));
      expect(await namesOf(`?sortBy=${field}&sortDirection=desc`)).toEqual(expected(field, 'desc'));
    },
  );

  it('pages without overlap and answers a page past the end with correct totals', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const json = await (
        await send('GET', `/api/v1/product?limit=2&page=${page}&sortBy=priceAmount`, undefined, store.key)
      ).json();
      expect(json.pagination).toEqual(
        expect.objectContaining({ totalResults: 5, currentPage: page, page, limit: 2, lastPage: 3 }),
      );
      seen.push(...json.data.map((p: { name: string }) => p.name));
    }
    expect(seen).toEqual(expected('priceAmount', 'desc'));
    const past = await (await send('GET', '/api/v1/product?limit=2&page=9', undefined, store.key)).json();
    expect(past.data).toEqual([]);
    expect(past.pagination).toEqual(expect.objectContaining({ totalResults: 5, lastPage: 3 }));
  });

  it('filters with q (name or sku), status, categoryId, minPrice and maxPrice, combined with paging', async () => {
    const sorted = '&sortBy=name&sortDirection=asc';
    expect(await namesOf(`?q=boot${sorted}`)).toEqual(['Alpine Boot', 'Desert Boot']);
    expect(await namesOf(`?q=sand-1${sorted}`)).toEqual(['Beach Sandal']);
    expect(await namesOf(`?status=draft${sorted}`)).toEqual(['City Sneaker']);
    expect(await namesOf(`?status=archived${sorted}`)).toEqual(['Evening Loafer']);
    expect(await namesOf(`?categoryId=${boots}${sorted}`)).toEqual(['Alpine Boot', 'Desert Boot']);
    expect(await namesOf(`?minPrice=8000${sorted}`)).toEqual([
      'Alpine Boot',
      'City Sneaker',
      'Desert Boot',
      'Evening Loafer',
    ]);
    expect(await namesOf(`?maxPrice=8000${sorted}`)).toEqual(['Beach Sandal', 'City Sneaker', 'Desert Boot']);
    expect(await namesOf(`?minPrice=8000&maxPrice=8000${sorted}`)).toEqual(['City Sneaker', 'Desert Boot']);
    expect(await namesOf(`?q=boot&status=active&maxPrice=10000${sorted}`)).toEqual(['Desert Boot']);
    expect(await namesOf(`?categoryId=${categoryId}`)).toEqual([]);
    const json = await (
      await send('GET', `/api/v1/product?minPrice=8000&limit=3&page=2${sorted}`, undefined, store.key)
    ).json();
    expect(json.data.map((p: { name: string }) => p.name)).toEqual(['Evening Loafer']);
    expect(json.pagination).toEqual(expect.objectContaining({ totalResults: 4, lastPage: 2 }));
  });

  it('refuses bad filters, page arguments and sort fields with details', async () => {
    for (const [query, path] of [
      ['?minPrice=-1', 'minPrice'],
      ['?maxPrice=abc', 'maxPrice'],
      ['?minPrice=500&maxPrice=100', 'maxPrice'],
      ['?status=sold', 'status'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?page=0', 'page'],
      ['?sortBy=sku', 'sortBy'],
      ['?sortDirection=sideways', 'sortDirection'],
      ['?category=x', 'category'],
    ] as const) {
      const res = await send('GET', `/api/v1/product${query}`, undefined, store.key);
      expect(res.status).toBe(400);
      const json = await res.clone().json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(await detailPaths(res)).toContain(path);
    }
  });

  it('offers the same through GraphQL, including the Relay connection', async () => {
    const page = await gql(
      '{ products(limit: 2, sortBy: stock, sortDirection: asc, status: active) { items { name category { name } } pagination { totalResults lastPage } } }',
      {},
      store.key,
    );
    expect(page.data.products).toEqual({
      items: [
        { name: 'Desert Boot', category: { name: 'Boots' } },
        { name: 'Alpine Boot', category: { name: 'Boots' } },
      ],
      pagination: { totalResults: 3, lastPage: 2 },
    });
    const names: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const json: {
        data: {
          productsConnection: {
            edges: Array<{ node: { name: string } }>;
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        };
      } = await gql(
        `query($after: String) { productsConnection(first: 2, after: $after, sortBy: priceAmount, sortDirection: asc) {
          edges { node { name } } pageInfo { hasNextPage endCursor } } }`,
        { after },
        store.key,
      );
      names.push(...json.data.productsConnection.edges.map((edge) => edge.node.name));
      if (!json.data.productsConnection.pageInfo.hasNextPage) break;
      after = json.data.productsConnection.pageInfo.endCursor;
    }
    expect(names).toEqual(expected('priceAmount', 'asc'));
  });
});

describe('product writes', () => {
  const valid = { name: 'Trail Runner', priceAmount: 9_900 };

  it('creates with a derived slug and the store currency, emitting product.created in the same transaction', async () => {
    const res = await send('POST', '/api/v1/product', {
      ...valid,
      description: 'Grippy',
      sku: 'TR-1',
      compareAtAmount: 12_000,
      stock: 7,
      categoryId,
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toEqual({
      id: expect.stringMatching(/^prd_/),
      name: 'Trail Runner',
      slug: 'trail-runner',
      description: 'Grippy',
      sku: 'TR-1',
      priceAmount: 9_900,
      compareAtAmount: 12_000,
      currency: 'USD',
      stock: 7,
      status: 'active',
      categoryId,
      category: { id: categoryId, name: 'Shoes' },
      createdAt: server.clock.now.toISOString(),
      updatedAt: server.clock.now.toISOString(),
    });
    const events = await server.prisma.event.findMany({ where: { storeId, type: 'product.created' } });
    const mine = events.filter((e) => (e.data as { object: { id: string } }).object.id === data.id);
    expect(mine.map((e) => e.data)).toEqual([{ object: data }]);
    const jobs = await server.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${mine[0]!.id}`;
    expect(jobs[0]?.n).toBe(1);
    expect((await (await send('GET', `/api/v1/product/${data.id}`)).json()).data).toEqual(data);
  });

  it('refuses invalid input with field paths and writes neither product nor event', async () => {
    const valid = { name: 'Never Written', priceAmount: 9_900 };
    const products = await server.prisma.product.count({ where: { storeId } });
    const events = await server.prisma.event.count({ where: { storeId } });
    for (const [body, path] of [
      [{ priceAmount: 100 }, 'input.name'],
      [{ name: '   ', priceAmount: 100 }, 'input.name'],
      [{ name: 'x'.repeat(201), priceAmount: 100 }, 'input.name'],
      [{ name: 'x' }, 'input.priceAmount'],
      [{ ...valid, priceAmount: -1 }, 'input.priceAmount'],
      [{ ...valid, priceAmount: 1.5 }, 'input.priceAmount'],
      [{ ...valid, compareAtAmount: 100 }, 'input.compareAtAmount'],
      [{ ...valid, stock: -3 }, 'input.stock'],
      [{ ...valid, slug: 'Not A Slug' }, 'input.slug'],
      [{ ...valid, currency: 'usd' }, 'input.currency'],
      [{ ...valid, currency: 'XYZ' }, 'input.currency'],
      [{ ...valid, status: 'sold' }, 'input.status'],
      [{ ...valid, sku: '' }, 'input.sku'],
      [{ name: '!!!', priceAmount: 100 }, 'input.slug'],
      [{ ...valid, categoryId: 'cat_missing' }, 'input.categoryId'],
    ] as const) {
      const res = await send('POST', '/api/v1/product', body);
      expect(res.status).toBe(400);
      const json = await res.clone().json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(await detailPaths(res)).toContain(path);
    }
    expect(await server.prisma.product.count({ where: { storeId } })).toBe(products);
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(events);
  });

  it('refuses unknown and read-only fields by name', async () => {
    for (const field of ['color', 'id', 'createdAt', 'updatedAt', 'category', 'storeId']) {
      const create = await send('POST', '/api/v1/product', { ...valid, [field]: 'x' });
      expect(create.status).toBe(400);
      expect(await detailPaths(create)).toEqual([`input.${field}`]);
    }
    const [product] = await seedProducts(storeId, [
      { name: 'Read Only', priceAmount: 1, stock: 1, minute: 50 },
    ]);
    const update = await send('PATCH', `/api/v1/product/${product!.id}`, {
      createdAt: '2020-01-01T00:00:00Z',
    });
    expect(update.status).toBe(400);
    expect(await detailPaths(update)).toEqual(['input.createdAt']);
  });

  it('refuses a category of another store, on create and on update', async () => {
    const other = await freshStore();
    const foreign = await server.prisma.category.create({
      data: { storeId: other.id, name: 'Foreign', slug: 'foreign' },
    });
    const create = await send('POST', '/api/v1/product', {
      ...valid,
      name: 'Foreign cat',
      categoryId: foreign.id,
    });
    expect(create.status).toBe(400);
    expect((await create.json()).details).toEqual([
      { path: 'input.categoryId', message: 'no such category' },
    ]);
    const [product] = await seedProducts(storeId, [{ name: 'Mine', priceAmount: 1, stock: 1, minute: 51 }]);
    const update = await send('PATCH', `/api/v1/product/${product!.id}`, { categoryId: foreign.id });
    expect(update.status).toBe(400);
    expect(await detailPaths(update)).toEqual(['input.categoryId']);
    expect(
      (await server.prisma.product.findUniqueOrThrow({ where: { id: product!.id } })).categoryId,
    ).toBeNull();
  });

  it('answers a slug or sku clash with 409 CONFLICT and no event', async () => {
    expect((await send('POST', '/api/v1/product', { ...valid, name: 'Clash', sku: 'CLASH-1' })).status).toBe(
      201,
    );
    const before = await server.prisma.event.count({ where: { storeId } });
    for (const body of [
      { ...valid, name: 'Clash' },
      { ...valid, name: 'Other', sku: 'CLASH-1' },
    ]) {
      const res = await send('POST', '/api/v1/product', body);
      expect(res.status).toBe(409);
      expect((await res.json()).code).toBe('CONFLICT');
    }
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before);
  });

  it('updates with product.updated, checking compareAtAmount against the stored price', async () => {
    const created = (
      await (
        await send('POST', '/api/v1/product', { ...valid, name: 'Updatable', compareAtAmount: 10_000 })
      ).json()
    ).data;
    server.clock.now = new Date(server.clock.now.getTime() + 60_000);
    const res = await send('PATCH', `/api/v1/product/${created.id}`, {
      name: 'Updated',
      stock: 3,
      status: 'draft',
      categoryId,
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual({
      ...created,
      name: 'Updated',
      stock: 3,
      status: 'draft',
      categoryId,
      category: { id: categoryId, name: 'Shoes' },
      updatedAt: server.clock.now.toISOString(),
    });
    const updates = (await eventIdsOf(storeId, 'product.updated')).filter((d) => d.object.id === created.id);
    expect(updates).toEqual([{ object: data }]);

    const before = await server.prisma.event.count({ where: { storeId } });
    const tooHigh = await send('PATCH', `/api/v1/product/${created.id}`, { priceAmount: 10_001 });
    expect(tooHigh.status).toBe(400);
    expect(await detailPaths(tooHigh)).toEqual(['input.priceAmount']);
    const tooLow = await send('PATCH', `/api/v1/product/${created.id}`, { compareAtAmount: 9_000 });
    expect(tooLow.status).toBe(400);
    expect(await detailPaths(tooLow)).toEqual(['input.compareAtAmount']);
    const nulled = await send('PATCH', `/api/v1/product/${created.id}`, { name: null });
    expect(nulled.status).toBe(400);
    expect(await detailPaths(nulled)).toEqual(['input.name']);
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before);

    const both = await send('PATCH', `/api/v1/product/${created.id}`, {
      priceAmount: 20_000,
      compareAtAmount: null,
      categoryId: null,
    });
    expect(both.status).toBe(200);
    expect((await both.json()).data).toEqual(
      expect.objectContaining({
        priceAmount: 20_000,
        compareAtAmount: null,
        categoryId: null,
        category: null,
      }),
    );
  });

  it('deletes with product.deleted carrying the last state; then 404, and a second delete writes nothing', async () => {
    const created = (
      await (await send('POST', '/api/v1/product', { ...valid, name: 'Doomed', categoryId })).json()
    ).data;
    expect((await send('DELETE', `/api/v1/product/${created.id}`)).status).toBe(204);
    expect((await send('GET', `/api/v1/product/${created.id}`)).status).toBe(404);
    const deletes = (await eventIdsOf(storeId, 'product.deleted')).filter((d) => d.object.id === created.id);
    expect(deletes).toEqual([{ object: created }]);
    const before = await server.prisma.event.count({ where: { storeId } });
    const again = await send('DELETE', `/api/v1/product/${created.id}`);
    expect(again.status).toBe(404);
    expect((await again.json()).code).toBe('NOT_FOUND');
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before);
  });

  it('treats another store’s product as missing on every id route', async () => {
    const other = await freshStore();
    const [foreign] = await seedProducts(other.id, [
      { name: 'Foreign', priceAmount: 1, stock: 1, minute: 0 },
    ]);
    const before = await server.prisma.event.count();
    expect((await send('GET', `/api/v1/product/${foreign!.id}`)).status).toBe(404);
    expect((await send('PATCH', `/api/v1/product/${foreign!.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await send('DELETE', `/api/v1/product/${foreign!.id}`)).status).toBe(404);
    expect(await server.prisma.event.count()).toBe(before);
    expect((await server.prisma.product.findUniqueOrThrow({ where: { id: foreign!.id } })).name).toBe(
      'Foreign',
    );
  });

  it('needs PRODUCTS with the exact action', async () => {
    const readOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }] })
    ).secret;
    const [product] = await seedProducts(storeId, [{ name: 'Scoped', priceAmount: 1, stock: 1, minute: 52 }]);
    expect((await send('GET', '/api/v1/product', undefined, readOnly)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v1/product', valid],
      ['PATCH', `/api/v1/product/${product!.id}`, { name: 'No' }],
      ['DELETE', `/api/v1/product/${product!.id}`, undefined],
    ] as const) {
      const res = await send(method, path, body, readOnly);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('does the same through GraphQL', async () => {
    const created = await gql(
      `mutation($input: CreateProductInput!) {
        createProduct(input: $input, idempotencyKey: "gql-prd-1") { id slug currency category { name } }
      }`,
      { input: { name: 'Via GraphQL', priceAmount: 500, categoryId } },
    );
    expect(created.data.createProduct).toEqual({
      id: expect.stringMatching(/^prd_/),
      slug: 'via-graphql',
      currency: 'USD',
      category: { name: 'Shoes' },
    });
    const deleted = await gql('mutation($id: ID!) { deleteProduct(id: $id) { id deleted } }', {
      id: created.data.createProduct.id,
    });
    expect(deleted.data.deleteProduct).toEqual({ id: created.data.createProduct.id, deleted: true });
  });
});
