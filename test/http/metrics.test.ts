import { QUEUE_READ_TTL_MS } from '../../src/http/metrics';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
const token = 'metrics-token-0123456789';
/** The statements that read the job queue, as the server's database client sends them. */
const queueReads: string[] = [];
const later = (ms: number) => {
  server.clock.now = new Date(server.clock.now.getTime() + ms);
};

beforeAll(async () => {
  server = await startTestServer(
    { METRICS_TOKEN: token },
    {
      onQuery: (sql) => {
        if (sql.includes('graphile_worker.jobs')) queueReads.push(sql);
      },
    },
  );
  const store = await makeStore(server.prisma);
  key = (await makeKey(server.prisma, store.id)).secret;
});
afterAll(() => server.close());

const scrape = async () => {
  const res = await server.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
};

describe('GET /metrics', () => {
  it('needs the token when METRICS_TOKEN is set', async () => {
    expect((await server.request('/metrics')).status).toBe(401);
    expect((await server.request('/metrics', { headers: { authorization: 'Bearer wrong' } })).status).toBe(
      401,
    );
  });

  it('counts requests by route template and status, never by raw path', async () => {
    await server.request('/api/v1/category', { key });
    await server.request('/api/v1/category/cat_doesnotexist', { key });
    await server.request('/api/v1/category/cat_another', { key });
    await server.request('/no/such/path', { headers: { accept: 'application/json' } });
    await server.request('/keys/key_123', { headers: { accept: 'text/html' } });
    const text = await scrape();
    expect(text).toContain('http_requests_total{method="GET",route="/api/v1/category",status="200"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/api/v1/category/{id}",status="404"} 2');
    expect(text).toContain('http_requests_total{method="GET",route="other",status="404"} 1');
    // The dashboard's deep links are one label too.
    expect(text).toContain('http_requests_total{method="GET",route="dashboard",status="200"} 1');
    expect(text).not.toContain('key_123');
    expect(text).not.toContain('cat_doesnotexist');
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/category"\} 1/);
  });

  it('shows the worker queue by task', async () => {
    const res = await server.request('/api/v1/category', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Queued' }),
    });
    expect(res.status).toBe(201);
    // The queue read of earlier scrapes is reused for a few seconds.
    later(QUEUE_READ_TTL_MS);
    // No worker runs in this test: the event's fan-out job waits in the queue.
    expect(await scrape()).toMatch(/worker_jobs\{task="fan_out_event",state="waiting"\} [1-9]/);
  });
});

describe('the job queue read', () => {
  it('is one database aggregate per few seconds, however often and however concurrently scraped', async () => {
    later(QUEUE_READ_TTL_MS);
    const before = queueReads.length;
    await Promise.all([scrape(), scrape(), scrape()]);
    await scrape();
    later(QUEUE_READ_TTL_MS - 1);
    await scrape();
    expect(queueReads.length - before).toBe(1);
    later(1);
    await Promise.all([scrape(), scrape()]);
    expect(queueReads.length - before).toBe(2);
  });
});

describe('in production', () => {
  const production = { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: 'a'.repeat(64) };

  it('without METRICS_TOKEN, /metrics is closed: the JSON 404 of a path that does not exist', async () => {
    const closed = await startTestServer(production);
    try {
      for (const accept of ['text/plain', 'application/openmetrics-text, */*;q=0.1', 'text/html']) {
        const res = await closed.request('/metrics', { headers: { accept } });
        expect(await res.json()).toEqual({
          success: false,
          status: 404,
          code: 'NOT_FOUND',
          message: 'No route GET /metrics',
          requestId: res.headers.get('x-request-id'),
        });
        expect(res.status).toBe(404);
      }
    } finally {
      await closed.close();
    }
  });

  it('with METRICS_TOKEN, /metrics answers the token, and only the token', async () => {
    const open = await startTestServer({ ...production, METRICS_TOKEN: token });
    try {
      expect((await open.request('/metrics')).status).toBe(401);
      const res = await open.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_requests_total');
    } finally {
      await open.close();
    }
  });
});

describe('GraphQL operations', () => {
  const sampleOf = (text: string, series: string) =>
    Number(
      text
        .split('\n')
        .find((line) => line.startsWith(`${series} `))
        ?.split(' ')
        .pop() ?? 0,
    );

  it('counts the operations of every door by type and outcome, with their requested cost', async () => {
    const series = [
      'graphql_operations_total{door="rest",type="query",outcome="ok"}',
      'graphql_operations_total{door="graphql",type="query",outcome="ok"}',
      'graphql_operations_total{door="graphql",type="query",outcome="error"}',
      'graphql_query_cost_bucket{le="30",door="graphql"}',
      'graphql_query_cost_bucket{le="30",door="rest"}',
      'graphql_query_cost_bucket{le="300",door="graphql"}',
    ];
    const before = await scrape();
    await server.request('/api/v1/category?limit=10', { key });
    await server.graphql('{ categories(limit: 5) { items { id } } }', {}, key);
    await server.graphql('{ products(limit: 101) { items { id } } }', {}, key); // refused by the resolver
    const after = await scrape();
    // The REST page of 10 categories with their parents (21) and the GraphQL page of 5 (6) fall in the bucket up to 30; 101 (capped at 100) in 300's.
    expect(series.map((name) => sampleOf(after, name) - sampleOf(before, name))).toEqual([1, 1, 1, 1, 1, 2]);
  });
});
