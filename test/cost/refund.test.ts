import { makeKey, makeOrders, makeProducts, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { rpc } from '../mcp/client';

/**
 * Issue 32 item 3: the requested cost is reserved before execution and the difference to the
 * actual cost given back after it, so X-Cost-Remaining (and extensions.cost) say what is left after
 * the refund; a request whose requested cost does not fit is still refused up front.
 */
type Cost = { requestedQueryCost: number; actualQueryCost: number; budget?: { remaining: number } };
const costOf = async (res: Response) =>
  ((await res.json()) as { extensions: { cost: Cost } }).extensions.cost;
const remainingOf = (res: Response) => Number(res.headers.get('x-cost-remaining'));

/** The objects in an answer's data: what its actual cost counts (a query's: no mutation's 10). */
function objectsIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + objectsIn(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Object.values(value).reduce((sum: number, item) => sum + objectsIn(item), 0);
}

describe('under the default budget (50,000 points a minute)', () => {
  const BUDGET = 50_000;
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ COST_BUDGET_POINTS: String(BUDGET), COST_BUDGET_WINDOW_SECONDS: '60' });
    const store = await makeStore(server.prisma);
    await makeOrders(server.prisma, store.id, 100, 2);
    key = (await makeKey(server.prisma, store.id)).secret;
  });
  afterAll(() => server.close());

  it('reads pages of 100 orders with two lines each many times a minute, each charged the objects it returned', async () => {
    const page =
      '{ orders(limit: 100) { items { id number customer { id email } items { id name quantity } } } }';
    const first = await server.graphql(page, {}, key);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { data: unknown; extensions: { cost: Cost } };
    const { requestedQueryCost: requested, actualQueryCost: actual } = body.extensions.cost;
    // `data` itself is no object the query asked for
    expect(actual).toBe(objectsIn(body.data) - 1);
    // A page of 100 orders with their customer and up to 100 lines is asked for; far less comes back
    expect(requested).toBeGreaterThan(BUDGET / 5);
    expect(actual).toBeLessThan(requested / 20);
    expect(remainingOf(first)).toBe(BUDGET - actual);

    // The assistant: list_orders, a page of 100, more than the four calls a minute the
    // requested cost alone allowed
    const listOrders = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'list_orders', arguments: { limit: 100 } },
    });
    let remaining = remainingOf(first);
    let spentByCall: number | undefined;
    for (let call = 1; call <= 12; call++) {
      const res = await rpc(server, listOrders(call), { key });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { result: { isError?: boolean } };
      expect(answer.result.isError).toBeUndefined();
      spentByCall ??= remaining - remainingOf(res);
      expect(remainingOf(res)).toBe(remaining - spentByCall);
      remaining = remainingOf(res);
    }
    expect(spentByCall).toBeLessThan(requested / 20);
  });
});

