import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A document's Prisma selection is planned once and kept (src/resources/selection-plans.ts). Kept
 * plans must answer as fresh ones did: the same data, the relations loaded with the rows (so in the
 * same statements on every run), and a plan for each value of a variable used beneath the field —
 * never one run's plan for another's variables.
 */

let server: TestServer;
let key: string;
const statements: string[] = [];
let products: Array<{ id: string; name: string; category: { name: string } | null }>;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' }, { onQuery: (sql) => statements.push(sql) });
  const store = await makeStoreWithKey(server.prisma);
  key = store.key;
  const shoes = await server.prisma.category.create({
    data: { storeId: store.id, name: 'Shoes', slug: 'shoes' },
  });
  for (let i = 0; i < 8; i++)
    await server.prisma.product.create({
      data: {
        storeId: store.id,
        categoryId: i % 2 === 0 ? shoes.id : null,
        name: `Product ${i}`,
        slug: `product-${i}`,
        priceAmount: 100 + i,
        currency: 'USD',
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
      },
    });
  const rows = await server.prisma.product.findMany({
    where: { storeId: store.id },
    include: { category: true },
    orderBy: { createdAt: 'desc' },
  });
  products = rows.map((row) => ({
    id: row.id,
    name: row.name,
    category: row.category && { name: row.category.name },
  }));
  // Authentication's own statements are not what is counted.
  await server.graphql('{ products(limit: 1) { items { id } } }', {}, key);
});
afterAll(() => server.close());

async function run(query: string, variables: Record<string, unknown>) {
  statements.length = 0;
  const res = await server.graphql(query, variables, key);
  const body = await res.json();
  expect(body.errors).toBeUndefined();
  return { data: body.data, statements: [...statements] };
}

const mentionsCategory = (sql: string[]) => sql.some((statement) => /"Category"/i.test(statement));

describe('a kept plan answers as a fresh one', () => {
  it('a page run again: the same rows and categories, loaded in the same number of statements', async () => {
    const query = 'query P($limit: Int) { products(limit: $limit) { items { id name category { name } } } }';
    const runs = [];
    for (const limit of [8, 3, 8, 5, 8]) {
      const ran = await run(query, { limit });
      expect(ran.data.products.items).toEqual(products.slice(0, limit));
      runs.push(ran.statements.length);
    }
    expect(new Set(runs).size).toBe(1);
  });

  it('a variable beneath the field (@include) gets a plan for each of its values', async () => {
    const query =
      'query P($withCategory: Boolean!) { products(limit: 8) { items { id category @include(if: $withCategory) { name } } } }';
    for (const withCategory of [false, true, false, true, false]) {
      const ran = await run(query, { withCategory });
      expect(ran.data.products.items).toEqual(
        products.map((product) =>
          withCategory ? { id: product.id, category: product.category } : { id: product.id },
        ),
      );
      // The category is read only when asked for, and then with the rows (one plan per value).
      expect({ withCategory, reads: mentionsCategory(ran.statements) }).toEqual({
        withCategory,
        reads: withCategory,
      });
    }
  });

  it('one product by id, and by node(id), run again with other ids', async () => {
    const byId = 'query P($id: ID!) { product(id: $id) { id name category { name } } }';
    const byNode = 'query N($id: ID!) { node(id: $id) { ... on Product { id name category { name } } } }';
    const counts = new Set<number>();
    for (const product of [...products.slice(0, 3), products[0]!]) {
      const one = await run(byId, { id: product.id });
      expect(one.data.product).toEqual(product);
      const node = await run(byNode, { id: product.id });
      expect(node.data.node).toEqual(product);
      counts.add(one.statements.length);
    }
    expect(counts.size).toBe(1);
  });

  it('the same field selected twice under one response key, and aliased', async () => {
    const query =
      '{ products(limit: 4) { items { id } items { name category { name } } } other: products(limit: 2) { items { name } } }';
    for (let i = 0; i < 3; i++) {
      const ran = await run(query, {});
      expect(ran.data.products.items).toEqual(products.slice(0, 4));
      expect(ran.data.other.items).toEqual(products.slice(0, 2).map(({ name }) => ({ name })));
    }
  });
});
