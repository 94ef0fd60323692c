import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { buildService, freePort, type ServiceProcess, startService } from '../helpers/process';

jest.setTimeout(120_000);

beforeAll(() => buildService());

describe('the service process with DATABASE_URL and REDIS_URL (api and worker in one process)', () => {
  let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
  let service: ServiceProcess;
  let port: number;
  let key: string;

  beforeAll(async () => {
    database = await createDatabaseFromTemplate();
    port = await freePort();
    service = startService([], {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      // A loaded CI machine must not make the readiness ping look like an outage (100 ms by default).
      REDIS_TIMEOUT_MS: '2000',
      SEED_DEMO: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
    });
  });

  afterAll(async () => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await database.drop();
  });

  it('seeds the demo store, prints a key once, and that key lists categories', async () => {
    key = (await service.waitFor(/Demo API key[^\n]*: (tt_[0-9a-f]{64})/))[1] as string;
    await service.waitFor(/listening on http/);
    await service.waitFor(/worker running/);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/category`, {
      headers: { 'tt-api-key': key as string },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.pagination.totalResults).toBeGreaterThanOrEqual(8);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('on SIGTERM finishes the request in flight, then exits 0', async () => {
    const body = JSON.stringify({ query: '{ categories(limit: 1) { pagination { totalResults } } }' });
    const half = Math.floor(body.length / 2);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/graphql',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': body.length, 'tt-api-key': key },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, half));
      // The request is in flight (half its body sent) when the signal arrives.
      setTimeout(() => {
        service.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(half)), 300);
      }, 100);
    });
    const answered = await response;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).data.categories.pagination.totalResults).toBeGreaterThan(0);
    expect(await service.exited).toBe(0);
    expect(service.output()).toMatch(/SIGTERM received/);
    expect(service.output()).toMatch(/"msg":"stopped"/);
    // The worker's pool is sized for its concurrency (graphile-worker warns otherwise).
    expect(service.output()).toMatch(/worker running \(concurrency 20\)/);
    expect(service.output()).not.toMatch(/maxPoolSize/);
  });
});

describe('npm start with no configuration (embedded PostgreSQL, no Redis)', () => {
  let dataDir: string;
  let service: ServiceProcess;
  let port: number;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-start-'));
    port = await freePort();
    service = startService([], {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      PORT: String(port),
      HOST: '127.0.0.1',
    });
  });

  afterAll(async () => {
    if (service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts PostgreSQL, migrates, seeds, prints a working key, and warns that limits are per process', async () => {
    const key = (await service.waitFor(/Demo API key[^\n]*: (tt_[0-9a-f]{64})/, 90_000))[1] as string;
    await service.waitFor(/listening on http/);
    expect(service.output()).toMatch(
      /no REDIS_URL \(nor REDIS_CLUSTER_NODES\): rate limits and usage counts are kept in this process only/,
    );
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/category?limit=100`, {
      headers: { 'tt-api-key': key },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).pagination.totalResults).toBeGreaterThanOrEqual(8);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { postgres: 'ok', redis: 'not configured' },
    });
  });

  it('stops PostgreSQL with itself on SIGTERM, and a second start reuses the data without a new key', async () => {
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    service = startService([], {
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    await service.waitFor(/listening on http/, 90_000);
    expect(service.output()).not.toMatch(/Demo API key/);
    expect(service.output()).toMatch(/using the existing PostgreSQL cluster/);
  });
});
