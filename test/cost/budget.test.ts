import { makeCategories, makeKey, makeProducts, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { rpc } from '../mcp/client';

/**
 * Issue 19 item 5: beside the 140 requests a minute, each key (and each signed-in staff member)
 * has a budget of query cost per window, charged with the cost the pipeline computes for every
 * door, shown in X-Cost-Limit / X-Cost-Remaining, and refused with 429 COST_LIMIT_EXCEEDED and
 * Retry-After once spent — exact in Redis, and per process without it. The stores here hold full
 * pages, so each answer costs what it asked for (issue 32: the difference would be given back;
 * test/cost/refund.test.ts).
 */
const BUDGET = 300;
const expensive = '{ products(limit: 100) { items { id name } } }';

describe.each([
  ['in Redis', undefined],
  ['in one process without Redis', null],
] as const)('the query cost budget %s', (_where, redis) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { COST_BUDGET_POINTS: String(BUDGET), COST_BUDGET_WINDOW_SECONDS: '60', RATE_LIMIT_MAX: '1000' },
      redis === null ? { redis: null } : {},
    );
  });
  afterAll(() => server.close());

  it('charges each request its requested cost, refuses the one that does not fit, and refills with the window', async () => {
    const store = await makeStore(server.prisma);
    await makeProducts(server.prisma, store.id, 100);
    const { secret: key } = await makeKey(server.prisma, store.id);
    const first = await server.graphql(expensive, {}, key);
    expect(first.status).toBe(200);
    const cost = ((await first.json()) as { extensions: { cost: { requestedQueryCost: number } } }).extensions
      .cost.requestedQueryCost;
    expect(cost).toBeGreaterThan(100);
    expect(first.headers.get('x-cost-limit')).toBe(String(BUDGET));
    expect(first.headers.get('x-cost-remaining')).toBe(String(BUDGET - cost));

    // Spend until the next one no longer fits
    let remaining = BUDGET - cost;
    while (remaining >= cost) {
      const res = await server.graphql(expensive, {}, key);
      expect(res.status).toBe(200);
      remaining -= cost;
      expect(res.headers.get('x-cost-remaining')).toBe(String(remaining));
    }
    const refused = await server.graphql(expensive, {}, key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-cost-remaining')).toBe(String(remaining));
    const body = (await refused.json()) as {
      data?: unknown;
      errors: Array<{ extensions: { code: string } }>;
      extensions: { cost: { budget: { limit: number; remaining: number } } };
    };
    expect(body.data).toBeUndefined();
    expect(body.errors[0]?.extensions.code).toBe('COST_LIMIT_EXCEEDED');
    expect(body.extensions.cost.budget).toEqual({ limit: BUDGET, remaining, windowSeconds: 60 });

    // REST spends the same budget: a page of 100 does not fit either, one of 1 still does
    const page = await server.request('/api/v1/product?limit=100', { key });
    expect(page.status).toBe(429);
    expect(await page.json()).toEqual(expect.objectContaining({ status: 429, code: 'COST_LIMIT_EXCEEDED' }));
    expect(page.headers.get('retry-after')).not.toBeNull();
    expect((await server.request('/api/v1/category?limit=1', { key })).status).toBe(200);

    // Another key of the same store has a budget of its own
    const other = await makeKey(server.prisma, store.id);
    expect((await server.graphql(expensive, {}, other.secret)).status).toBe(200);

    // A window later the points are back
    server.clock.now = new Date(server.clock.now.getTime() + 61_000);
    expect((await server.graphql(expensive, {}, key)).status).toBe(200);
  });

  it("gives back each request's points when that request leaves the window, not before", async () => {
    const store = await makeStore(server.prisma);
    await makeProducts(server.prisma, store.id, 100);
    const { secret: key } = await makeKey(server.prisma, store.id);
    const cheap = '{ products(limit: 10) { items { id } } }';
    const costOf = async (res: Response) =>
      ((await res.json()) as { extensions: { cost: { requestedQueryCost: number } } }).extensions.cost
        .requestedQueryCost;
    const start = server.clock.now.getTime();
    const big = await costOf(await server.graphql(expensive, {}, key));
    server.clock.now = new Date(start + 30_000);
    const small = await server.graphql(cheap, {}, key);
    const smallCost = await costOf(small);
    expect(small.headers.get('x-cost-remaining')).toBe(String(BUDGET - big - smallCost));
    // 61 s after the first: it has left, the second has not
    server.clock.now = new Date(start + 61_000);
    const later = await server.graphql(cheap, {}, key);
    expect(later.headers.get('x-cost-remaining')).toBe(String(BUDGET - 2 * smallCost));
    // 92 s after the first: only the third is left
    server.clock.now = new Date(start + 92_000);
    const last = await server.graphql(cheap, {}, key);
    expect(last.headers.get('x-cost-remaining')).toBe(String(BUDGET - 2 * smallCost));
  });
});

