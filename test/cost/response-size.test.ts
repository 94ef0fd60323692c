import { getOperationAST, parse } from 'graphql';
import { measureAnswer } from '../../src/cost/query-cost';
import { makeCategories, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { callTool, connectMcp, textOf } from '../mcp/client';

/**
 * README "Query limits and cost": a query whose answer is longer than GRAPHQL_MAX_RESPONSE_BYTES
 * is answered RESPONSE_TOO_LARGE instead, on every door, before the answer is written; a mutation's
 * answer is always sent (its change is made).
 */

const CAP = 4096;
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ GRAPHQL_MAX_RESPONSE_BYTES: String(CAP) });
  const store = await makeStoreWithKey(server.prisma);
  key = store.key;
  // 60 categories with 60-character names: a page of all of them is over 4 kB, one is not.
  await makeCategories(
    server.prisma,
    store.id,
    Array.from({ length: 60 }, (_, i) => `Category ${String(i).padStart(2, '0')} ${'x'.repeat(48)}`),
  );
});
afterAll(() => server.close());

const graphql = (query: string) =>
  server.request('/graphql', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });

describe('the response size cap', () => {
  it('GraphQL: a query over it is 400 RESPONSE_TOO_LARGE with the cap and the length; a small one passes', async () => {
    const big = await graphql('{ categories(limit: 100) { items { id name } } }');
    expect(big.status).toBe(400);
    const body = await big.json();
    expect(body.data).toBeUndefined();
    expect(body.errors[0].extensions).toEqual({
      code: 'RESPONSE_TOO_LARGE',
      status: 400,
      measure: 'responseBytes',
      limit: CAP,
      value: expect.any(Number),
    });
    expect(body.errors[0].extensions.value).toBeGreaterThan(CAP);
    expect(body.extensions.cost.actualQueryCost).toBe(61);

    const small = await graphql('{ categories(limit: 5) { items { id name } } }');
    expect(small.status).toBe(200);
    expect((await small.json()).data.categories.items).toHaveLength(5);
  });

  it('REST: the same route is the error envelope over it, and the page under it', async () => {
    const big = await server.request('/api/v1/category?limit=100', { key });
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ success: false, status: 400, code: 'RESPONSE_TOO_LARGE' });
    const small = await server.request('/api/v1/category?limit=5', { key });
    expect(small.status).toBe(200);
  });

  it('MCP: a tool error naming the code', async () => {
    const session = await connectMcp(server, key);
    try {
      const big = await callTool(session.client, 'list_categories', { limit: 100 });
      expect(big.isError).toBe(true);
      expect(textOf(big)).toMatch(/RESPONSE_TOO_LARGE/);
      expect((await callTool(session.client, 'list_categories', { limit: 5 })).isError).toBeFalsy();
    } finally {
      await session.close();
    }
  });

  it('a mutation answer is sent whatever its length: the change is made', async () => {
    const res = await graphql(
      `mutation { createCategory(input: { name: "Long", description: "${'y'.repeat(4900)}" }) { id description } }`,
    );
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    expect(res.status).toBe(200);
    expect(body.data.createCategory.description).toHaveLength(4900);
  });
});

describe('the measured length', () => {
  it('is the length of the JSON text of the data, without writing it', () => {
    const data = {
      a: {
        items: [
          { x: 1, s: 'two', n: null, b: true, e: [], o: {} },
          { x: -2.5, s: '', n: null },
        ],
      },
      z: [],
    };
    const operation = getOperationAST(parse('{ a }'));
    expect(measureAnswer(data, operation ?? undefined).jsonLength).toBe(JSON.stringify(data).length);
  });
});
