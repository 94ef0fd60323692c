import type { Redis } from 'ioredis';
import { toScopeObjects } from '../../src/access/scopes';
import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import { storeKey } from '../../src/redis-keys';
import { redisUrl } from '../helpers/databases';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { ready } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * README "Read cache": a catalogue read is answered from the API process's memory while the store's
 * data version in Redis is unchanged, and every mutation of the store replaces that version before
 * it answers — so no answer ever predates a write that was acknowledged, in any API process.
 */

let server: TestServer;
let second: TestServer;
let store: { id: string; key: string };
const statements: string[] = [];

const LIST = '/api/v1/product?limit=25';
const GRAPHQL_LIST =
  '{ products(limit: 25) { items { id name stock category { name } } pagination { totalResults } } }';

beforeAll(async () => {
  const cacheOn = {
    READ_CACHE_TTL_MS: '60000',
    RATE_LIMIT_MAX: '100000',
    // No cost budget: a GraphQL answer would carry the caller's balance after it, and these compare
    // a remembered answer's bytes with the fresh one's (test/cost/refund.test.ts checks the balance).
    COST_BUDGET_POINTS: '0',
    CORS_ORIGINS: 'https://shop.example',
  };
  server = await startTestServer(cacheOn, { onQuery: (sql) => statements.push(sql) });
  // A second API process of the same deployment, with a cache of its own.
  second = await startTestServer(cacheOn, { shareWith: server });
  store = await makeStoreWithKey(server.prisma);
  const category = await create('/api/v1/category', { name: 'Shoes' });
  await create('/api/v1/product', { name: 'Runner', priceAmount: 5000, stock: 7, categoryId: category.id });
  await create('/api/v1/product', { name: 'Trail', priceAmount: 7000, stock: 3 });
});
afterAll(async () => {
  await second.close();
  await server.close();
});

async function create(path: string, body: unknown, key = store.key) {
  const res = await server.send('POST', path, body, key);
  expect(res.status).toBe(201);
  return (await res.json()).data;
}

/** The request's answer and how many SQL statements the first server sent for it. */
async function measured(run: () => Promise<Response>) {
  statements.length = 0;
  const res = await run();
  return { res, text: await res.text(), statements: statements.length };
}

const rest =
  (path = LIST, key = store.key, on = server) =>
  () =>
    on.request(path, { key });
const graphql =
  (query = GRAPHQL_LIST, key = store.key, on = server) =>
  () =>
    on.graphql(query, {}, key);
const names = (text: string) => (JSON.parse(text).data as Array<{ name: string }>).map((p) => p.name).sort();

