import { HOT_AFTER } from '../../src/graphql/executor';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A /graphql document asked often enough runs compiled by graphql-jit (src/graphql/executor.ts).
 * Whichever executor runs it, the answer is the same: data, errors with their codes and paths, the
 * cost, and the status. Each case is asked past the point of compilation and compared with its
 * first, uncompiled, answer.
 */
let server: TestServer;
let shop: { id: string; key: string };
let productId: string;

beforeAll(async () => {
  // No cost budget: each answer would say its own balance after it, and these compare answers whole.
  server = await startTestServer({ COST_BUDGET_POINTS: '0' });
  shop = await makeStoreWithKey(server.prisma);
  const category = await server.send('POST', '/api/v1/category', { name: 'Boots' }, shop.key);
  const categoryId = (await category.json()).data.id;
  for (const [i, status] of (['active', 'draft'] as const).entries()) {
    const res = await server.send(
      'POST',
      '/api/v1/product',
      { name: `Boot ${i}`, priceAmount: 1000 + i, stock: 3, status, ...(i === 0 ? { categoryId } : {}) },
      shop.key,
    );
    if (i === 0) productId = (await res.json()).data.id;
  }
});
afterAll(() => server.close());

const ask = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await server.graphql(query, variables, shop.key);
  return { status: res.status, text: await res.text() };
};

/** Every answer past compilation equals the first one, byte for byte. */
async function sameEveryTime(query: string, variables: Record<string, unknown> = {}) {
  const first = await ask(query, variables);
  for (let i = 1; i < HOT_AFTER + 3; i++) expect(await ask(query, variables)).toEqual(first);
  return { status: first.status, body: JSON.parse(first.text) };
}

describe('a /graphql document asked often', () => {
  it('answers a page with relations and totals the same, compiled or not', async () => {
    const first = await sameEveryTime(
      `query Page($limit: Int) {
        products(limit: $limit, sortBy: priceAmount, sortDirection: asc) {
          items { id name priceAmount compareAtAmount status category { id name } createdAt }
          pagination { totalResults currentPage limit lastPage }
        }
      }`,
      { limit: 5 },
    );
    expect(first.status).toBe(200);
    expect(first.body.data.products.items.map((p: { name: string }) => p.name)).toEqual(['Boot 0', 'Boot 1']);
    expect(first.body.data.products.items[0].category.name).toBe('Boots');
    expect(first.body.data.products.items[1].category).toBeNull();
    expect(first.body.extensions.cost).toEqual({
      requestedQueryCost: expect.any(Number),
      actualQueryCost: 5,
    });
  });

  it('nulls a missing item with NOT_FOUND at its path, and keeps its siblings', async () => {
    const first = await sameEveryTime(
      `query Two($id: ID!, $gone: ID!) { found: product(id: $id) { name } gone: product(id: $gone) { name } }`,
      { id: productId, gone: 'prd_doesnotexist' },
    );
    expect(first.body.data).toEqual({ found: { name: 'Boot 0' }, gone: null });
    expect(first.body.errors).toEqual([
      expect.objectContaining({ path: ['gone'], extensions: expect.objectContaining({ code: 'NOT_FOUND' }) }),
    ]);
  });

  it('refuses a variable of the wrong type the same way', async () => {
    const first = await sameEveryTime(
      'query Page($limit: Int) { products(limit: $limit) { items { id } } }',
      {
        limit: 'many',
      },
    );
    expect(first.body.data).toBeUndefined();
    expect(first.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('refuses an argument out of bounds the same way', async () => {
    const first = await sameEveryTime('{ products(limit: 1000) { items { id } } }');
    expect(first.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
  });

  it('runs a mutation document asked often, each time anew', async () => {
    const names: string[] = [];
    for (let i = 0; i < HOT_AFTER + 3; i++) {
      const { status, text } = await ask(
        'mutation Make($input: CreateCategoryInput!) { createCategory(input: $input) { name slug } }',
        { input: { name: `Hot ${i}` } },
      );
      const body = JSON.parse(text);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      expect(body.data.createCategory).toEqual({ name: `Hot ${i}`, slug: `hot-${i}` });
      names.push(body.data.createCategory.name);
    }
    expect(new Set(names).size).toBe(HOT_AFTER + 3);
  });
});