describe.each([
  ['in Redis', undefined],
  ['in one process without Redis', null],
] as const)('reserve and refund through the doors %s', (_where, redis) => {
  const BUDGET = 1000;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {
        COST_BUDGET_POINTS: String(BUDGET),
        COST_BUDGET_WINDOW_SECONDS: '60',
        RATE_LIMIT_MAX: '1000',
        READ_CACHE_TTL_MS: '60000',
      },
      redis === null ? { redis: null } : {},
    );
  });
  afterAll(() => server.close());
  const fullPage = '{ products(limit: 100) { items { id name } } }';

  it('still refuses a document that really returns its requested cost once the budget is spent', async () => {
    const store = await makeStore(server.prisma);
    await makeProducts(server.prisma, store.id, 100);
    const { secret: key } = await makeKey(server.prisma, store.id);
    let remaining = BUDGET;
    let cost: Cost | undefined;
    for (;;) {
      const res = await server.graphql(fullPage, {}, key);
      if (res.status !== 200) {
        expect(res.status).toBe(429);
        expect(remainingOf(res)).toBe(remaining);
        const refused = (await res.json()) as {
          errors: Array<{ extensions: { code: string } }>;
          extensions: { cost: Cost };
        };
        expect(refused.errors[0]?.extensions.code).toBe('COST_LIMIT_EXCEEDED');
        expect(refused.extensions.cost.budget?.remaining).toBe(remaining);
        break;
      }
      cost = await costOf(res);
      expect(cost.actualQueryCost).toBe(cost.requestedQueryCost);
      remaining -= cost.actualQueryCost;
      expect(remainingOf(res)).toBe(remaining);
    }
    expect(cost).toBeDefined();
    expect(remaining).toBeLessThan(cost?.requestedQueryCost ?? 0);
    const requested = cost?.requestedQueryCost ?? 0;
    expect(BUDGET - remaining).toBe(Math.floor(BUDGET / requested) * requested);
  });

  it('gives back what an answer did not use, on every door and for an answer from the read cache, and still refuses up front what does not fit', async () => {
    const store = await makeStore(server.prisma);
    await makeProducts(server.prisma, store.id, 3);
    const { secret: key } = await makeKey(server.prisma, store.id);
    const res = await server.graphql(fullPage, {}, key);
    const cost = await costOf(res);
    expect(cost.actualQueryCost).toBe(1 + 3);
    expect(cost.requestedQueryCost).toBeGreaterThan(100);
    let remaining = BUDGET - cost.actualQueryCost;
    expect(remainingOf(res)).toBe(remaining);
    // extensions.cost.budget says what the header says: the balance after the refund
    expect(cost.budget?.remaining).toBe(remaining);

    // The same read again, answered by the read cache: charged what it returns, as a fresh one is,
    // and the answer carries this caller's balance, not the one of the answer it was remembered from
    const cached = await server.graphql(fullPage, {}, key);
    const cachedCost = await costOf(cached);
    remaining -= cost.actualQueryCost;
    expect(remainingOf(cached)).toBe(remaining);
    expect(cachedCost).toEqual({ ...cost, budget: { ...cost.budget, remaining } });
    // Another key of the store, answered from the same remembered read: its own, untouched budget
    const other = (await makeKey(server.prisma, store.id)).secret;
    const othersCost = await costOf(await server.graphql(fullPage, {}, other));
    expect(othersCost.budget?.remaining).toBe(BUDGET - cost.actualQueryCost);
    // yoga's path of /graphql (a GET) carries it the same way
    const viaGet = await server.request(`/graphql?query=${encodeURIComponent(fullPage)}`, { key });
    expect(viaGet.status).toBe(200);
    remaining -= cost.actualQueryCost;
    expect(remainingOf(viaGet)).toBe(remaining);
    expect((await costOf(viaGet)).budget?.remaining).toBe(remaining);

    // REST and MCP give back the same way: a page of 100 that holds three products
    const before = remaining;
    const page = await server.request('/api/v1/product?limit=100', { key });
    expect(page.status).toBe(200);
    expect(remainingOf(page)).toBeLessThan(before);
    expect(before - remainingOf(page)).toBeLessThan(cost.requestedQueryCost / 10);
    remaining = remainingOf(page);
    const tool = await rpc(
      server,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'list_products', arguments: { limit: 100 } },
      },
      { key },
    );
    expect(tool.status).toBe(200);
    expect(before - remaining).toBe(remaining - remainingOf(tool));
    remaining = remainingOf(tool);

    // A request is refused with its requested cost, before it runs, however little it would return
    const tenPages = `{ ${Array.from({ length: 10 }, (_, i) => `p${i}: products(limit: 100) { items { id name } }`).join(' ')} }`;
    expect(10 * cost.requestedQueryCost).toBeGreaterThan(remaining);
    expect(10 * cost.actualQueryCost).toBeLessThan(remaining);
    const refused = await server.graphql(tenPages, {}, key);
    expect(refused.status).toBe(429);
    expect(remainingOf(refused)).toBe(remaining);
  });
});
