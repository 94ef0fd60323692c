import fc from 'fast-check';
import { parse } from 'graphql';
import type { Principal } from '../../src/access/principal';
import { allScopePairs, toScopeObjects } from '../../src/access/scopes';
import { readTag } from '../../src/read-cache/etag';
import { makeKey, makeOrders, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { rpc } from '../mcp/client';

/**
 * README "Conditional requests": a versioned read — the catalogue, orders, customers, coupons,
 * reviews, store settings: what only writeStore changes — carries a weak ETag made from the store's
 * data version and the operation; an If-None-Match naming the current tag is answered 304, without
 * a body and before anything runs, yet counted by the rate limit; a write through any API process
 * makes every process's tag stale at once; callers who may see differently never share a tag. Other
 * reads (API keys, webhooks, analytics) get a tag of their data once they ran.
 */

let server: TestServer;
let second: TestServer;
let store: { id: string; key: string };
const statements: string[] = [];

const LIST = '/api/v1/product?limit=5';
const QUERY = '{ products(limit: 5) { items { id name } } }';

beforeAll(async () => {
  const env = { READ_CACHE_TTL_MS: '60000', RATE_LIMIT_MAX: '100000' };
  server = await startTestServer(env, { onQuery: (sql) => statements.push(sql) });
  // A second API process of the same deployment (its own cache, the same Redis and database).
  second = await startTestServer(env, { shareWith: server });
  store = await makeStoreWithKey(server.prisma);
  expect(
    (await server.send('POST', '/api/v1/product', { name: 'Runner', priceAmount: 5000 }, store.key)).status,
  ).toBe(201);
});
afterAll(async () => {
  await second.close();
  await server.close();
});

const get = (path: string, etag?: string, key = store.key, on = server) =>
  on.request(path, { key, headers: etag ? { 'if-none-match': etag } : {} });

/** The answer and how many SQL statements the first server sent for it. */
async function measured(run: () => Promise<Response>) {
  statements.length = 0;
  const res = await run();
  return { res, text: await res.text(), statements: statements.length };
}

describe('REST', () => {
  it('a current tag is answered 304 with no body and no SQL, counted by the rate limit, spending no cost budget', async () => {
    const first = await get(LIST);
    const etag = first.headers.get('etag') as string;
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    const again = await get(LIST);
    const cost = costRemaining(first) - costRemaining(again);
    expect(cost).toBeGreaterThan(0);
    const remaining = Number(again.headers.get('x-ratelimit-remaining'));
    const conditional = await measured(() => get(LIST, etag));
    expect({ status: conditional.res.status, body: conditional.text, sql: conditional.statements }).toEqual({
      status: 304,
      body: '',
      sql: 0,
    });
    expect(conditional.res.headers.get('etag')).toBe(etag);
    expect(Number(conditional.res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    // The next full answer shows what was spent: its own cost, nothing for the 304.
    const after = await get(LIST);
    expect(costRemaining(after)).toBe(costRemaining(again) - cost);
    expect(after.headers.get('etag')).toBe(etag);
    // A tag among others, and `*`, name it too; another tag does not.
    expect((await get(LIST, `W/"other", ${etag}`)).status).toBe(304);
    expect((await get(LIST, '*')).status).toBe(304);
    expect((await get(LIST, 'W/"other"')).status).toBe(200);
  });

  it('a write through another API process makes the tag stale at once on both', async () => {
    const etag = (await get(LIST)).headers.get('etag') as string;
    expect((await get(LIST, etag, store.key, second)).status).toBe(304);
    const write = await second.send('POST', '/api/v1/category', { name: 'Unrelated' }, store.key);
    expect(write.status).toBe(201);
    const fresh = await get(LIST, etag);
    expect(fresh.status).toBe(200);
    const newTag = fresh.headers.get('etag') as string;
    expect(newTag).not.toBe(etag);
    expect((await get(LIST, newTag, store.key, second)).status).toBe(304);
  });

  it('tags change with the read cache window, as remembered answers expire', async () => {
    const etag = (await get(LIST)).headers.get('etag') as string;
    server.clock.now = new Date(server.clock.now.getTime() + 60_000);
    const later = await get(LIST, etag);
    expect(later.status).toBe(200);
    expect(later.headers.get('etag')).not.toBe(etag);
  });

  it('never a 304 across callers who see differently: another scope set, another store, a caller lacking the scope', async () => {
    const etag = (await get(LIST)).headers.get('etag') as string;
    const readerOnly = (await makeKey(server.prisma, store.id, { scopes: toScopeObjects(['PRODUCTS:READ']) }))
      .secret;
    const reader = await get(LIST, etag, readerOnly);
    expect(reader.status).toBe(200);
    expect(reader.headers.get('etag')).not.toBe(etag);
    const other = await makeStoreWithKey(server.prisma);
    const elsewhere = await get(LIST, etag, other.key);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get('etag')).not.toBe(etag);
    const noProducts = (await makeKey(server.prisma, store.id, { scopes: toScopeObjects(['ORDERS:READ']) }))
      .secret;
    const refused = await get(LIST, etag, noProducts);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('etag')).toBeNull();
  });

  it('answers say they vary by caller; an error and a write carry no tag', async () => {
    const page = await get(LIST);
    expect(page.headers.get('vary')).toBe('Authorization, tt-api-key, Cookie');
    expect((await get('/api/v1/product/prd_missing')).headers.get('etag')).toBeNull();
    const write = await server.send('POST', '/api/v1/category', { name: 'Boots' }, store.key);
    expect(write.status).toBe(201);
    expect(write.headers.get('etag')).toBeNull();
  });
});

describe('GraphQL', () => {
  const post = (query: string, etag?: string) =>
    server.request('/graphql', {
      method: 'POST',
      key: store.key,
      headers: { 'content-type': 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
      body: JSON.stringify({ query }),
    });

  it('a query POST and GET: tagged, 304 for a current tag with no SQL; a mutation: no tag', async () => {
    const first = await post(QUERY);
    const etag = first.headers.get('etag') as string;
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^W\//);
    expect(first.headers.get('vary')).toBe('Accept, Authorization, tt-api-key, Cookie');
    const conditional = await measured(() => post(QUERY, etag));
    expect([conditional.res.status, conditional.text, conditional.statements]).toEqual([304, '', 0]);
    expect(conditional.res.headers.get('etag')).toBe(etag);
    const url = `/graphql?${new URLSearchParams({ query: QUERY })}`;
    const viaGet = await server.request(url, { key: store.key });
    const getTag = viaGet.headers.get('etag') as string;
    expect(viaGet.status).toBe(200);
    expect(getTag).toMatch(/^W\//);
    const getConditional = await measured(() =>
      server.request(url, { key: store.key, headers: { 'if-none-match': getTag } }),
    );
    expect([getConditional.res.status, getConditional.text, getConditional.statements]).toEqual([304, '', 0]);
    const mutation = await post(`mutation { createCategory(input: { name: "Hats" }) { id } }`, etag);
    expect(mutation.status).toBe(200);
    expect((await mutation.json()).errors).toBeUndefined();
    expect(mutation.headers.get('etag')).toBeNull();
    expect((await post(QUERY, etag)).status).toBe(200);
  });
});

const tagOf = (res: Response) => res.headers.get('etag') as string;
const costRemaining = (res: Response) => Number(res.headers.get('x-cost-remaining'));
const ask = (
  query: string,
  options: { etag?: string; key?: string; on?: TestServer; variables?: object } = {},
) =>
  (options.on ?? server).request('/graphql', {
    method: 'POST',
    key: options.key ?? store.key,
    headers: {
      'content-type': 'application/json',
      ...(options.etag ? { 'if-none-match': options.etag } : {}),
    },
    body: JSON.stringify({ query, variables: options.variables }),
  });
const askByGet = (query: string, etag?: string) =>
  server.request(`/graphql?${new URLSearchParams({ query })}`, {
    key: store.key,
    headers: etag ? { 'if-none-match': etag } : {},
  });
/** A write that changes none of the data the reads below show: a version tag goes stale, a data tag stays. */
let writes = 0;
const unrelatedWrite = async (on = server) =>
  expect(
    (await on.send('POST', '/api/v1/category', { name: `Unrelated ${++writes}` }, store.key)).status,
  ).toBe(201);

describe('orders, customers, coupons, reviews, store settings: the version tag, as the catalogue', () => {
  const ORDERS = '{ orders(limit: 5) { items { id number status totalAmount } } }';
  const ORDER_LIST = '/api/v1/order/vendor?limit=5';
  const CUSTOMER = 'query C($id: ID!) { customer(id: $id) { email orderCount } }';
  let orderId: string;
  let customerId: string;
  let productId: string;

  beforeAll(async () => {
    await makeOrders(server.prisma, store.id, 2, 1);
    // makeOrders numbered its orders from 1000: placed orders come after them.
    await server.prisma.store.update({ where: { id: store.id }, data: { nextOrderNumber: 2000 } });
    const order = await server.prisma.order.findFirstOrThrow({ where: { storeId: store.id } });
    orderId = order.id;
    customerId = order.customerId as string;
    const product = await server.send(
      'POST',
      '/api/v1/product',
      { name: 'Stocked', priceAmount: 700, stock: 100 },
      store.key,
    );
    productId = (await product.json()).data.id;
  });

  it('an orders page by REST: a version tag, 304 with no SQL, counted by the rate limit, spending no cost budget', async () => {
    const first = await get(ORDER_LIST);
    const etag = tagOf(first);
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    const again = await get(ORDER_LIST);
    const cost = costRemaining(first) - costRemaining(again);
    expect(cost).toBeGreaterThan(0);
    expect(tagOf(again)).toBe(etag);
    const remaining = Number(again.headers.get('x-ratelimit-remaining'));
    const conditional = await measured(() => get(ORDER_LIST, etag));
    expect([conditional.res.status, conditional.text, conditional.statements]).toEqual([304, '', 0]);
    expect(tagOf(conditional.res)).toBe(etag);
    expect(Number(conditional.res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(costRemaining(await get(ORDER_LIST))).toBe(costRemaining(again) - cost);
    // A version tag: a write of anything in the store makes it stale, though the page is the same.
    await unrelatedWrite();
    const after = await get(ORDER_LIST, etag);
    expect(after.status).toBe(200);
    expect(tagOf(after)).not.toBe(etag);
  });

  it('an orders page by GraphQL POST and GET: a version tag, 304 with no SQL, counted, spending no cost budget', async () => {
    const first = await ask(ORDERS);
    const etag = tagOf(first);
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    const again = await ask(ORDERS);
    expect(tagOf(again)).toBe(etag);
    const cost = costRemaining(first) - costRemaining(again);
    expect(cost).toBeGreaterThan(0);
    const remaining = Number(again.headers.get('x-ratelimit-remaining'));
    const conditional = await measured(() => ask(ORDERS, { etag }));
    expect([conditional.res.status, conditional.text, conditional.statements]).toEqual([304, '', 0]);
    expect(tagOf(conditional.res)).toBe(etag);
    expect(Number(conditional.res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(costRemaining(await ask(ORDERS))).toBe(costRemaining(again) - cost);
    const viaGet = await askByGet(ORDERS);
    const getTag = tagOf(viaGet);
    expect(viaGet.status).toBe(200);
    const byGet = await measured(() => askByGet(ORDERS, getTag));
    expect([byGet.res.status, byGet.text, byGet.statements]).toEqual([304, '', 0]);
    expect((await ask(ORDERS, { etag: `W/"other", ${etag}` })).status).toBe(304);
    expect((await ask(ORDERS, { etag: '*' })).status).toBe(304);
    expect((await ask(ORDERS, { etag: 'W/"other"' })).status).toBe(200);
  });

  it('placing an order (REST) or cancelling one (GraphQL) on another API process makes the tag stale at once on both', async () => {
    const restTag = tagOf(await get(ORDER_LIST));
    const graphTag = tagOf(await ask(ORDERS));
    expect((await get(ORDER_LIST, restTag, store.key, second)).status).toBe(304);
    expect((await ask(ORDERS, { etag: graphTag, on: second })).status).toBe(304);
    const placed = await second.send(
      'POST',
      '/api/v1/order',
      { email: 'buyer@example.test', items: [{ productId, quantity: 1 }] },
      store.key,
    );
    expect(placed.status).toBe(201);
    const placedId = (await placed.json()).data.id;
    const fresh = await get(ORDER_LIST, restTag);
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toContain(placedId);
    const restAfterPlacing = tagOf(fresh);
    expect(restAfterPlacing).not.toBe(restTag);
    expect((await get(ORDER_LIST, restAfterPlacing, store.key, second)).status).toBe(304);
    expect((await ask(ORDERS, { etag: graphTag, on: second })).status).toBe(200);

    const graphBefore = tagOf(await ask(ORDERS, { on: second }));
    const cancel = await ask(`mutation { cancelOrder(id: "${orderId}") { status } }`, { on: second });
    expect((await cancel.json()).data.cancelOrder.status).toBe('cancelled');
    expect(cancel.headers.get('etag')).toBeNull();
    const cancelled = await ask(ORDERS, { etag: graphBefore });
    expect(cancelled.status).toBe(200);
    const graphAfter = tagOf(cancelled);
    expect(graphAfter).not.toBe(graphBefore);
    expect((await ask(ORDERS, { etag: graphAfter, on: second })).status).toBe(304);
    expect((await get(ORDER_LIST, restAfterPlacing)).status).toBe(200);
  });

  it('a customer query with variables: tagged per variables, 304 with no SQL for its own tag only', async () => {
    const mine = await ask(CUSTOMER, { variables: { id: customerId } });
    expect((await mine.json()).data.customer.orderCount).toBe(2);
    const etag = tagOf(mine);
    expect(etag).toMatch(/^W\//);
    const conditional = await measured(() => ask(CUSTOMER, { variables: { id: customerId }, etag }));
    expect([conditional.res.status, conditional.statements]).toEqual([304, 0]);
    const other = await ask(CUSTOMER, { variables: { id: 'cus_missing' }, etag });
    expect(other.status).toBe(200);
    expect(tagOf(other)).not.toBe(etag);
  });

  it('customers, coupons, reviews and store settings by REST, and a query of several of them: 304 with no SQL', async () => {
    const several =
      '{ storeSettings { name } coupons(limit: 2) { items { code } } reviews { items { id } } }';
    const reads = [
      ...[
        '/api/v1/customer?limit=3',
        '/api/v1/coupon?limit=3',
        '/api/v1/review?limit=3',
        '/api/v1/store/settings',
      ].map((path) => (etag?: string) => get(path, etag)),
      (etag?: string) => ask(several, { etag }),
    ];
    for (const read of reads) {
      const first = await read();
      expect(first.status).toBe(200);
      const etag = tagOf(first);
      expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
      const conditional = await measured(() => read(etag));
      expect([conditional.res.status, conditional.statements]).toEqual([304, 0]);
    }
  });

  it('another scope set or another store never gets the tag of the same data; the same rights do', async () => {
    const full = await ask(ORDERS);
    const etag = tagOf(full);
    const data = (await full.json()).data;
    const orderReader = (await makeKey(server.prisma, store.id, { scopes: toScopeObjects(['ORDERS:READ']) }))
      .secret;
    const narrow = await ask(ORDERS, { key: orderReader, etag });
    expect(narrow.status).toBe(200);
    expect((await narrow.json()).data).toEqual(data);
    expect(tagOf(narrow)).not.toBe(etag);
    const restNarrow = await get(ORDER_LIST, tagOf(await get(ORDER_LIST)), orderReader);
    expect(restNarrow.status).toBe(200);
    // Two empty stores: the same data, never the same tag.
    const [a, b] = [await makeStoreWithKey(server.prisma), await makeStoreWithKey(server.prisma)];
    const [inA, inB] = [await ask(ORDERS, { key: a.key }), await ask(ORDERS, { key: b.key })];
    expect((await inA.json()).data).toEqual((await inB.json()).data);
    expect(tagOf(inA)).toMatch(/^W\//);
    expect(tagOf(inA)).not.toBe(tagOf(inB));
    expect((await ask(ORDERS, { key: b.key, etag: tagOf(inA) })).status).toBe(200);
    // A second key of the same store with the same scopes sees the same: the same tag.
    const twin = (await makeKey(server.prisma, store.id)).secret;
    expect((await ask(ORDERS, { key: twin, etag })).status).toBe(304);
  });

  it('an answer with errors carries no tag, nor a 406; nor does MCP', async () => {
    const productReader = (
      await makeKey(server.prisma, store.id, { scopes: toScopeObjects(['PRODUCTS:READ']) })
    ).secret;
    const refused = await ask(ORDERS, { key: productReader });
    expect((await refused.json()).errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(refused.headers.get('etag')).toBeNull();
    const partial = await ask(`{ category(id: "nope") { id } orders(limit: 1) { items { id } } }`);
    const answer = await partial.json();
    expect([partial.status, answer.errors.length, answer.data.orders.items.length]).toEqual([200, 1, 1]);
    expect(partial.headers.get('etag')).toBeNull();
    // An Accept no JSON answer serves: yoga's 406, with no tag and no 304, whatever the tag.
    const etag = tagOf(await ask(ORDERS));
    for (const conditional of [{}, { 'if-none-match': etag }] as Record<string, string>[]) {
      const notAcceptable = await server.request(`/graphql?${new URLSearchParams({ query: ORDERS })}`, {
        key: store.key,
        headers: { accept: 'application/xml', ...conditional },
      });
      expect([notAcceptable.status, notAcceptable.headers.get('etag')]).toEqual([406, null]);
    }
    const mcp = await rpc(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_orders', arguments: {} } },
      { key: store.key },
    );
    expect(mcp.status).toBe(200);
    expect(JSON.stringify(await mcp.json())).toContain(orderId);
    expect(mcp.headers.get('etag')).toBeNull();
  });
});

describe("reads no version vouches for (API keys, webhook endpoints, analytics): a tag of the answer's data", () => {
  const NOT_VERSIONED = [
    '{ apiKeys(limit: 5) { items { keyId keyName } } }',
    '{ webhookEndpoints(limit: 5) { items { id url } } }',
    '{ analyticsSummary { ordersCount currency } }',
  ];

  it.each(NOT_VERSIONED)('%s: its tag is of its data, made after it ran', async (query) => {
    const first = await ask(query);
    expect(first.status).toBe(200);
    expect((await first.json()).errors).toBeUndefined();
    const etag = tagOf(first);
    expect(etag).toMatch(/^W\//);
    const again = await ask(query);
    const cost = costRemaining(first) - costRemaining(again);
    expect(cost).toBeGreaterThan(0);
    const remaining = Number(again.headers.get('x-ratelimit-remaining'));
    // The query ran before its tag was known: SQL was sent and its cost spent, the bytes saved.
    const conditional = await measured(() => ask(query, { etag }));
    expect([conditional.res.status, conditional.text]).toEqual([304, '']);
    expect(conditional.statements).toBeGreaterThan(0);
    expect(Number(conditional.res.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    expect(costRemaining(conditional.res)).toBe(costRemaining(again) - cost);
    // A data tag: a write that leaves the answer's data as it was leaves its tag too.
    await unrelatedWrite();
    expect((await ask(query, { etag })).status).toBe(304);
    // And a query mixing it with a versioned field is not versioned either.
    const mixed = `{ orders(limit: 1) { items { id } } ${query.slice(1)}`;
    const mixedTag = tagOf(await ask(mixed));
    await unrelatedWrite();
    const mixedAgain = await measured(() => ask(mixed, { etag: mixedTag }));
    expect([mixedAgain.res.status, mixedAgain.statements > 0]).toEqual([304, true]);
  });

  it('REST: express-style tags of the bytes, after the read ran', async () => {
    const path = '/api/v1/analytics/summary?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z';
    // express's `fresh` reads a request's Cache-Control: no-cache (which fetch adds to a conditional
    // request) as "never 304": the header is set to something else here.
    const conditionalGet = (etag: string) =>
      server.request(path, {
        key: store.key,
        headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' },
      });
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = tagOf(first);
    expect(etag).toMatch(/^W\/"[0-9a-f]+-/);
    const conditional = await measured(() => conditionalGet(etag));
    expect([conditional.res.status, conditional.statements > 0]).toEqual([304, true]);
    await unrelatedWrite();
    expect((await conditionalGet(etag)).status).toBe(304);
  });

  it('a catalogue query no version vouches for (READ_CACHE_TTL_MS=0) is tagged by its data instead', async () => {
    const uncached = await startTestServer({ READ_CACHE_TTL_MS: '0' }, { shareWith: server });
    try {
      const first = await ask(QUERY, { on: uncached });
      const etag = tagOf(first);
      expect(etag).toMatch(/^W\//);
      expect(etag).not.toBe(tagOf(await ask(QUERY)));
      expect((await ask(QUERY, { on: uncached, etag })).status).toBe(304);
      // A write that leaves the answer's data as it was leaves its tag too.
      expect(
        (await ask('mutation { createCategory(input: { name: "Socks" }) { id } }', { on: uncached })).status,
      ).toBe(200);
      expect((await ask(QUERY, { on: uncached, etag })).status).toBe(304);
    } finally {
      await uncached.close();
    }
  });
});

describe('the tag', () => {
  const document = parse(QUERY);
  const pairs = allScopePairs();
  const principal = fc.record({
    storeId: fc.constantFrom('store_a', 'store_b'),
    kind: fc.constantFrom('apiKey' as const, 'session' as const),
    plan: fc.constantFrom('PRO' as const, 'SCALE' as const),
    scopes: fc.subarray(pairs, { minLength: 1, maxLength: 6 }).map((list) => new Set(list)),
  });
  const shapeOf = (p: { storeId: string; kind: string; plan: string; scopes: Set<string> }) =>
    `${p.storeId} ${p.kind} ${p.plan} ${[...p.scopes].sort().join(',')}`;

  it('is the same for callers who see the same, and differs whenever store, kind, plan or rights differ', () => {
    const operation = { door: 'rest', document, operationName: undefined, variables: '{}' };
    fc.assert(
      fc.property(principal, principal, (a, b) => {
        const tagA = readTag(`${a.storeId}\nv1\n0`, a as unknown as Principal, operation);
        const tagB = readTag(`${b.storeId}\nv1\n0`, b as unknown as Principal, operation);
        expect(tagA === tagB).toBe(shapeOf(a) === shapeOf(b));
      }),
    );
  });
});
