import { makeWorkerUtils, quickAddJob, runOnce, type WorkerUtils } from 'graphile-worker';
import { taskList, type WebhookWorkerOptions } from '../../jobs/registry';
import { workerLogger } from '../../jobs/worker';
import { taskName } from '../../src/task-catalog';
import { examplePayload } from '../helpers/event-schemas';
import { freePort } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  capturingLogger,
  createCategory,
  jsonHeaders,
  type Receiver,
  serverEnv,
  startReceiver,
  startSmtpServer,
  storeWithEndpoints,
  testWorkerOptions,
} from '../helpers/webhooks';

/**
 * Failures, the retry schedule, exhaustion, auto-disable, e-mail and replay, with the worker's clock and
 * randomness injected: jobs run through graphile-worker's runOnce, and a retry "waits" by moving the
 * clock to its nextRetryAt and the job's run_at to now.
 */
let server: TestServer;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let utils: WorkerUtils;
let options: WebhookWorkerOptions;
const clock = { now: new Date() };
const workerLogs = capturingLogger('debug');
const replies = new Map<string, number>();
const base = '/api/v1/store/webhooks/endpoints';

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  smtp = await startSmtpServer();
  receiver = await startReceiver((request) => {
    const path = request.path;
    if (path === '/big') return { status: 500, body: 'x'.repeat(5000) };
    if (path === '/slow') return { status: 200, delayMs: 3000 };
    if (path === '/redirect') return { status: 307, headers: { location: '/ok' } };
    return { status: replies.get(path) ?? 200, body: `reply to ${path}` };
  });
  utils = await makeWorkerUtils({ pgPool: server.db.pool });
  options = testWorkerOptions({
    smtpUrl: smtp.url,
    now: () => clock.now,
    random: () => 0.5,
    timeoutMs: 1000,
  });
});
afterAll(async () => {
  await options.httpClient.close();
  options.mailer.close();
  await utils.release();
  await receiver.close();
  await smtp.close();
  await server.close();
});

const runJobs = () =>
  runOnce({
    pgPool: server.db.pool,
    taskList: taskList({
      prisma: server.prisma,
      pool: server.db.pool,
      usageMeter: server.runtime.usage,
      webhooks: options,
    }),
    logger: workerLogger(workerLogs.logger),
  });

/** Lets the scheduled retries come due: the clock moves past them, their jobs to now. */
async function advanceToRetries() {
  const due = await server.prisma.webhookDelivery.aggregate({
    _max: { nextRetryAt: true },
    where: { status: 'failed' },
  });
  if (due._max.nextRetryAt) clock.now = new Date(due._max.nextRetryAt.getTime() + 1);
  const { rows } = await server.db.pool.query<{ id: string }>(
    `SELECT id FROM graphile_worker.jobs WHERE task_identifier = '${taskName.deliver_webhook}' AND locked_at IS NULL`,
  );
  if (rows.length > 0)
    await utils.rescheduleJobs(
      rows.map((row) => row.id),
      { runAt: new Date() },
    );
}

/** Paths are the local receiver's; full https:// URLs are taken as they are. */
const endpointsAt = (paths: string[], events?: string[]) =>
  storeWithEndpoints(
    server,
    paths.map((path) => (path.startsWith('https://') ? path : receiver.url(path))),
    events,
  );

describe('failed attempts', () => {
  it('count 500, timeout, connection refused and 307 as failures with the right status and message', async () => {
    const closedPort = await freePort();
    const { key, endpoints } = await endpointsAt([
      '/big',
      '/slow',
      `https://127.0.0.1:${closedPort}/gone`,
      '/redirect',
    ]);
    clock.now = new Date();
    const attemptAt = clock.now.getTime();
    await createCategory(server, key, 'Boots');
    await runJobs();
    const byUrl = async (index: number) =>
      server.prisma.webhookDelivery.findFirstOrThrow({
        where: { endpointId: endpoints[index]?.id },
        include: { attempts: true },
      });

    const big = await byUrl(0);
    expect(big).toEqual(expect.objectContaining({ status: 'failed', attempt: 1, httpStatus: 500 }));
    expect(big.errorMessage).toMatch(/500/);
    expect(big.responseBody).toBe('x'.repeat(1024));
    expect(big.nextRetryAt?.getTime()).toBe(attemptAt + 120_000);

    const slow = await byUrl(1);
    expect(slow).toEqual(expect.objectContaining({ status: 'failed', attempt: 1, httpStatus: 0 }));
    expect(slow.errorMessage).toMatch(/timeout|timed out/i);

    const refused = await byUrl(2);
    expect(refused).toEqual(expect.objectContaining({ status: 'failed', attempt: 1, httpStatus: 0 }));
    expect(refused.errorMessage).toMatch(/refused/i);

    const redirect = await byUrl(3);
    expect(redirect).toEqual(expect.objectContaining({ status: 'failed', attempt: 1, httpStatus: 307 }));
    expect(redirect.errorMessage).toMatch(/redirect/i);
    expect(receiver.requests.filter((r) => r.path === '/ok')).toEqual([]);

    for (const delivery of [big, slow, refused, redirect]) {
      expect(delivery.attempts).toEqual([
        expect.objectContaining({
          number: 1,
          status: 'failed',
          httpStatus: delivery.httpStatus,
          errorMessage: delivery.errorMessage,
          responseBody: delivery.responseBody,
        }),
      ]);
    }
    // Each failure queued exactly one next attempt, due at its nextRetryAt.
    const { rows } = await server.db.pool.query(
      `SELECT key, run_at FROM graphile_worker.jobs WHERE task_identifier = '${taskName.deliver_webhook}' AND key = ANY($1)`,
      [[big.id, slow.id, refused.id, redirect.id]],
    );
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      const delivery = [big, slow, refused, redirect].find((d) => d.id === row.key);
      expect(new Date(row.run_at).getTime()).toBe(delivery?.nextRetryAt?.getTime());
    }
    // Out of the way of the next test.
    await server.prisma.webhookDelivery.deleteMany({
      where: { id: { in: [big.id, slow.id, refused.id, redirect.id] } },
    });
  });
});