/** What an answer says is left of the budget. */
const remainingOf = (res: Response) => Number(res.headers.get('x-cost-remaining'));

describe.each([
  ['in Redis', undefined],
  ['in one process without Redis', null],
] as const)('the query cost budget of REST writes and MCP tool calls %s', (_where, redis) => {
  const POINTS = 1000;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { COST_BUDGET_POINTS: String(POINTS), COST_BUDGET_WINDOW_SECONDS: '60', RATE_LIMIT_MAX: '1000' },
      redis === null ? { redis: null } : {},
    );
  });
  afterAll(() => server.close());

  it('charges a REST write its cost, not one whose body is refused, and refuses it with 429 once it no longer fits', async () => {
    const store = await makeStore(server.prisma);
    await makeCategories(server.prisma, store.id, ['Clothes']);
    const parent = await server.prisma.category.findFirstOrThrow({ where: { storeId: store.id } });
    await makeProducts(server.prisma, store.id, 100, parent.id);
    const { secret: key } = await makeKey(server.prisma, store.id);
    const write = (name: string) =>
      server.send('POST', '/api/v1/category', { name, parentId: parent.id }, key);
    const created = await write('Coats');
    expect(created.status).toBe(201);
    expect(created.headers.get('x-cost-limit')).toBe(String(POINTS));
    const cost = POINTS - remainingOf(created);
    // A mutation's root field costs 10 more than the object it answers: the category (1) and its
    // parent (1), a relation of the REST item
    expect(cost).toBe(12);

    // Nothing of a write whose body is refused ran: it is not charged
    const malformed = await server.request('/api/v1/category', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: '{"name":',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-cost-remaining')).toBeNull();

    let remaining = POINTS - cost;
    for (let page = await server.request('/api/v1/product?limit=100', { key }); page.status === 200; ) {
      expect(remainingOf(page)).toBeLessThan(remaining);
      remaining = remainingOf(page);
      page = await server.request('/api/v1/product?limit=100', { key });
    }
    for (let n = 0; remaining >= cost; n++) {
      const fits = await write(`Hats ${n}`);
      expect(fits.status).toBe(201);
      expect(remainingOf(fits)).toBe(remaining - cost);
      remaining -= cost;
    }
    const refused = await write('Gloves');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual(
      expect.objectContaining({ status: 429, code: 'COST_LIMIT_EXCEEDED' }),
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(remainingOf(refused)).toBe(remaining);
    expect(await server.prisma.category.count({ where: { storeId: store.id, name: 'Gloves' } })).toBe(0);
  });

  it('charges each MCP tool call its cost, and answers a call that no longer fits with a tool error', async () => {
    const store = await makeStore(server.prisma);
    await makeCategories(server.prisma, store.id, ['Clothes']);
    const category = await server.prisma.category.findFirstOrThrow({ where: { storeId: store.id } });
    await makeProducts(server.prisma, store.id, 100, category.id);
    const { secret: key } = await makeKey(server.prisma, store.id);
    const call = (id: number, limit: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'list_products', arguments: { limit } },
    });
    type Answer = {
      id: number;
      result: { isError?: boolean; structuredContent?: { error?: { code: string; status: number } } };
    };
    const first = await rpc(server, call(1, 100), { key });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cost-limit')).toBe(String(POINTS));
    expect(((await first.json()) as Answer).result.isError).toBeUndefined();
    const cost = POINTS - remainingOf(first);
    expect(cost).toBe(202);

    // A batch of four: each call is charged on its own; three fit, the fourth is a tool error
    const batch = await rpc(server, [call(2, 100), call(3, 100), call(4, 100), call(5, 100)], { key });
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Answer[];
    const refused = answers.filter((answer) => answer.result.isError);
    expect(answers).toHaveLength(4);
    expect(refused.map((answer) => answer.result.structuredContent?.error)).toEqual([
      expect.objectContaining({ code: 'COST_LIMIT_EXCEEDED', status: 429 }),
    ]);
    expect(remainingOf(batch)).toBe(POINTS - 4 * cost);
    // A cheaper call still fits
    const small = await rpc(server, call(6, 1), { key });
    expect(((await small.json()) as Answer).result.isError).toBeUndefined();
    expect(remainingOf(small)).toBeLessThan(POINTS - 4 * cost);
  });
});

describe('no budget', () => {
  it('COST_BUDGET_POINTS=0 charges nothing and sends no X-Cost headers', async () => {
    const server = await startTestServer({ COST_BUDGET_POINTS: '0' });
    try {
      const store = await makeStore(server.prisma);
      const { secret } = await makeKey(server.prisma, store.id);
      const res = await server.graphql(expensive, {}, secret);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cost-limit')).toBeNull();
    } finally {
      await server.close();
    }
  });
});
