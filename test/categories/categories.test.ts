import { makeCategories, makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let otherStoreCategoryId: string;

beforeAll(async () => {
  server = await startTestServer();
  const store = await makeStore(server.prisma);
  key = (await makeKey(server.prisma, store.id)).secret;
  await makeCategories(server.prisma, store.id, ['Shoes', 'Hats', 'Bags', 'Shirts', 'Socks']);
  const other = await makeStore(server.prisma);
  await makeCategories(server.prisma, other.id, ['Foreign']);
  otherStoreCategoryId = (await server.prisma.category.findFirstOrThrow({ where: { storeId: other.id } })).id;
});

afterAll(() => server.close());

describe('GET /api/v1/category', () => {
  it('lists the store’s categories in the list envelope, newest first by default', async () => {
    const res = await server.request('/api/v1/category', { key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      data: expect.any(Array),
      pagination: { results: [], totalResults: 5, currentPage: 1, page: 1, limit: 25, lastPage: 1 },
    });
    expect(body.data.map((c: { name: string }) => c.name)).toEqual([
      'Socks',
      'Shirts',
      'Bags',
      'Hats',
      'Shoes',
    ]);
    expect(body.data[0]).toEqual(expect.objectContaining({ id: expect.any(String), name: 'Socks' }));
  });

  it('pages, filters with q and sorts by a whitelisted field', async () => {
    const res = await server.request('/api/v1/category?q=sh&sortBy=name&sortDirection=asc&limit=1&page=2', {
      key,
    });
    const body = await res.json();
    expect(body.data.map((c: { name: string }) => c.name)).toEqual(['Shoes']);
    expect(body.pagination).toEqual({
      results: [],
      totalResults: 2,
      currentPage: 2,
      page: 2,
      limit: 1,
      lastPage: 2,
    });
  });

  it('answers a page past the end with empty data and correct totals', async () => {
    const body = await (await server.request('/api/v1/category?page=9&limit=2', { key })).json();
    expect(body).toEqual({
      success: true,
      data: [],
      pagination: { results: [], totalResults: 5, currentPage: 9, page: 9, limit: 2, lastPage: 3 },
    });
  });

  it.each(['0', '101', 'abc', '-1', '2.5'])('rejects limit=%s with 400 VALIDATION_ERROR', async (limit) => {
    const res = await server.request(`/api/v1/category?limit=${limit}`, { key });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body).toEqual({
      success: false,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      requestId: expect.any(String),
      details: [{ path: 'limit', message: expect.any(String) }],
    });
  });

  it('rejects an unknown sortBy and an unknown query parameter', async () => {
    const sort = await server.request('/api/v1/category?sortBy=password', { key });
    expect(sort.status).toBe(400);
    expect((await sort.json()).details[0].path).toBe('sortBy');
    const unknown = await server.request('/api/v1/category?sort_by=name', { key });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).details[0].path).toBe('sort_by');
  });
});

describe('GET /api/v1/category/{id}', () => {
  it('returns one category in the single-item envelope', async () => {
    const list = await (await server.request('/api/v1/category?limit=1', { key })).json();
    const res = await server.request(`/api/v1/category/${list.data[0].id}`, { key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, data: list.data[0] });
  });

  it('answers another store’s category exactly as a missing one: 404 NOT_FOUND', async () => {
    const foreign = await server.request(`/api/v1/category/${otherStoreCategoryId}`, { key });
    const missing = await server.request('/api/v1/category/cat_missing', { key });
    for (const res of [foreign, missing]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        success: false,
        status: 404,
        code: 'NOT_FOUND',
        message: 'Category not found',
        requestId: expect.any(String),
      });
    }
  });
});

describe('categories through GraphQL', () => {
  it('offers the same list and a Relay connection', async () => {
    const res = await server.graphql(
      `{ categories(limit: 2, sortBy: name, sortDirection: asc) { items { name } pagination { totalResults lastPage page } }
         categoriesConnection(first: 2, sortBy: name, sortDirection: asc) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } } }`,
      {},
      key,
    );
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data.categories).toEqual({
      items: [{ name: 'Bags' }, { name: 'Hats' }],
      pagination: { totalResults: 5, lastPage: 3, page: 1 },
    });
    expect(data.categoriesConnection.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      'Bags',
      'Hats',
    ]);
    expect(data.categoriesConnection.pageInfo.hasNextPage).toBe(true);

    const next = await server.graphql(
      'query($after: String) { categoriesConnection(first: 2, after: $after, sortBy: name, sortDirection: asc) { edges { node { name } } } }',
      { after: data.categoriesConnection.pageInfo.endCursor },
      key,
    );
    const nextData = (await next.json()).data;
    expect(nextData.categoriesConnection.edges.map((e: { node: { name: string } }) => e.node.name)).toEqual([
      'Shirts',
      'Shoes',
    ]);
  });

  it('gives another store’s category as NOT_FOUND in extensions.code', async () => {
    const res = await server.graphql(
      'query($id: ID!) { category(id: $id) { id } }',
      { id: otherStoreCategoryId },
      key,
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
