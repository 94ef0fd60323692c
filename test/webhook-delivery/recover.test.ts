import { runOnce } from 'graphile-worker';
import { taskList, type WebhookWorkerOptions } from '../../jobs/registry';
import { makeRecoverWebhookDeliveries } from '../../jobs/tasks/recover_webhook_deliveries';
import { workerLogger } from '../../jobs/worker';
import { runCli } from '../../src/cli/index';
import { createLogger } from '../../src/logger';
import { taskName } from '../../src/task-catalog';
import { RECOVER_BATCH_SIZE } from '../../src/webhook-delivery/recover';
import { signatureProblem } from '../../src/webhook-delivery/signing';
import { makeKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  createCategory,
  eventually,
  jsonHeaders,
  type Receiver,
  serverEnv,
  startReceiver,
  storeWithEndpoint,
  testWorkerOptions,
} from '../helpers/webhooks';

/**
 * README "Webhooks", Recover: after an outage of the receiver, one recover re-sends the endpoint's
 * failed and exhausted deliveries of a window (and of chosen types) through one background job, with
 * its progress; never twice, also when a second recover or a replay races it. Jobs run through
 * graphile-worker's runOnce.
 */
let server: TestServer;
let receiver: Receiver;
let options: WebhookWorkerOptions;
let receiverDown = true;
const base = '/api/v1/store/webhooks';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver(() => ({ status: receiverDown ? 503 : 200 }));
  options = testWorkerOptions({ timeoutMs: 2000 });
});
afterAll(async () => {
  await options.httpClient.close();
  options.mailer.close();
  await receiver.close();
  await server.close();
});

const tasks = () =>
  taskList({
    prisma: server.prisma,
    pool: server.db.pool,
    usageMeter: server.runtime.usage,
    webhooks: options,
  });
const logger = workerLogger(createLogger('silent'));
/** Every job due now, attempts included. */
const runJobs = () => runOnce({ pgPool: server.db.pool, taskList: tasks(), logger });
/** Only recover jobs: the re-queued attempts stay queued, to be counted. */
const runRecoverJobs = () =>
  runOnce({
    pgPool: server.db.pool,
    taskList: { [taskName.recover_webhook_deliveries]: tasks()[taskName.recover_webhook_deliveries] },
    logger,
  });

/** The server's clock is the test's: it is set to now for each recover. */
const recover = (key: string, endpointId: string, input: unknown) => {
  server.clock.now = new Date();
  return server.request(`${base}/endpoints/${endpointId}/recover`, {
    method: 'POST',
    headers: jsonHeaders(key),
    body: JSON.stringify(input),
  });
};
const recoveryOf = async (key: string, id: string) =>
  (await (await server.request(`${base}/recoveries/${id}`, { key })).json()).data;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** Deliveries of category.created events in `status` order, a millisecond apart from a second after `since`. */
async function insertDeliveries(
  endpointId: string,
  storeId: string,
  since: Date,
  statuses: Array<'failed' | 'exhausted'>,
) {
  const events = await server.prisma.event.createManyAndReturn({
    data: statuses.map(() => ({ storeId, type: 'category.created', data: {} })),
    select: { id: true },
  });
  await server.prisma.webhookDelivery.createMany({
    data: events.map((event, index) => ({
      endpointId,
      storeId,
      eventId: event.id,
      eventType: 'category.created',
      status: statuses[index],
      attempt: statuses[index] === 'exhausted' ? 8 : 1,
      payload: JSON.stringify({ id: event.id }),
      createdAt: new Date(since.getTime() + 1000 + index),
    })),
  });
}