describe('retries, exhaustion, auto-disable and replay', () => {
  it('retries on schedule with the same delivery id, exhausts after the 8th failure, disables at the 3rd, e-mails the owner, and replays', async () => {
    replies.set('/flaky', 503);
    const { key, store, endpoints } = await endpointsAt(['/flaky']);
    const endpointId = endpoints[0]?.id as string;
    clock.now = new Date();
    for (const name of ['One', 'Two', 'Three']) await createCategory(server, key, name);
    const expectedWaits = [120_000, 480_000, 1_920_000, 7_680_000, 21_600_000, 21_600_000, 21_600_000];
    let lateId = '';
    for (let round = 1; round <= 8; round++) {
      if (round === 3) await createCategory(server, key, 'Late');
      const attemptAt = clock.now.getTime();
      await runJobs();
      const deliveries = await server.prisma.webhookDelivery.findMany({
        where: { endpointId },
        orderBy: { createdAt: 'asc' },
      });
      const early = deliveries.slice(0, 3);
      for (const delivery of early) {
        expect(delivery.attempt).toBe(round);
        if (round < 8) {
          expect(delivery.status).toBe('failed');
          expect((delivery.nextRetryAt?.getTime() ?? 0) - attemptAt).toBe(expectedWaits[round - 1]);
        } else {
          expect(delivery).toEqual(
            expect.objectContaining({
              status: 'exhausted',
              nextRetryAt: null,
              exhaustedAt: expect.any(Date),
            }),
          );
        }
      }
      if (round >= 3) lateId = (deliveries[3]?.id as string) ?? lateId;
      await advanceToRetries();
    }
    // The same delivery id and the same body on every attempt.
    const first = await server.prisma.webhookDelivery.findFirstOrThrow({
      where: { endpointId },
      orderBy: { createdAt: 'asc' },
    });
    const sent = receiver.requests.filter((r) => r.headers['x-service-delivery'] === first.id);
    expect(sent).toHaveLength(8);
    expect(new Set(sent.map((r) => r.body)).size).toBe(1);
    expect(new Set(sent.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(JSON.parse(sent[0]?.body as string).id).toBe(first.id);

    // Three exhausted within 7 days: disabled, owner told, nothing more attempted.
    const endpoint = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(endpoint).toEqual(expect.objectContaining({ isActive: false, disabledAt: expect.any(Date) }));
    expect(endpoint.disabledReason).toMatch(/3 deliveries exhausted/);
    await runJobs(); // the queued e-mail
    const owner = await server.prisma.staffUser.findUniqueOrThrow({ where: { id: store.ownerId as string } });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]?.to).toEqual([owner.email]);
    const mail = (smtp.messages[0]?.raw ?? '').replace(/=\r?\n/g, ''); // undo quoted-printable line breaks
    expect(mail).toContain(`Subject: Webhook endpoint disabled: ${endpoints[0]?.url}`);
    expect(mail).toContain(endpointId);

    const late = await server.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: lateId } });
    // Still retrying: attempted in rounds 3 to 7, and in round 8 too unless the endpoint was disabled first.
    expect(late.status).toBe('failed');
    expect([5, 6]).toContain(late.attempt);
    const sentBefore = receiver.requests.length;
    await advanceToRetries();
    await runJobs();
    await createCategory(server, key, 'While disabled');
    await runJobs();
    expect(receiver.requests.length).toBe(sentBefore);
    expect(await server.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: lateId } })).toEqual(
      expect.objectContaining({ status: 'failed', attempt: late.attempt }),
    );
    expect(await server.prisma.webhookDelivery.count({ where: { endpointId } })).toBe(4);

    // Replay needs an active endpoint; re-activation resumes the waiting delivery.
    const refused = await server.request(`${base}/${endpointId}/replay-exhausted`, { method: 'POST', key });
    expect(refused.status).toBe(409);
    replies.set('/flaky', 200);
    const patched = await server.request(`${base}/${endpointId}`, {
      method: 'PATCH',
      headers: jsonHeaders(key),
      body: JSON.stringify({ isActive: true }),
    });
    expect((await patched.json()).data).toEqual(
      expect.objectContaining({ isActive: true, disabledReason: null }),
    );
    const replay = await server.request(`${base}/${endpointId}/replay-exhausted`, { method: 'POST', key });
    expect(replay.status).toBe(200);
    expect((await replay.json()).data).toEqual({ replayed: 3 });
    const replayed = await server.prisma.webhookDelivery.findMany({
      where: { endpointId, status: 'pending' },
    });
    expect(replayed).toHaveLength(3);
    for (const delivery of replayed)
      expect(delivery).toEqual(expect.objectContaining({ attempt: 0, exhaustedAt: null, nextRetryAt: null }));
    await runJobs();
    const done = await server.prisma.webhookDelivery.findMany({
      where: { endpointId },
      include: { attempts: { orderBy: { number: 'asc' } } },
    });
    expect(done.map((d) => d.status)).toEqual(['success', 'success', 'success', 'success']);
    const again = done.find((d) => d.id === first.id);
    expect(again?.attempt).toBe(1);
    expect(again?.attempts.map((a) => [a.number, a.status])).toEqual([
      ...Array.from({ length: 7 }, (_, i) => [i + 1, 'failed']),
      [8, 'exhausted'],
      [9, 'success'],
    ]);
    const second = await (
      await server.request(`${base}/${endpointId}/replay-exhausted`, { method: 'POST', key })
    ).json();
    expect(second.data).toEqual({ replayed: 0 });

    // Every attempt is visible through GraphQL.
    const gql = await (
      await server.graphql(
        `query($id: ID!) { webhookDeliveries(endpointId: $id, limit: 10) { items { id attempts { number status httpStatus } } } }`,
        { id: endpointId },
        key,
      )
    ).json();
    const listed = gql.data.webhookDeliveries.items.find((d: { id: string }) => d.id === first.id);
    expect(listed.attempts).toHaveLength(9);
  });

  it('does not disable for exhausted deliveries spread over more than 7 days', async () => {
    const { key, store, endpoints } = await endpointsAt(['/spread']);
    const endpointId = endpoints[0]?.id as string;
    const event = await server.prisma.event.create({
      data: { storeId: store.id, type: 'category.created', data: {} },
    });
    const day = 86_400_000;
    clock.now = new Date();
    for (const age of [9, 8]) {
      const other = await server.prisma.event.create({
        data: { storeId: store.id, type: 'category.created', data: {} },
      });
      await server.prisma.webhookDelivery.create({
        data: {
          endpointId,
          eventId: other.id,
          storeId: store.id,
          eventType: 'category.created',
          payload: '{}',
          status: 'exhausted',
          attempt: 8,
          exhaustedAt: new Date(clock.now.getTime() - age * day),
        },
      });
    }
    const sent = 'msg_spread';
    await server.prisma.webhookDelivery.create({
      data: {
        id: sent,
        endpointId,
        eventId: event.id,
        storeId: store.id,
        eventType: 'category.created',
        // the one of these bodies that is sent: a receiver holds it to its published schema
        payload: examplePayload('category.created', sent),
        status: 'failed',
        attempt: 7,
      },
    });
    replies.set('/spread', 500);
    const delivery = await server.prisma.webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
    await server.db.pool.query(
      `SELECT graphile_worker.add_job('${taskName.deliver_webhook}', json_build_object('deliveryId', $1::text), job_key := $1::text)`,
      [delivery.id],
    );
    await runJobs();
    expect(
      (await server.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).status,
    ).toBe('exhausted');
    expect(
      (await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).isActive,
    ).toBe(true);
    void key;
  });
});

