import { seedDemoStore } from '../../prisma/seed/demo-store';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * No N+1: a list page costs the same small number of SQL statements whatever its size, through
 * REST and through GraphQL with nested selections.
 */

let server: TestServer;
let key: string;
let storeId: string;
const statements: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { onQuery: (sql) => statements.push(sql) });
  const seeded = await seedDemoStore(server.prisma);
  key = seeded.apiKey as string;
  storeId = seeded.storeId;
  const category = await server.prisma.category.findFirstOrThrow({ where: { storeId } });
  // Enough rows for full pages of 100.
  await server.prisma.product.createMany({
    data: Array.from({ length: 110 }, (_, i) => ({
      storeId,
      categoryId: category.id,
      name: `Extra ${i}`,
      slug: `extra-${i}`,
      priceAmount: 100 + i,
      currency: 'USD',
    })),
  });
  await server.prisma.customer.createMany({
    data: Array.from({ length: 110 }, (_, i) => ({ storeId, email: `extra-${i}@example.test` })),
  });
  // Warm the verified-key cache: authentication is not what is counted.
  await server.request('/api/v1/category?limit=1', { key });
});
afterAll(() => server.close());

async function statementsFor(run: () => Promise<Response>) {
  statements.length = 0;
  const res = await run();
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.errors).toBeUndefined();
  return { count: statements.length, body };
}

const rest = (path: string) => () => server.request(path, { key });
const graphql = (query: string) => () => server.graphql(query, {}, key);

const cases: Array<[string, (limit: number) => () => Promise<Response>, string[]]> = [
  ['GET /product', (limit) => rest(`/api/v1/product?limit=${limit}`), ['data']],
  ['GET /order/vendor', (limit) => rest(`/api/v1/order/vendor?limit=${limit}`), ['data']],
  ['GET /customer', (limit) => rest(`/api/v1/customer?limit=${limit}`), ['data']],
  [
    'GraphQL products { category }',
    (limit) => graphql(`{ products(limit: ${limit}) { items { id name category { id name } } } }`),
    ['data', 'products', 'items'],
  ],
  [
    'GraphQL orders { items customer }',
    (limit) =>
      graphql(
        `{ orders(limit: ${limit}) { items { id number items { name quantity } customer { id email } } } }`,
      ),
    ['data', 'orders', 'items'],
  ],
  [
    'GraphQL productsConnection { category }',
    (limit) => graphql(`{ productsConnection(first: ${limit}) { edges { node { id category { name } } } } }`),
    ['data', 'productsConnection', 'edges'],
  ],
];

describe('SQL statements per list page', () => {
  it.each(cases)('%s: the same small number for 25 and for 100 items', async (_name, request, itemsPath) => {
    const itemsOf = (body: unknown) =>
      itemsPath.reduce((value, key) => (value as Record<string, unknown>)[key], body) as unknown[];
    const small = await statementsFor(request(25));
    const large = await statementsFor(request(100));
    expect(itemsOf(small.body)).toHaveLength(25);
    expect(itemsOf(large.body)).toHaveLength(100);
    expect(large.count).toBe(small.count);
    expect(small.count).toBeGreaterThan(0);
    expect(small.count).toBeLessThanOrEqual(6);
  });
});

/** Prisma's count of a list: `SELECT COUNT(*) … FROM (SELECT … FROM "public"."Product" …)`. */
const countsOf = (table: string) =>
  statements.filter((sql) => /COUNT\(/i.test(sql) && sql.includes(`"${table}"`)).length;

describe('The count only when the answer shows the totals', () => {
  const productsPage =
    (selection: string, fragments = '') =>
    async () => {
      statements.length = 0;
      const res = await server.graphql(`{ products(limit: 5) { ${selection} } } ${fragments}`, {}, key);
      const body = await res.json();
      expect(body.errors).toBeUndefined();
      return { body: body.data.products, counts: countsOf('Product') };
    };

  it('a GraphQL page without totalResults or lastPage runs no count, and answers its items and position', async () => {
    const { body, counts } = await productsPage('items { id } pagination { currentPage limit page }')();
    expect(counts).toBe(0);
    expect(body.items).toHaveLength(5);
    expect(body.pagination).toEqual({ currentPage: 1, limit: 5, page: 1 });
  });

  it.each([
    ['totalResults', 'items { id } pagination { totalResults }'],
    ['lastPage', 'pagination { lastPage }'],
    ['an alias', 'pagination { last: lastPage }'],
    ['an inline fragment', 'pagination { ... on Pagination { totalResults } }'],
    ['a fragment spread', '...Totals', 'fragment Totals on ProductPage { pagination { totalResults } }'],
    ['a field under @skip', 'pagination { totalResults @skip(if: false) }'],
  ])(
    'a GraphQL page that selects its totals through %s runs one count, and the totals are the store’s',
    async (_how, selection, fragments = '') => {
      const { body, counts } = await productsPage(selection, fragments)();
      expect(counts).toBe(1);
      const total = await server.prisma.product.count({ where: { storeId } });
      const shown = body.pagination.totalResults ?? body.pagination.last ?? body.pagination.lastPage;
      expect(shown).toBe(body.pagination.totalResults !== undefined ? total : Math.ceil(total / 5));
    },
  );

  it('REST’s envelope always carries the totals: one count', async () => {
    statements.length = 0;
    const res = await server.request('/api/v1/product?limit=5', { key });
    const body = await res.json();
    expect(countsOf('Product')).toBe(1);
    const total = body.pagination.totalResults;
    expect(total).toBeGreaterThan(5);
    expect(body.pagination).toEqual(
      expect.objectContaining({
        totalResults: total,
        currentPage: 1,
        limit: 5,
        lastPage: Math.ceil(total / 5),
      }),
    );
  });
});
