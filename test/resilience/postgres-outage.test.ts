import path from 'node:path';
import { Client } from 'pg';
import { connectDatabase, type Database } from '../../src/db/client';
import { migrate } from '../../src/db/migrate';
import { makeKey, makeStore } from '../helpers/factories';
import { freePort, root } from '../helpers/process';
import { eventually, jsonHeaders, type Receiver, startReceiver } from '../helpers/webhooks';
import { type PostgresCluster, startPostgresCluster } from './postgres-cluster';
import { type RunningService, startServiceProcess } from './service';

/**
 * Issue 19 item 2: `npm start` (API and worker in one process) while its PostgreSQL is stopped for
 * 10 s under load. A cluster of the test's own, so stopping it disturbs no other test.
 */
jest.setTimeout(300_000);

const OUTAGE_MS = 10_000;
const LEASE_SECONDS = 20;

type Phase = 'before' | 'outage' | 'after';
interface Answer {
  phase: Phase;
  status: number;
  code?: string;
  retryAfter: string | null;
}

let cluster: PostgresCluster;
let db: Database;
let receiver: Receiver;
let service: RunningService;
let key: string;
/** A key no request has used before the outage, so none of its checks is answered from a cache. */
let unusedKey: string;

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const admin = new Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('CREATE DATABASE commerce');
  await admin.end();
  const databaseUrl = cluster.url.replace(/\/postgres$/, '/commerce');
  await migrate(databaseUrl);
  db = connectDatabase(databaseUrl, { max: 2 });
  const store = await makeStore(db.prisma);
  key = (await makeKey(db.prisma, store.id)).secret;
  unusedKey = (await makeKey(db.prisma, store.id)).secret;
  receiver = await startReceiver();
  service = startServiceProcess([], await freePort(), {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: path.join(root, 'test', 'fixtures', 'tls', 'receiver.crt'),
    // The load is far below what a real key may send; the rate limit is not what this test is about.
    RATE_LIMIT_MAX: '1000000',
    // Longer than the outage, so an attempt made as PostgreSQL stopped still records its outcome.
    WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_SWEEP_INTERVAL_MS: '1000',
  });
  await service.ready();
  const endpoint = await fetch(`${service.baseUrl}/api/v1/store/webhooks/endpoints`, {
    method: 'POST',
    headers: jsonHeaders(key),
    body: JSON.stringify({ url: receiver.url(), events: ['category.created'] }),
  });
  expect(endpoint.status).toBe(201);
});

afterAll(async () => {
  if (service?.exit()) console.error(`the service exited:\n${service.output()}`);
  await service?.stop();
  await receiver?.close();
  await db?.close();
  await cluster?.destroy();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgreSQL stopped for 10 s under load', () => {
  it('the process lives on, answers 2xx or 503 with Retry-After meanwhile and 2xx after, and delivers every committed event exactly once', async () => {
    let phase: Phase = 'before';
    let running = true;
    const answers: Answer[] = [];
    let sequence = 0;
    // Writes (each commits a category.created event) and reads, four at a time.
    const client = async () => {
      while (running) {
        const n = sequence++;
        const started = phase;
        const res =
          n % 2 === 0
            ? await fetch(`${service.baseUrl}/api/v1/category`, {
                method: 'POST',
                headers: jsonHeaders(key),
                body: JSON.stringify({ name: `Outage ${n}` }),
              })
            : await fetch(`${service.baseUrl}/api/v1/category?limit=5`, { headers: { 'tt-api-key': key } });
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        answers.push({
          phase: started,
          status: res.status,
          code: body.code,
          retryAfter: res.headers.get('retry-after'),
        });
        // A client that is told to come back does not hammer the server meanwhile.
        if (res.status === 503) await sleep(100);
      }
    };
    const clients = [client(), client(), client(), client()];
    await sleep(3000);

    phase = 'outage';
    await cluster.stop();
    const probes: Array<{ healthz: number; readyz: number; graphql: unknown }> = [];
    const outageEnds = Date.now() + OUTAGE_MS;
    while (Date.now() < outageEnds) {
      const healthz = (await fetch(`${service.baseUrl}/healthz`)).status;
      const readyz = (await fetch(`${service.baseUrl}/readyz`)).status;
      const graphql = await fetch(`${service.baseUrl}/graphql`, {
        method: 'POST',
        headers: jsonHeaders(unusedKey),
        body: JSON.stringify({ query: '{ categories(limit: 1) { pagination { totalResults } } }' }),
      });
      const body = (await graphql.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
      probes.push({
        healthz,
        readyz,
        graphql: [graphql.status, graphql.headers.get('retry-after'), body.errors?.[0]?.extensions?.code],
      });
      await sleep(1000);
    }
    await cluster.start();
    phase = 'after';
    await sleep(10_000);
    running = false;
    await Promise.all(clients);

    expect(service.exit()).toBeNull();
    const during = answers.filter((a) => a.phase === 'outage');
    const after = answers.filter((a) => a.phase === 'after');
    expect(during.filter((a) => a.status === 503).length).toBeGreaterThan(10);
    for (const answer of during) {
      if (answer.status === 503) {
        expect(answer).toEqual(expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', retryAfter: '5' }));
      } else {
        expect([200, 201]).toContain(answer.status);
      }
    }
    expect(after.length).toBeGreaterThan(20);
    expect(after.filter((a) => a.status !== 200 && a.status !== 201)).toEqual([]);
    expect(probes.every((p) => p.healthz === 200)).toBe(true);
    expect(probes.filter((p) => p.readyz === 503).length).toBeGreaterThanOrEqual(OUTAGE_MS / 1000 - 2);
    // GraphQL refuses before execution (the key's checks need the database) with the same 503.
    expect(
      probes.filter((p) => JSON.stringify(p.graphql) === '[503,"5","SERVICE_UNAVAILABLE"]').length,
    ).toBeGreaterThanOrEqual(OUTAGE_MS / 1000 - 2);
    expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);

    // Every event that committed, whatever its request was told, reaches the receiver exactly once.
    const events = await db.prisma.event.findMany({ select: { id: true } });
    expect(events.length).toBeGreaterThan(20);
    await eventually(async () => {
      const done = await db.prisma.webhookDelivery.count({ where: { status: 'success' } });
      return done === events.length;
    }, 120_000);
    const delivered = receiver.requests.map(
      (request) => JSON.parse(request.body) as { id: string; type: string },
    );
    expect(delivered).toHaveLength(events.length);
    const deliveries = await db.prisma.webhookDelivery.findMany({ select: { id: true, eventId: true } });
    expect(new Set(delivered.map((envelope) => envelope.id))).toEqual(new Set(deliveries.map((d) => d.id)));
    expect(new Set(deliveries.map((d) => d.eventId))).toEqual(new Set(events.map((e) => e.id)));
    expect(service.exit()).toBeNull();
    // One warning for the outage and one line when it ended, not one per request or job.
    const logged = (message: string) =>
      service
        .output()
        .split('\n')
        .filter((line) => line.includes(`"msg":"${message}`)).length;
    expect(logged('PostgreSQL unreachable')).toBe(1);
    expect(logged('PostgreSQL reachable again')).toBe(1);
  });
});