describe('pruning', () => {
  it('deletes finished deliveries older than the retention and keeps the rest', async () => {
    const { store, endpoints } = await endpointsAt(['/prune']);
    const endpointId = endpoints[0]?.id as string;
    clock.now = new Date();
    const old = new Date(clock.now.getTime() - 31 * 86_400_000);
    const rows: Record<string, string> = {};
    for (const [name, status, createdAt] of [
      ['oldSuccess', 'success', old],
      ['oldExhausted', 'exhausted', old],
      ['oldFailed', 'failed', old],
      ['recentSuccess', 'success', clock.now],
    ] as const) {
      const event = await server.prisma.event.create({
        data: { storeId: store.id, type: 'category.created', data: {}, createdAt },
      });
      const delivery = await server.prisma.webhookDelivery.create({
        data: {
          endpointId,
          eventId: event.id,
          storeId: store.id,
          eventType: 'category.created',
          payload: '{}',
          status,
          createdAt,
        },
      });
      rows[name] = delivery.id;
    }
    await quickAddJob({ pgPool: server.db.pool }, taskName.prune_webhook_deliveries, {});
    await runJobs();
    const left = await server.prisma.webhookDelivery.findMany({ where: { endpointId } });
    expect(left.map((d) => d.id).sort()).toEqual([rows.oldFailed, rows.recentSuccess].sort());
  });
});