describe('recover after an outage', () => {
  it('re-sends exactly the failed and exhausted deliveries of the window and types, signed anew, and reports done', async () => {
    receiverDown = true;
    const { key, endpointId, secret } = await storeWithEndpoint(server, receiver.url('/outage'), [
      'category.created',
      'category.updated',
    ]);
    for (const name of ['Boots', 'Hats', 'Scarves', 'Old']) await createCategory(server, key, name);
    const renamed = await createCategory(server, key, 'Gloves');
    await server.request(`/api/v1/category/${renamed.id}`, {
      method: 'PATCH',
      headers: jsonHeaders(key),
      body: JSON.stringify({ name: 'Mittens' }),
    });
    await runJobs();
    const failed = await server.prisma.webhookDelivery.findMany({
      where: { endpointId },
      orderBy: { createdAt: 'asc' },
    });
    expect(failed.map((d) => d.status)).toEqual(Array(6).fill('failed'));
    const [boots, hats, scarves, old, gloves, mittens] = failed;
    // Hats ran out of retries; Old is two days old, outside the window; Gloves was delivered meanwhile.
    await server.prisma.webhookDelivery.update({
      where: { id: hats?.id },
      data: { status: 'exhausted', exhaustedAt: new Date(), nextRetryAt: null },
    });
    await server.prisma.webhookDelivery.update({
      where: { id: old?.id },
      data: { createdAt: new Date(Date.now() - 2 * DAY) },
    });
    await server.prisma.webhookDelivery.update({
      where: { id: gloves?.id },
      data: { status: 'success', deliveredAt: new Date(), nextRetryAt: null },
    });

    receiverDown = false;
    const sentBefore = receiver.requests.length;
    const res = await recover(key, endpointId, { since: ago(HOUR), eventTypes: ['category.created'] });
    expect(res.status).toBe(202);
    const queued = (await res.json()).data;
    expect(queued).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^wrc_/),
        endpointId,
        status: 'queued',
        eventTypes: ['category.created'],
        total: null,
        done: 0,
        queued: 0,
      }),
    );
    await runJobs();

    const resent = receiver.requests.slice(sentBefore);
    const resentIds = resent.map((r) => r.headers['webhook-id']).sort();
    expect(resentIds).toEqual([boots?.id, hats?.id, scarves?.id].sort());
    for (const request of resent) {
      const original = failed.find((d) => d.id === request.headers['webhook-id']);
      expect(request.body).toBe(original?.payload); // the same event and envelope
      expect(JSON.parse(request.body).id).toBe(original?.id);
      expect(
        signatureProblem({
          secret,
          header: request.headers['x-service-signature'],
          body: request.body,
          nowSeconds: Math.floor(Date.now() / 1000),
        }),
      ).toBeNull();
    }
    const after = await server.prisma.webhookDelivery.findMany({ where: { endpointId } });
    const statusOf = (id?: string) => after.find((d) => d.id === id)?.status;
    expect([boots, hats, scarves].map((d) => statusOf(d?.id))).toEqual(['success', 'success', 'success']);
    expect(statusOf(old?.id)).toBe('failed');
    expect(statusOf(mittens?.id)).toBe('failed'); // category.updated was not chosen
    expect(statusOf(gloves?.id)).toBe('success');

    expect(await recoveryOf(key, queued.id)).toEqual(
      expect.objectContaining({
        status: 'done',
        total: 3,
        done: 3,
        queued: 3,
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
      }),
    );
    // GraphQL shows the same record, newest first in the endpoint's list.
    const gql = await (
      await server.graphql(
        `query($id: ID!) { webhookRecoveries(endpointId: $id, limit: 1) { items { id status total done queued } } }`,
        { id: endpointId },
        key,
      )
    ).json();
    expect(gql.data.webhookRecoveries.items).toEqual([
      { id: queued.id, status: 'done', total: 3, done: 3, queued: 3 },
    ]);
  });
});

