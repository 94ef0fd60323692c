import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { rpc } from '../mcp/client';

/**
 * README "Request log": every authenticated request is recorded (off the request path, written in
 * batches) with its store, key or staff member, door, method, route template or operation name,
 * status, error code, duration, request id, client IP and cost; read back through GraphQL and
 * GET /api/v1/request-log (scope API_KEYS READ), filtered, a store's own entries only.
 */
let server: TestServer;
let store: { id: string; key: string };
let keyId: string;

interface Entry {
  id: string;
  at: string;
  keyId: string | null;
  staffUserId: string | null;
  door: string;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  durationMs: number;
  requestId: string;
  clientIp: string | null;
  cost: number | null;
}

/** The entries written so far: what the finished requests left in the buffer, written now. */
async function written() {
  await new Promise((resolve) => setImmediate(resolve));
  await server.runtime.requestLog.flush();
}

async function list(query: string, key = store.key) {
  await written();
  const res = await server.request(`/api/v1/request-log${query}`, { key });
  const body = await res.json();
  return { status: res.status, body, items: (body.data?.items ?? []) as Entry[] };
}

beforeAll(async () => {
  server = await startTestServer();
  store = await makeStoreWithKey(server.prisma);
  keyId = (await server.prisma.apiKey.findFirstOrThrow({ where: { storeId: store.id } })).id;
});
afterAll(() => server.close());

