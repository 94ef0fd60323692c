import { runOnce } from 'graphile-worker';
import { taskList } from '../../jobs/registry';
import { workerLogger } from '../../jobs/worker';
import { taskName } from '../../src/task-catalog';
import { autoDisableIfFailing } from '../../src/webhook-delivery/auto-disable';
import { createFanOut, fanOutEvents } from '../../src/webhook-delivery/fan-out';
import { writeRecords } from '../../src/webhook-delivery/record';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  capturingLogger,
  createCategory,
  jsonHeaders,
  type Receiver,
  serverEnv,
  startReceiver,
  storeWithEndpoint,
  testWorkerOptions,
} from '../helpers/webhooks';

/**
 * Fan-out writes each delivery leased to itself, in one statement, and makes the first attempt at
 * once; a failure queues the retry's job. Should the fan-out's worker die first, the sweeper turns the
 * expired lease into a job (test/webhook-delivery/crash.test.ts kills a worker in exactly that state).
 */
let server: TestServer;
let receiver: Receiver;
const replies = new Map<string, number>();
const logs = capturingLogger('warn');
const options = testWorkerOptions();

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver((request) => ({ status: replies.get(request.path) ?? 200 }));
});
afterAll(async () => {
  await options.httpClient.close();
  await receiver.close();
  await server.close();
});

async function endpointAndEvent(path: string) {
  const { storeId, key, endpointId } = await storeWithEndpoint(server, receiver.url(path));
  await createCategory(server, key, `Hats ${path}`);
  const event = await server.prisma.event.findFirstOrThrow({ where: { storeId } });
  return { endpointId, eventId: event.id };
}

const jobsOf = async (deliveryId: string) =>
  (
    await server.db.pool.query<{ run_at: Date; locked_at: Date | null }>(
      `SELECT run_at, locked_at FROM graphile_worker.jobs WHERE task_identifier = '${taskName.deliver_webhook}' AND key = $1`,
      [deliveryId],
    )
  ).rows;

const runJobs = () =>
  runOnce({
    pgPool: server.db.pool,
    taskList: taskList({
      prisma: server.prisma,
      pool: server.db.pool,
      usageMeter: server.runtime.usage,
      webhooks: options,
    }),
    logger: workerLogger(logs.logger),
  });

