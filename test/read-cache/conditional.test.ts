import fc from 'fast-check';
import { parse } from 'graphql';
import type { Principal } from '../../src/access/principal';
import { allScopePairs, toScopeObjects } from '../../src/access/scopes';
import { readTag } from '../../src/read-cache/etag';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * README "Conditional requests": a catalogue read carries a weak ETag made from the store's data
 * version and the operation; an If-None-Match naming the current tag is answered 304, without a
 * body and before anything runs, yet counted by the rate limit; a write through any API process
 * makes every process's tag stale at once; callers who may see differently never share a tag.
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
    const costRemaining = (res: Response) => Number(res.headers.get('x-cost-remaining'));
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