describe('recording', () => {
  it('records a REST request under its route template, never its raw path', async () => {
    const res = await server.request('/api/v1/product/prod_doesnotexist', { key: store.key });
    expect(res.status).toBe(404);
    const requestId = res.headers.get('x-request-id') as string;
    const { items } = await list(`?requestId=${requestId}`);
    expect(items).toHaveLength(1);
    const [entry] = items as [Entry];
    expect(entry).toMatchObject({
      keyId,
      staffUserId: null,
      door: 'REST',
      method: 'GET',
      route: '/api/v1/product/{id}',
      status: 404,
      errorCode: 'NOT_FOUND',
      requestId,
      clientIp: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(entry.durationMs).toBeGreaterThan(0);
    expect(JSON.stringify(entry)).not.toContain('prod_doesnotexist');
  });

  it('records a GraphQL request under its operation name, with its cost', async () => {
    const res = await server.graphql('query ShopName { storeSettings { name } }', {}, store.key);
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id') as string;
    const { items } = await list(`?requestId=${requestId}`);
    expect(items).toEqual([
      expect.objectContaining({ door: 'GRAPHQL', method: 'POST', route: 'ShopName', status: 200, keyId }),
    ]);
    expect(items[0]?.cost).toBeGreaterThan(0);
    expect(items[0]?.errorCode).toBeNull();
  });

  it('records an MCP tool call under its operation', async () => {
    const res = await rpc(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_store_info', arguments: {} } },
      { key: store.key },
    );
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id') as string;
    const { items } = await list(`?requestId=${requestId}`);
    expect(items).toEqual([
      expect.objectContaining({ door: 'MCP', method: 'POST', route: 'McpGetStoreInfo', status: 200, keyId }),
    ]);
  });

  it('records a signed-in staff member’s request under them, and no unauthenticated request', async () => {
    const { token, staffId } = await signInAs(server, store.id, 'ADMIN');
    const res = await server.request('/api/v1/category', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const anonymous = await server.request('/api/v1/category');
    expect(anonymous.status).toBe(401);
    const { items } = await list(`?staffUserId=${staffId}`);
    expect(items).toEqual([
      expect.objectContaining({ staffUserId: staffId, keyId: null, route: '/api/v1/category', status: 200 }),
    ]);
    const unauthenticated = await server.prisma.requestLogEntry.count({
      where: { requestId: anonymous.headers.get('x-request-id') as string },
    });
    expect(unauthenticated).toBe(0);
  });

  it('finds the entry of a request id an error body gave', async () => {
    const res = await server.send('POST', '/api/v1/category', { name: '' }, store.key);
    expect(res.status).toBe(400);
    const error = await res.json();
    expect(error.requestId).toEqual(expect.any(String));
    const { items } = await list(`?requestId=${error.requestId}`);
    expect(items).toEqual([
      expect.objectContaining({ status: 400, errorCode: 'VALIDATION_ERROR', method: 'POST' }),
    ]);
  });
});

describe('filters', () => {
  let other: { keyId: string; secret: string };
  beforeAll(async () => {
    other = await makeKey(server.prisma, store.id, { keyName: 'second key' });
    for (let i = 0; i < 3; i++) await server.request('/api/v1/category', { key: other.secret });
    await server.request('/api/v1/category/cat_missing', { key: other.secret });
  });

  it('by key, status class and route, newest first', async () => {
    const byKey = await list(`?keyId=${other.keyId}`);
    expect(byKey.items).toHaveLength(4);
    expect(byKey.items.every((entry) => entry.keyId === other.keyId)).toBe(true);
    const times = byKey.items.map((entry) => entry.at);
    expect(times).toEqual([...times].sort().reverse());

    const failed = await list(`?keyId=${other.keyId}&statusClass=CLIENT_ERROR`);
    expect(failed.items.map((entry) => [entry.status, entry.route])).toEqual([
      [404, '/api/v1/category/{id}'],
    ]);
    const ok = await list(`?keyId=${other.keyId}&statusClass=SUCCESS&route=/api/v1/category`);
    expect(ok.items).toHaveLength(3);
    expect((await list(`?keyId=${other.keyId}&statusClass=SERVER_ERROR`)).items).toHaveLength(0);
  });

  it('by time, and a page at a time after a cursor', async () => {
    const all = (await list(`?keyId=${other.keyId}`)).items;
    const oldest = all.at(-1) as Entry;
    const until = await list(`?keyId=${other.keyId}&until=${encodeURIComponent(oldest.at)}`);
    expect(until.items).toHaveLength(0);
    const since = await list(`?keyId=${other.keyId}&since=${encodeURIComponent(oldest.at)}`);
    expect(since.items).toHaveLength(4);

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page = await list(`?keyId=${other.keyId}&limit=3${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.items.map((entry) => entry.id));
      after = page.body.data.nextCursor;
    } while (after);
    expect(seen).toEqual(all.map((entry) => entry.id));
  });

  it('pages newest first across days when no time is given, an entry a little ahead of this clock included', async () => {
    // Written as other processes would have: one a minute ahead of this process's clock, two within
    // the last day, three on earlier days (the service reads the last day first, then the rest).
    const now = Date.now();
    const ago = [-60_000, 3_600_000, 20 * 3_600_000, 30 * 3_600_000, 50 * 3_600_000, 6 * 86_400_000];
    await server.prisma.requestLogEntry.createMany({
      data: ago.map((ms, i) => ({
        at: new Date(now - ms),
        storeId: store.id,
        keyId: 'key_days',
        door: 'REST',
        method: 'GET',
        route: '/api/v1/category',
        status: 200,
        durationMs: 1,
        requestId: `req_days_${i}`,
      })),
    });
    const pages: string[][] = [];
    let after: string | null = null;
    do {
      const page = await list(`?keyId=key_days&limit=4${after ? `&after=${after}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.items.map((entry) => entry.requestId));
      after = page.body.data.nextCursor;
    } while (after);
    expect(pages).toEqual([
      ['req_days_0', 'req_days_1', 'req_days_2', 'req_days_3'],
      ['req_days_4', 'req_days_5'],
    ]);
    const lastDay = await list(
      `?keyId=key_days&since=${encodeURIComponent(new Date(now - 86_400_000).toISOString())}`,
    );
    expect(lastDay.items.map((entry) => entry.requestId)).toEqual(['req_days_0', 'req_days_1', 'req_days_2']);
  });

  it('through GraphQL too', async () => {
    await written();
    const res = await server.graphql(
      'query Log($keyId: ID) { requestLog(keyId: $keyId, statusClass: CLIENT_ERROR) { items { route status } } }',
      { keyId: other.keyId },
      store.key,
    );
    const { data } = await res.json();
    expect(data.requestLog.items).toEqual([{ route: '/api/v1/category/{id}', status: 404 }]);
  });
});

describe('bad input', () => {
  it.each([
    ['a malformed time', '?since=yesterday', 'since'],
    ['an unknown status class', '?statusClass=4xx', 'statusClass'],
    ['a limit beyond 100', '?limit=101', 'limit'],
    ['a cursor it never gave', '?after=bm90LWEtY3Vyc29y', 'after'],
  ])('%s answers 400 naming the field', async (_what, query, field) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.details.map((detail: { path: string }) => detail.path)).toContain(field);
  });
});

describe('tenant isolation', () => {
  it('never shows another store’s entries, even by their request id', async () => {
    const stranger = await makeStoreWithKey(server.prisma);
    const res = await server.request('/api/v1/category', { key: stranger.key });
    const requestId = res.headers.get('x-request-id') as string;
    expect((await list(`?requestId=${requestId}`, stranger.key)).items).toHaveLength(1);
    expect((await list(`?requestId=${requestId}`)).items).toHaveLength(0);
    const strangerKey = await server.prisma.apiKey.findFirstOrThrow({ where: { storeId: stranger.id } });
    expect((await list(`?keyId=${strangerKey.id}`)).items).toHaveLength(0);
  });

  it('needs API_KEYS READ', async () => {
    const reader = await makeKey(server.prisma, store.id, {
      scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
    });
    const res = await server.request('/api/v1/request-log', { key: reader.secret });
    expect(res.status).toBe(403);
  });
});

it('keeps nothing when REQUEST_LOG=off', async () => {
  const off = await startTestServer({ REQUEST_LOG: 'off' });
  try {
    const own = await makeStoreWithKey(off.prisma);
    await off.request('/api/v1/category', { key: own.key });
    await off.runtime.requestLog.flush();
    expect(await off.prisma.requestLogEntry.count()).toBe(0);
  } finally {
    await off.close();
  }
});