describe('fan-out', () => {
  it('writes each delivery leased to the fan-out, with no job of its own yet', async () => {
    const { endpointId, eventId } = await endpointAndEvent('/standby');
    const until = new Date(Date.now() + 60_000);
    const deliveries = await fanOutEvents(server.db.pool, [eventId], new Date(), {
      token: 'fan-out-token',
      until,
    });
    expect(deliveries).toHaveLength(1);
    const row = await server.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    expect(row).toEqual(
      expect.objectContaining({ status: 'pending', attempt: 0, leaseToken: 'fan-out-token' }),
    );
    expect(row.leaseExpiresAt?.getTime()).toBe(until.getTime());
    expect(await jobsOf(row.id)).toEqual([]);
    // A second run (a retried fan-out job) creates nothing.
    expect(await fanOutEvents(server.db.pool, [eventId], new Date(), { token: 'other', until })).toEqual([]);
    expect(await server.prisma.webhookDelivery.count({ where: { endpointId } })).toBe(1);
  });

  it('fans several events out in one statement and records several attempts in one, skipping a lost lease', async () => {
    const first = await endpointAndEvent('/batch-a');
    const second = await endpointAndEvent('/batch-b');
    const until = new Date(Date.now() + 60_000);
    const lease = { token: 'batch-token', until };
    const deliveries = await fanOutEvents(server.db.pool, [first.eventId, second.eventId], new Date(), lease);
    expect(deliveries.map((d) => d.eventId).sort()).toEqual([first.eventId, second.eventId].sort());
    const [a, b] = deliveries as [(typeof deliveries)[number], (typeof deliveries)[number]];
    const at = new Date();
    const record = (deliveryId: string, leaseToken: string) => ({
      deliveryId,
      leaseToken,
      status: 'success' as const,
      attempt: 1,
      httpStatus: 200,
      responseBody: 'ok',
      errorMessage: null,
      retryAt: null,
      at,
      durationMs: 3,
    });
    // b's lease is not ours (another worker took it over): only a's record is written.
    const written = await writeRecords(server.db.pool, [record(a.id, 'batch-token'), record(b.id, 'stale')]);
    expect([...written]).toEqual([a.id]);
    const rows = await server.prisma.webhookDelivery.findMany({
      where: { id: { in: [a.id, b.id] } },
      include: { attempts: true },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(a.id)).toEqual(
      expect.objectContaining({ status: 'success', attempt: 1, httpStatus: 200, leaseToken: null }),
    );
    expect(byId.get(a.id)?.attempts).toEqual([
      expect.objectContaining({ number: 1, status: 'success', durationMs: 3, responseBody: 'ok' }),
    ]);
    expect(byId.get(b.id)).toEqual(expect.objectContaining({ status: 'pending', leaseToken: 'batch-token' }));
    expect(byId.get(b.id)?.attempts).toEqual([]);
  });

  it('gives an event fanned out twice in one batch its deliveries once', async () => {
    const first = await endpointAndEvent('/twice-a');
    const second = await endpointAndEvent('/twice-b');
    const fanOut = createFanOut(server.db.pool, { now: () => new Date(), leaseSeconds: 60 });
    // The first call is in flight; the next two wait and go together in one statement.
    const [a, b1, b2] = await Promise.all([
      fanOut(first.eventId),
      fanOut(second.eventId),
      fanOut(second.eventId),
    ]);
    expect(a.deliveries).toHaveLength(1);
    expect([b1.deliveries.length, b2.deliveries.length]).toEqual([1, 0]);
    expect(b1.lease).toBe(b2.lease);
    expect(await server.prisma.webhookDelivery.count({ where: { endpointId: second.endpointId } })).toBe(1);
  });

  it('auto-disable counts a delivery that exhausted while it waited for the endpoint lock', async () => {
    const { storeId, key, endpointId } = await storeWithEndpoint(server, receiver.url('/exhausting'));
    for (const name of ['One', 'Two', 'Three']) await createCategory(server, key, name);
    const events = await server.prisma.event.findMany({ where: { storeId }, orderBy: { createdAt: 'asc' } });
    const lease = { token: 'exhausting', until: new Date(Date.now() + 60_000) };
    const deliveries = await fanOutEvents(
      server.db.pool,
      events.map((e) => e.id),
      new Date(),
      lease,
    );
    expect(deliveries).toHaveLength(3);
    const exhausted = (deliveryId: string) => ({
      deliveryId,
      leaseToken: 'exhausting',
      status: 'exhausted' as const,
      attempt: 8,
      httpStatus: 500,
      responseBody: '',
      errorMessage: 'HTTP 500',
      retryAt: null,
      at: new Date(),
      durationMs: 1,
    });
    const [first, second, third] = deliveries.map((d) => d.id) as [string, string, string];
    await writeRecords(server.db.pool, [exhausted(first)]);
    // Two deliveries exhaust at once: A decides first (2 exhausted: stays active) and holds the lock…
    const a = await server.db.pool.connect();
    const b = await server.db.pool.connect();
    try {
      await a.query('BEGIN');
      await writeRecords(a, [exhausted(second)]);
      expect(await autoDisableIfFailing(a, endpointId, new Date())).toBe(false);
      await b.query('BEGIN');
      await writeRecords(b, [exhausted(third)]);
      const decided = autoDisableIfFailing(b, endpointId, new Date());
      await new Promise((resolve) => setTimeout(resolve, 200)); // B is waiting for A's lock
      await a.query('COMMIT');
      // …and B, once it has the lock, counts A's delivery too: the third within 7 days disables.
      expect(await decided).toBe(true);
      await b.query('COMMIT');
    } finally {
      a.release();
      b.release();
    }
    const endpoint = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint.isActive).toBe(false);
  });

  it('derives delivery ids from endpoint and event: a fan-out re-run after lost rows sends the same ids', async () => {
    const { endpointId, eventId } = await endpointAndEvent('/same-id');
    const lease = { token: 'first', until: new Date(Date.now() + 60_000) };
    const [made] = await fanOutEvents(server.db.pool, [eventId], new Date(), lease);
    expect(made?.id).toMatch(/^msg_[0-9a-f]{32}$/);
    // As if PostgreSQL had lost the fan-out's asynchronous commit.
    await server.prisma.webhookDelivery.deleteMany({ where: { endpointId } });
    const [again] = await fanOutEvents(server.db.pool, [eventId], new Date(), { ...lease, token: 'second' });
    expect(again?.id).toBe(made?.id);
  });

  it('re-activating an endpoint queues its waiting deliveries but leaves one an attempt holds', async () => {
    const { storeId, key, endpointId } = await storeWithEndpoint(server, receiver.url('/reactivated'));
    for (const name of ['Held', 'Free']) await createCategory(server, key, name);
    const events = await server.prisma.event.findMany({ where: { storeId }, orderBy: { createdAt: 'asc' } });
    const held = { token: 'in-flight', until: new Date(Date.now() + 60_000) };
    const [heldDelivery] = await fanOutEvents(server.db.pool, [events[0]?.id as string], new Date(), held);
    const [freeDelivery] = await fanOutEvents(server.db.pool, [events[1]?.id as string], new Date(), {
      token: 'dead-worker',
      until: new Date(Date.now() - 3_600_000),
    });
    const patch = (isActive: boolean) =>
      server.request(`/api/v1/store/webhooks/endpoints/${endpointId}`, {
        method: 'PATCH',
        headers: jsonHeaders(key),
        body: JSON.stringify({ isActive }),
      });
    expect((await patch(false)).status).toBe(200);
    expect((await patch(true)).status).toBe(200);
    const rows = new Map(
      (await server.prisma.webhookDelivery.findMany({ where: { endpointId } })).map((row) => [row.id, row]),
    );
    expect(rows.get(heldDelivery?.id as string)?.leaseToken).toBe('in-flight');
    expect(await jobsOf(heldDelivery?.id as string)).toEqual([]);
    expect(rows.get(freeDelivery?.id as string)?.leaseToken).toBeNull();
    expect(await jobsOf(freeDelivery?.id as string)).toHaveLength(1);
  });

  it('attempts at once; after a success no job is left', async () => {
    const { endpointId } = await endpointAndEvent('/ok');
    await runJobs();
    const row = await server.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    expect(row).toEqual(expect.objectContaining({ status: 'success', attempt: 1, leaseToken: null }));
    expect(await jobsOf(row.id)).toEqual([]);
  });

  it('after a failure queues the retry, due at nextRetryAt', async () => {
    replies.set('/down', 500);
    const { endpointId } = await endpointAndEvent('/down');
    await runJobs();
    const row = await server.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    expect(row).toEqual(expect.objectContaining({ status: 'failed', attempt: 1, httpStatus: 500 }));
    const jobs = await jobsOf(row.id);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.run_at.getTime()).toBe(row.nextRetryAt?.getTime());
  });
});