describe('recover refuses', () => {
  it('a window out of bounds, an unknown event type, a second recover while one is queued, another store’s endpoint, a key without STORE_SETTINGS UPDATE', async () => {
    const { key, endpointId, store } = await storeWithEndpoint(server, receiver.url('/refusals'));
    const cases: Array<[unknown, string]> = [
      [{ since: new Date(Date.now() + HOUR).toISOString() }, 'input.since'],
      [{ since: ago(31 * DAY) }, 'input.since'],
      [{ since: ago(HOUR), until: ago(2 * HOUR) }, 'input.until'],
      [{ since: ago(HOUR), eventTypes: ['category.created', 'order.exploded'] }, 'input.eventTypes.1'],
      [{ since: 'yesterday' }, 'input.since'],
      [{}, 'input.since'],
    ];
    for (const [input, path] of cases) {
      const res = await recover(key, endpointId, input);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
    }

    const [first, second] = await Promise.all([
      recover(key, endpointId, { since: ago(DAY) }),
      recover(key, endpointId, { since: ago(DAY) }),
    ]);
    expect([first.status, second.status].sort()).toEqual([202, 409]);
    const refused = await (first.status === 409 ? first : second).json();
    const accepted = (await (first.status === 202 ? first : second).json()).data;
    expect(refused.code).toBe('WEBHOOK_RECOVERY_IN_PROGRESS');
    expect(refused.details).toEqual(expect.arrayContaining([{ path: 'recoveryId', message: accepted.id }]));

    const other = await storeWithEndpoint(server, receiver.url('/other'));
    expect((await recover(other.key, endpointId, { since: ago(HOUR) })).status).toBe(404);
    expect((await server.request(`${base}/recoveries/${accepted.id}`, { key: other.key })).status).toBe(404);
    expect(
      (await server.request(`${base}/endpoints/${endpointId}/recoveries`, { key: other.key })).status,
    ).toBe(404);

    const { secret: readOnly } = await makeKey(server.prisma, store.id, {
      scopes: [{ resource: 'STORE_SETTINGS', actions: ['READ'] }],
    });
    expect((await recover(readOnly, endpointId, { since: ago(HOUR) })).status).toBe(403);
    expect((await server.request(`${base}/recoveries/${accepted.id}`, { key: readOnly })).status).toBe(200);

    // Once the first is done, the endpoint may be recovered again.
    await runRecoverJobs();
    expect((await recoveryOf(key, accepted.id)).status).toBe('done');
    expect((await recover(key, endpointId, { since: ago(HOUR) })).status).toBe(202);
  });
});

describe('recover never sends a delivery twice', () => {
  it('shares the deliveries exactly with a replay racing its batches: each is re-queued once, one attempt queued each', async () => {
    const { key, endpointId, storeId } = await storeWithEndpoint(server, receiver.url('/race'));
    // More than one batch of exhausted deliveries, and some failed ones the replay does not take.
    const exhausted = RECOVER_BATCH_SIZE + 40;
    const failedCount = 30;
    const since = new Date(Date.now() - HOUR);
    await insertDeliveries(endpointId, storeId, since, [
      ...Array<'exhausted'>(exhausted).fill('exhausted'),
      ...Array<'failed'>(failedCount).fill('failed'),
    ]);
    const ids = (
      await server.prisma.webhookDelivery.findMany({ where: { endpointId }, select: { id: true } })
    ).map((d) => d.id);

    const res = await recover(key, endpointId, { since: since.toISOString() });
    expect(res.status).toBe(202);
    const { id } = (await res.json()).data;
    const [, replay] = await Promise.all([
      runRecoverJobs(),
      server.request(`${base}/endpoints/${endpointId}/replay-exhausted`, { method: 'POST', key }),
    ]);
    const { replayed } = (await replay.json()).data;
    const done = await recoveryOf(key, id);
    expect(done.status).toBe('done');
    expect(done.queued + replayed).toBe(exhausted + failedCount);
    expect(done.done).toBe(done.total);
    expect(done.queued).toBeGreaterThanOrEqual(failedCount);

    expect(
      await server.prisma.webhookDelivery.count({ where: { endpointId, status: 'pending', attempt: 0 } }),
    ).toBe(ids.length);
    const { rows } = await server.db.pool.query<{ key: string; jobs: number }>(
      `SELECT key, count(*)::int AS jobs FROM graphile_worker.jobs WHERE task_identifier = $1 AND key = ANY($2) GROUP BY key`,
      [taskName.deliver_webhook, ids],
    );
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((row) => row.jobs === 1)).toBe(true);

    // A second recover of the same window finds nothing left to re-queue.
    const again = await recover(key, endpointId, { since: since.toISOString() });
    const second = (await again.json()).data;
    await runRecoverJobs();
    expect(await recoveryOf(key, second.id)).toEqual(
      expect.objectContaining({ status: 'done', total: 0, queued: 0 }),
    );
    await server.prisma.webhookDelivery.deleteMany({ where: { endpointId } });
  });
});

