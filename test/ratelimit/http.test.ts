import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import { makeCategories, makeKey, makeStore } from '../helpers/factories';
import { freePort } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({}, { shareWith: a });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

async function keyFor(server: TestServer, input: { usageLimit?: number } = {}) {
  const store = await makeStore(server.prisma);
  await makeCategories(server.prisma, store.id, ['One']);
  return makeKey(server.prisma, store.id, input);
}

const get = (server: TestServer, key: string) => server.request('/api/v1/category?limit=1', { key });

describe('the sliding window on every key-authenticated request', () => {
  it('lets 140 through, answers the 141st with 429 and the seconds until the oldest leaves, then exactly then one more passes', async () => {
    const { secret } = await keyFor(a);
    const t0 = new Date(a.clock.now);
    for (let i = 0; i < 140; i++) {
      a.clock.now = new Date(t0.getTime() + i * 100);
      const res = await get(a, secret);
      expect(res.status).toBe(200);
      if (i === 0) {
        expect(res.headers.get('x-ratelimit-limit')).toBe('140');
        expect(res.headers.get('x-ratelimit-remaining')).toBe('139');
        expect(res.headers.get('ratelimit-policy')).toBe('"default";q=140;w=60');
      }
    }
    a.clock.now = new Date(t0.getTime() + 20_000);
    const rejected = await get(a, secret);
    expect(rejected.status).toBe(429);
    const body = await rejected.json();
    expect(body).toEqual(expect.objectContaining({ status: 429, code: 'RATE_LIMIT_EXCEEDED' }));
    // The oldest request (t0) leaves the window at t0 + 60 s: 40 s from now.
    expect(rejected.headers.get('x-ratelimit-reset')).toBe('40');
    expect(rejected.headers.get('retry-after')).toBe('40');
    expect(rejected.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(rejected.headers.get('ratelimit')).toBe('"default";r=0;t=40');

    a.clock.now = new Date(t0.getTime() + 59_999);
    expect((await get(a, secret)).status).toBe(429);
    a.clock.now = new Date(t0.getTime() + 60_000);
    expect((await get(a, secret)).status).toBe(200);
    expect((await get(a, secret)).status).toBe(429);
    a.clock.now = t0;
  });

  it('is one window for two API processes on one Redis', async () => {
    const { secret } = await keyFor(a);
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => get(i % 2 === 0 ? a : b, secret).then((res) => res.status)),
    );
    expect(results.filter((status) => status === 200)).toHaveLength(140);
    expect(results.filter((status) => status === 429)).toHaveLength(10);
  });

  it('keeps serving, with a per-process window, when Redis does not answer', async () => {
    const dead = connectRedis(`redis://127.0.0.1:${await freePort()}`, createLogger('silent'));
    const alone = await startTestServer({ RATE_LIMIT_MAX: '5' }, { redis: dead });
    try {
      const { secret } = await keyFor(alone);
      const started = Date.now();
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await get(alone, secret)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await alone.close();
      dead.disconnect();
    }
  });
});

describe('the usage quota', () => {
  it('lets exactly 100 requests through for a limit of 100 under 50 concurrent clients, on two processes', async () => {
    const { secret, keyId } = await keyFor(a, { usageLimit: 100 });
    const client = async (n: number) => {
      const codes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await get(n % 2 === 0 ? a : b, secret);
        codes.push(res.status === 200 ? 'OK' : (await res.json()).code);
      }
      return codes;
    };
    // 150 requests at one instant: the shared window lets 140 pass, and of those the quota exactly 100.
    const codes = (await Promise.all(Array.from({ length: 50 }, (_, n) => client(n)))).flat();
    const count = (code: string) => codes.filter((c) => c === code).length;
    expect(count('OK')).toBe(100);
    expect(count('API_KEY_USAGE_LIMIT_REACHED')).toBe(40);
    expect(count('RATE_LIMIT_EXCEEDED')).toBe(10);
    const t0 = new Date(a.clock.now);
    a.clock.now = new Date(t0.getTime() + 61_000);
    const refused = await get(a, secret);
    expect(refused.status).toBe(429);
    expect((await refused.json()).code).toBe('API_KEY_USAGE_LIMIT_REACHED');
    a.clock.now = t0;

    await a.runtime.usage.flush(a.prisma);
    await b.runtime.usage.flush(b.prisma);
    const key = await a.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(key.usageCount).toBe(100n);
    expect(key.lastUsedAt).not.toBeNull();
  });

  it('shows flushed usage in GET /api-key/stats, per store and per key', async () => {
    const store = await makeStore(a.prisma);
    const admin = await makeKey(a.prisma, store.id, { keyName: 'admin' });
    const worker = await makeKey(a.prisma, store.id, { keyName: 'worker' });
    for (let i = 0; i < 7; i++) await get(a, worker.secret);
    await a.runtime.usage.flush(a.prisma);
    const res = await a.request('/api/v1/api-key/stats', { key: admin.secret });
    const { data } = await res.json();
    const today = a.clock.now.toISOString().slice(0, 10);
    const perKey = data.keys.find((k: { keyId: string }) => k.keyId === worker.keyId);
    expect(perKey.usageCount).toBe(7);
    expect(perKey.daily).toHaveLength(30);
    expect(perKey.daily.at(-1)).toEqual({ date: today, count: 7 });
    // The stats request itself counts for the admin key once flushed; the store total includes both.
    expect(data.daily.at(-1).count).toBeGreaterThanOrEqual(7);
    expect(data).toEqual(
      expect.objectContaining({
        totalKeys: 2,
        byStatus: { active: 2, inactive: 0, revoked: 0 },
        byEnvironment: { production: 2, staging: 0, development: 0 },
      }),
    );
  });
});