describe('repeated catalogue reads', () => {
  it('REST: the second identical list is answered without SQL, byte for byte, with the same headers', async () => {
    const first = await measured(rest());
    const again = await measured(rest());
    expect(first.res.status).toBe(200);
    expect(first.statements).toBeGreaterThan(0);
    expect(again.statements).toBe(0);
    expect(again.text).toBe(first.text);
    for (const header of ['content-type', 'content-length', 'etag', 'x-ratelimit-limit'])
      expect(again.res.headers.get(header)).toBe(first.res.headers.get(header));
    expect(Number(again.res.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.res.headers.get('x-ratelimit-remaining')) - 1,
    );
  });

  it("REST: a conditional GET with the page's ETag is 304 without a body, remembered or not; HEAD has no body", async () => {
    const page = await rest()();
    const etag = page.headers.get('etag') as string;
    expect(etag).toMatch(/^W\/"/);
    const conditional = () => server.request(LIST, { key: store.key, headers: { 'if-none-match': etag } });
    const remembered = await measured(conditional);
    expect({
      status: remembered.res.status,
      text: remembered.text,
      statements: remembered.statements,
    }).toEqual({
      status: 304,
      text: '',
      statements: 0,
    });
    expect(remembered.res.headers.get('etag')).toBe(etag);
    // Another API process of the deployment, its cache empty: the same tag, so 304 too.
    expect((await second.request(LIST, { key: store.key, headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    // Any mutation of the store, even one that leaves its products as they were: a new data version,
    // so a new tag (README "Conditional requests": the tag follows the version, not the bytes).
    await create('/api/v1/customer', { email: 'etag@example.test' });
    const rerun = await measured(conditional);
    expect(rerun.res.status).toBe(200);
    expect(rerun.text).toBe(await page.text());
    const current = rerun.res.headers.get('etag') as string;
    expect(current).not.toBe(etag);
    const head = await server.request(LIST, { key: store.key, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(current);
    expect(await head.text()).toBe('');
    // A process that caches nothing tags the page by its bytes (no version vouches for it there).
    const off = await startTestServer({ READ_CACHE_TTL_MS: '0' }, { shareWith: server });
    try {
      const plain = await off.request(LIST, { key: store.key });
      const bytesTag = plain.headers.get('etag') as string;
      expect(bytesTag).toMatch(/^W\/"[0-9a-f]+-/);
      expect(plain.headers.get('content-type')).toBe(page.headers.get('content-type'));
      const again = await off.request(LIST, {
        key: store.key,
        // express's rule for the tags it checks: a request's no-cache asks for the whole page.
        headers: { 'if-none-match': bytesTag, 'cache-control': 'max-age=0' },
      });
      expect(again.status).toBe(304);
    } finally {
      await off.close();
    }
  });

  it('GraphQL: the same, with the media type yoga negotiates', async () => {
    const first = await measured(graphql());
    const again = await measured(graphql());
    expect(first.statements).toBeGreaterThan(0);
    expect(again.statements).toBe(0);
    expect(again.text).toBe(first.text);
    expect(again.res.headers.get('content-type')).toBe(first.res.headers.get('content-type'));
    expect(again.res.headers.get('content-length')).toBe(first.res.headers.get('content-length'));
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const ask = () =>
        server.request('/graphql', {
          method: 'POST',
          key: store.key,
          headers: { 'content-type': 'application/json', accept },
          body: JSON.stringify({ query: GRAPHQL_LIST }),
        });
      const miss = await ask();
      const hit = await measured(ask);
      expect(hit.statements).toBe(0);
      expect(hit.res.headers.get('content-type')).toBe(miss.headers.get('content-type'));
      expect(hit.res.headers.get('content-type')).toBe(`${accept}; charset=utf-8`);
    }
  });

  it("GraphQL GET queries (GraphQL over HTTP) too; a malformed one gets yoga's errors", async () => {
    const get = (params: Record<string, string>) =>
      server.request(`/graphql?${new URLSearchParams(params)}`, { key: store.key });
    const query = 'query Few($n: Int) { products(limit: $n) { items { id name } } }';
    const ask = () => get({ query, variables: JSON.stringify({ n: 2 }), operationName: 'Few' });
    const first = await measured(ask);
    const again = await measured(ask);
    expect(first.res.status).toBe(200);
    expect(first.statements).toBeGreaterThan(0);
    expect(again.statements).toBe(0);
    expect(again.text).toBe(first.text);
    expect(again.res.headers.get('content-type')).toBe(first.res.headers.get('content-type'));
    const bad = await get({ query, variables: '{not json' });
    expect((await bad.json()).errors).toBeDefined();
  });

  it('a cross-origin request keeps its CORS headers on every repeat, cached or not, on both doors', async () => {
    const ask = (origin: string) => [
      server.request('/graphql', {
        method: 'POST',
        key: store.key,
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify({ query: GRAPHQL_LIST }),
      }),
      server.request(LIST, { key: store.key, headers: { origin } }),
    ];
    for (const res of await Promise.all([...ask('https://shop.example'), ...ask('https://shop.example')])) {
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(res.headers.get('vary')).toMatch(/origin/i);
    }
    for (const res of await Promise.all(ask('https://elsewhere.example'))) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('a request yoga would refuse is refused the same with the answer cached', async () => {
    await graphql()();
    const post = (contentType: string, body: Record<string, unknown> | string) =>
      server.request('/graphql', {
        method: 'POST',
        key: store.key,
        headers: { 'content-type': contentType },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    expect((await post('application/vnd.api+json', { query: GRAPHQL_LIST })).status).toBe(415);
    expect((await post('application/json ; charset=utf-8', { query: GRAPHQL_LIST })).status).toBe(415);
    expect((await post('application/json', { query: GRAPHQL_LIST, foo: 1 })).status).toBe(400);
    // Nested past what JSON.stringify can write: refused at the door, before any cache is asked.
    const deep = `${'['.repeat(6000)}${']'.repeat(6000)}`;
    const res = await post(
      'application/json',
      `{"query":${JSON.stringify(GRAPHQL_LIST)},"variables":{"deep":${deep}}}`,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].extensions.code).toBe('JSON_TOO_DEEP');
  });

  it('GET /metrics counts hits and misses per route', async () => {
    const count = async (route: string, result: string) => {
      const text = await (await server.request('/metrics')).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`read_cache_lookups_total{route="${route}",result="${result}"}`));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const [hits, misses] = [await count('/api/v1/product', 'hit'), await count('/graphql', 'miss')];
    await rest()();
    await graphql('{ products(limit: 3) { items { id } } }')();
    expect(await count('/api/v1/product', 'hit')).toBe(hits + 1);
    expect(await count('/graphql', 'miss')).toBe(misses + 1);
  });

  it('different arguments are different answers', async () => {
    await measured(rest('/api/v1/product?limit=1'));
    const other = await measured(rest('/api/v1/product?limit=2'));
    expect(other.statements).toBeGreaterThan(0);
    expect(JSON.parse(other.text).data).toHaveLength(2);
  });

  it('uncacheable reads (orders, API keys) always run', async () => {
    for (const path of ['/api/v1/order/vendor', '/api/v1/api-key']) {
      await measured(rest(path));
      expect((await measured(rest(path))).statements).toBeGreaterThan(0);
    }
  });
});

describe("every mutation makes the store's cached answers stale, in every API process", () => {
  it('a REST update shows in the next REST and GraphQL reads of both processes', async () => {
    for (const read of [
      rest(),
      graphql(),
      rest(LIST, store.key, second),
      graphql(GRAPHQL_LIST, store.key, second),
    ])
      await read();
    const [runner] = JSON.parse((await measured(rest())).text).data.filter(
      (p: { name: string }) => p.name === 'Runner',
    );
    const res = await server.send(
      'PATCH',
      `/api/v1/product/${runner.id}`,
      { name: 'Road Runner' },
      store.key,
    );
    expect(res.status).toBe(200);
    expect(names((await measured(rest())).text)).toContain('Road Runner');
    expect(names((await measured(rest(LIST, store.key, second))).text)).toContain('Road Runner');
    const viaGraphQL = JSON.parse((await measured(graphql(GRAPHQL_LIST, store.key, second))).text);
    expect(viaGraphQL.data.products.items.map((p: { name: string }) => p.name)).toContain('Road Runner');
  });

  it('a GraphQL mutation in the other process, and a renamed category, show in this one', async () => {
    await rest()();
    const category = await server.prisma.category.findFirstOrThrow({ where: { storeId: store.id } });
    const renamed = await second.graphql(
      'mutation($id: ID!) { updateCategory(id: $id, input: { name: "Running shoes" }) { name } }',
      { id: category.id },
      store.key,
    );
    expect((await renamed.json()).data.updateCategory.name).toBe('Running shoes');
    const page = JSON.parse((await measured(rest())).text).data as Array<{
      category: { name: string } | null;
    }>;
    expect(page.map((p) => p.category?.name)).toContain('Running shoes');
  });

  it('placing an order shows the reserved stock in the next list', async () => {
    const stockOf = async () =>
      (JSON.parse((await measured(rest())).text).data as Array<{ name: string; stock: number }>).find(
        (p) => p.name === 'Trail',
      )?.stock;
    const before = await stockOf();
    const trail = await server.prisma.product.findFirstOrThrow({
      where: { storeId: store.id, name: 'Trail' },
    });
    const placed = await server.send(
      'POST',
      '/api/v1/order',
      { email: 'buyer@example.test', items: [{ productId: trail.id, quantity: 2 }] },
      store.key,
    );
    expect(placed.status).toBe(201);
    expect(await stockOf()).toBe((before as number) - 2);
  });

  it("a process with its read cache off still makes the others' answers stale", async () => {
    const uncached = await startTestServer({ READ_CACHE_TTL_MS: '0' }, { shareWith: server });
    try {
      await rest()();
      const res = await uncached.send(
        'POST',
        '/api/v1/product',
        { name: 'Flip', priceAmount: 900 },
        store.key,
      );
      expect(res.status).toBe(201);
      expect(names((await measured(rest())).text)).toContain('Flip');
      const flip = (await res.json()).data.id;
      expect((await uncached.send('DELETE', `/api/v1/product/${flip}`, undefined, store.key)).status).toBe(
        204,
      );
      expect(names((await measured(rest())).text)).not.toContain('Flip');
    } finally {
      await uncached.close();
    }
  });

  it('a refused mutation changes nothing and the next read is still right', async () => {
    await rest()();
    const res = await server.send('POST', '/api/v1/product', { name: '' }, store.key);
    expect(res.status).toBe(400);
    expect(names((await measured(rest())).text)).toEqual(['Road Runner', 'Trail']);
  });
});

describe('what a cached answer never skips', () => {
  it('the scope check: a key without products:read is refused although the page is cached', async () => {
    await rest()();
    const narrow = await makeKey(server.prisma, store.id, {
      scopes: toScopeObjects(['CATEGORIES:READ']),
    });
    const res = await server.request(LIST, { key: narrow.secret });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    const viaGraphQL = await (await server.graphql(GRAPHQL_LIST, {}, narrow.secret)).json();
    expect(viaGraphQL.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('authentication: a revoked key is refused', async () => {
    const doomed = await makeKey(server.prisma, store.id);
    expect((await server.request(LIST, { key: doomed.secret })).status).toBe(200);
    const revoked = await server.send('POST', `/api/v1/api-key/${doomed.keyId}/revoke`, {}, store.key);
    expect(revoked.status).toBe(200);
    const res = await server.request(LIST, { key: doomed.secret });
    expect(res.status).toBe(401);
  });

  it('the tenant: another store with the same request gets its own products', async () => {
    await rest()();
    const other = await makeStoreWithKey(server.prisma);
    await create('/api/v1/product', { name: 'Elsewhere', priceAmount: 100 }, other.key);
    expect(names((await measured(rest(LIST, other.key))).text)).toEqual(['Elsewhere']);
    expect(names((await measured(rest())).text)).not.toContain('Elsewhere');
  });
});

describe('when the version cannot be trusted', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = connectRedis(redisUrl, createLogger('silent'));
    await ready(redis); // commands fail rather than queue until it is connected
  });
  afterAll(() => redis.disconnect());

  it('a version lost from Redis (a restart) is a new version, never an old one again', async () => {
    await rest()();
    const [versionKey] = await redis.keys(storeKey(`${server.redisKeyPrefix}version:`, store.id, store.id));
    expect(versionKey).toBeDefined();
    await redis.del(versionKey as string);
    // Behind the API's back, so that only a changed version can reveal it.
    await server.prisma.product.updateMany({
      where: { storeId: store.id, name: 'Trail' },
      data: { name: 'Trail X' },
    });
    expect(names((await measured(rest())).text)).toContain('Trail X');
  });

  it("an answer is reused for READ_CACHE_TTL_MS at most, whatever happens behind the API's back", async () => {
    const brief = await startTestServer({ READ_CACHE_TTL_MS: '300' }, { shareWith: server });
    try {
      const read = async () => names(await (await brief.request(LIST, { key: store.key })).text());
      const before = await read();
      await server.prisma.product.updateMany({
        where: { storeId: store.id, name: 'Trail X' },
        data: { name: 'Trail Y' },
      });
      expect(await read()).toEqual(before);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await read()).toContain('Trail Y');
    } finally {
      await brief.close();
    }
  });

  it('without Redis nothing is cached', async () => {
    const alone = await startTestServer(
      { READ_CACHE_TTL_MS: '60000' },
      { redis: null, shareWith: server, onQuery: (sql) => statements.push(sql) },
    );
    try {
      await rest(LIST, store.key, alone)();
      statements.length = 0;
      expect((await rest(LIST, store.key, alone)()).status).toBe(200);
      expect(statements.length).toBeGreaterThan(0);
    } finally {
      await alone.close();
    }
  });
});