describe('npm run cli -- webhook recover', () => {
  it('queues the recover and prints its progress until it is done', async () => {
    receiverDown = true;
    const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/cli'));
    await createCategory(server, key, 'Socks');
    await runJobs();
    receiverDown = false;
    const out: string[] = [];
    const err: string[] = [];
    const exit = runCli(['webhook', 'recover', '--endpoint', endpointId, '--since', ago(HOUR)], {
      db: server.prisma,
      out: (text) => out.push(text),
      err: (text) => err.push(text),
    });
    await eventually(() => server.prisma.webhookRecovery.findFirst({ where: { endpointId } }));
    await runRecoverJobs();
    expect(await exit).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toMatch(/^wrc_\w+ {2}queued {2}0\/\? gone through, 0 re-queued$/);
    expect(out.at(-1)).toMatch(/^wrc_\w+ {2}done {2}1\/1 gone through, 1 re-queued$/);

    const refused: string[] = [];
    const code = await runCli(['webhook', 'recover', '--endpoint', endpointId, '--since', ago(40 * DAY)], {
      db: server.prisma,
      out: () => {},
      err: (text) => refused.push(text),
    });
    expect(code).not.toBe(0);
    expect(refused.join('\n')).toMatch(/^Error: --since: must be at most 30 days back/);
  });
});

describe('a recover job run again', () => {
  it('goes on from the cursor its last committed batch left, counting on', async () => {
    const { key, endpointId, storeId } = await storeWithEndpoint(server, receiver.url('/resume'));
    const since = new Date(Date.now() - HOUR);
    await insertDeliveries(endpointId, storeId, since, Array<'failed'>(6).fill('failed'));
    const deliveries = await server.prisma.webhookDelivery.findMany({
      where: { endpointId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const third = deliveries[2] as (typeof deliveries)[number];
    // As a worker that died after its first batch (the first three) would have left it.
    const recovery = await server.prisma.webhookRecovery.create({
      data: {
        storeId,
        endpointId,
        status: 'running',
        since,
        until: new Date(),
        eventTypes: [],
        total: 6,
        done: 3,
        queued: 3,
        cursorCreatedAt: third.createdAt,
        cursorId: third.id,
        startedAt: new Date(),
      },
    });
    await server.db.pool.query('SELECT graphile_worker.add_job($1, json_build_object($2::text, $3::text))', [
      taskName.recover_webhook_deliveries,
      'recoveryId',
      recovery.id,
    ]);
    await runRecoverJobs();

    expect(await recoveryOf(key, recovery.id)).toEqual(
      expect.objectContaining({ status: 'done', total: 6, done: 6, queued: 6 }),
    );
    const after = await server.prisma.webhookDelivery.findMany({
      where: { endpointId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    expect(after.map((d) => d.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'pending',
      'pending',
      'pending',
    ]);
    await server.prisma.webhookDelivery.deleteMany({ where: { endpointId } });
  });
});

describe('a recover job that gives up', () => {
  it('marks its recovery failed, with the error, after its last attempt', async () => {
    const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/gives-up'));
    const res = await recover(key, endpointId, { since: ago(HOUR) });
    const { id } = (await res.json()).data;
    // Its job, queued again under its key with one attempt only (add_job replaces the waiting one).
    await server.db.pool.query(
      `SELECT graphile_worker.add_job($1, json_build_object('recoveryId', $2::text), job_key := $2, max_attempts := 1)`,
      [taskName.recover_webhook_deliveries, id],
    );
    let calls = 0;
    const brokenClock = () => {
      calls += 1;
      if (calls === 1) throw new Error('the clock broke');
      return new Date();
    };
    await runOnce({
      pgPool: server.db.pool,
      taskList: {
        [taskName.recover_webhook_deliveries]: makeRecoverWebhookDeliveries({
          prisma: server.prisma,
          now: brokenClock,
        }),
      },
      logger,
    });
    expect(await recoveryOf(key, id)).toEqual(
      expect.objectContaining({
        status: 'failed',
        errorMessage: 'the clock broke',
        finishedAt: expect.any(String),
      }),
    );
    // A failed recovery no longer holds the endpoint.
    expect((await recover(key, endpointId, { since: ago(HOUR) })).status).toBe(202);
  });
});
