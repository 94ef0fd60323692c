import { makeWorkerUtils, runOnce, type WorkerUtils } from 'graphile-worker';
import { taskList, type WebhookWorkerOptions } from '../../jobs/registry';
import { workerLogger } from '../../jobs/worker';
import { toScopeObjects } from '../../src/access/scopes';
import { healthBuckets } from '../../src/modules/webhooks/health';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  capturingLogger,
  createCategory,
  type Receiver,
  serverEnv,
  startReceiver,
  storeWithEndpoint,
  testWorkerOptions,
} from '../helpers/webhooks';

/**
 * README "Webhooks", endpoint health: real deliveries to a local HTTPS receiver (200 or 500 as the
 * test says), attempts made at times set on the worker's injected clock, and the health read at a
 * fixed "now" on the API's clock. A bucket counts attempts (every request made, retries included).
 */
let server: TestServer;
let receiver: Receiver;
let utils: WorkerUtils;
let options: WebhookWorkerOptions;
const clock = { now: new Date() };
let answer = 200;
const HOUR = 3_600_000;
const ZONE = 'Asia/Tokyo';

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  // A 500 comes slowly (at least 150 ms): the failing attempts are the slow tail of their hour.
  receiver = await startReceiver(() => (answer === 500 ? { status: 500, delayMs: 150 } : { status: answer }));
  utils = await makeWorkerUtils({ pgPool: server.db.pool });
  options = testWorkerOptions({ now: () => clock.now, random: () => 0.5, timeoutMs: 2000 });
});
afterAll(async () => {
  await options.httpClient.close();
  await utils.release();
  await receiver.close();
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
    logger: workerLogger(capturingLogger('warn').logger),
  });

/** Sends the failed deliveries again now (the resend door): their next attempts are made at `at`. */
async function resendFailed(key: string, at: Date) {
  clock.now = at;
  const failed = await server.prisma.webhookDelivery.findMany({ where: { status: 'failed' } });
  for (const delivery of failed) {
    const res = await server.send('POST', `/api/v1/store/webhooks/deliveries/${delivery.id}/resend`, {}, key);
    expect(res.status).toBe(202);
  }
}

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], fraction: number) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = fraction * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return Math.round(
    (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (rank - low),
  );
}

const tokyoDate = (at: Date) => at.toLocaleDateString('sv-SE', { timeZone: ZONE });
const tokyoTime = (at: Date) => at.toLocaleTimeString('sv-SE', { timeZone: ZONE, hour12: false });

interface Bucket {
  start: string;
  deliveries: number;
  attempts: number;
  succeeded: number;
  failed: number;
  successRate: number | null;
  medianMs: number | null;
  p95Ms: number | null;
}

const healthOf = async (endpointId: string, window: string, key: string) =>
  server.request(`/api/v1/store/webhooks/endpoints/${endpointId}/health?window=${window}`, { key });

const bucketHolding = (buckets: Bucket[], at: Date) =>
  buckets.find((b, i) => {
    const next = buckets[i + 1];
    return new Date(b.start) <= at && (!next || at < new Date(next.start));
  });

describe('endpoint health', () => {
  // "now": half past an hour, a little in the past so that no time is in the future of real time.
  const now = new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR / 2);
  const twoHoursAgo = new Date(now.getTime() - 2 * HOUR);
  const thisHour = new Date(now.getTime() - 10 * 60_000);
  const daysAgo = new Date(now.getTime() - 3 * 24 * HOUR - 9 * HOUR);
  let endpointId = '';
  let key = '';
  let durations: Record<'old' | 'early' | 'late', number[]>;

  beforeAll(async () => {
    const made = await storeWithEndpoint(server, receiver.url('/health'));
    endpointId = made.endpointId;
    key = made.key;
    await server.prisma.store.update({ where: { id: made.storeId }, data: { timezone: ZONE } });
    server.clock.now = now;

    // Three days ago: two deliveries answered 200.
    clock.now = daysAgo;
    answer = 200;
    await createCategory(server, key, 'Old one');
    await createCategory(server, key, 'Old two');
    await runJobs();
    // Two hours ago: three answered 200, two answered 500 (each then retried).
    clock.now = twoHoursAgo;
    for (const name of ['A', 'B', 'C']) await createCategory(server, key, name);
    await runJobs();
    answer = 500;
    for (const name of ['D', 'E']) await createCategory(server, key, name);
    await runJobs();
    // In the current hour: both are sent again and answered 200.
    answer = 200;
    await resendFailed(key, thisHour);
    await runJobs();

    const attempts = await server.prisma.webhookAttempt.findMany({ where: { endpointId } });
    const at = (time: Date) =>
      attempts.filter((a) => a.createdAt.getTime() === time.getTime()).map((a) => a.durationMs);
    durations = { old: at(daysAgo), early: at(twoHoursAgo), late: at(thisHour) };
    expect([durations.old.length, durations.early.length, durations.late.length]).toEqual([2, 5, 2]);
  });

  it('per hour over the last 24 hours: every hour present, attempts, success rate and latencies in their hour', async () => {
    const res = await healthOf(endpointId, 'LAST_24_HOURS', key);
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual(expect.objectContaining({ endpointId, window: 'LAST_24_HOURS', unit: 'hour' }));
    const buckets = data.buckets as Bucket[];
    expect(buckets).toHaveLength(24);
    // Continuous: one hour apart, the last one holding "now".
    for (let i = 1; i < buckets.length; i++)
      expect(new Date(buckets[i]!.start).getTime() - new Date(buckets[i - 1]!.start).getTime()).toBe(HOUR);
    expect(new Date(buckets[23]!.start).getTime()).toBe(now.getTime() - HOUR / 2);

    const early = bucketHolding(buckets, twoHoursAgo);
    expect(early).toEqual({
      start: new Date(twoHoursAgo.getTime() - HOUR / 2).toISOString(),
      deliveries: 5,
      attempts: 5,
      succeeded: 3,
      failed: 2,
      successRate: 0.6,
      medianMs: percentile(durations.early, 0.5),
      p95Ms: percentile(durations.early, 0.95),
    });
    expect(early?.p95Ms).toBeGreaterThanOrEqual(150);
    const late = buckets[23];
    expect(late).toEqual(
      expect.objectContaining({
        deliveries: 2,
        attempts: 2,
        succeeded: 2,
        failed: 0,
        successRate: 1,
        medianMs: percentile(durations.late, 0.5),
        p95Ms: percentile(durations.late, 0.95),
      }),
    );
    // Every other hour is there, empty: zero attempts, no rate and no latency to show.
    const empty = buckets.filter((b) => b !== early && b !== late);
    expect(empty).toHaveLength(22);
    for (const bucket of empty)
      expect(bucket).toEqual({
        start: expect.any(String),
        deliveries: 0,
        attempts: 0,
        succeeded: 0,
        failed: 0,
        successRate: null,
        medianMs: null,
        p95Ms: null,
      });
  });

  it('per day over 30 days, days cut at midnight in the store’s time zone', async () => {
    const res = await healthOf(endpointId, 'LAST_30_DAYS', key);
    expect(res.status).toBe(200);
    const buckets = (await res.json()).data.buckets as Bucket[];
    expect(buckets).toHaveLength(30);
    for (const bucket of buckets) expect(tokyoTime(new Date(bucket.start))).toBe('00:00:00');
    expect(tokyoDate(new Date(buckets[29]!.start))).toBe(tokyoDate(now));

    const old = buckets.find((b) => tokyoDate(new Date(b.start)) === tokyoDate(daysAgo));
    expect(old).toEqual(
      expect.objectContaining({
        attempts: 2,
        succeeded: 2,
        successRate: 1,
        medianMs: percentile(durations.old, 0.5),
        p95Ms: percentile(durations.old, 0.95),
      }),
    );
    // Two hours ago and now fall on one Tokyo day or two: together 7 attempts, 5 of them 2xx.
    const recent = [...durations.early, ...durations.late];
    const recentBuckets = buckets.filter((b) => b.attempts > 0 && b !== old);
    expect(recentBuckets.reduce((sum, b) => sum + b.attempts, 0)).toBe(recent.length);
    expect(recentBuckets.reduce((sum, b) => sum + b.succeeded, 0)).toBe(5);
    if (recentBuckets.length === 1) {
      // D and E were attempted twice that day: 7 attempts of 5 deliveries.
      expect(recentBuckets[0]).toEqual(
        expect.objectContaining({
          deliveries: 5,
          attempts: 7,
          successRate: 5 / 7,
          medianMs: percentile(recent, 0.5),
          p95Ms: percentile(recent, 0.95),
        }),
      );
    }
    expect(buckets.filter((b) => b.attempts === 0).length).toBe(30 - 1 - recentBuckets.length);
  });

  it('answers the same through GraphQL', async () => {
    const res = await server.graphql(
      `query ($id: ID!) { webhookEndpointHealth(id: $id, window: LAST_24_HOURS) { unit buckets { attempts } } }`,
      { id: endpointId },
      key,
    );
    const body = await res.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.webhookEndpointHealth.unit).toBe('hour');
    const counts = body.data.webhookEndpointHealth.buckets.map((b: { attempts: number }) => b.attempts);
    expect(counts.reduce((sum: number, n: number) => sum + n, 0)).toBe(7);
  });

  it('refuses a window it does not know with 400 naming the field (left out, it is the last 24 hours)', async () => {
    for (const window of ['7d', '24h', '']) {
      const res = await healthOf(endpointId, window, key);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.details).toEqual([expect.objectContaining({ path: 'window' })]);
    }
    const missing = await server.request(`/api/v1/store/webhooks/endpoints/${endpointId}/health`, { key });
    expect(missing.status).toBe(200);
    expect((await missing.json()).data.unit).toBe('hour');
  });

  it('hides another store’s endpoint: 404', async () => {
    const other = await makeStoreWithKey(server.prisma);
    const res = await healthOf(endpointId, 'LAST_24_HOURS', other.key);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('NOT_FOUND');
  });

  it('needs the scope of the endpoint’s logs, STORE_SETTINGS READ', async () => {
    const { storeId } = (await server.prisma.webhookEndpoint.findUniqueOrThrow({
      where: { id: endpointId },
    })) as {
      storeId: string;
    };
    const orders = await makeKey(server.prisma, storeId, { scopes: toScopeObjects(['ORDERS:READ']) });
    expect((await healthOf(endpointId, 'LAST_24_HOURS', orders.secret)).status).toBe(403);
    const settings = await makeKey(server.prisma, storeId, {
      scopes: toScopeObjects(['STORE_SETTINGS:READ']),
    });
    expect((await healthOf(endpointId, 'LAST_24_HOURS', settings.secret)).status).toBe(200);
  });
});

describe('buckets across a daylight-saving change (New York, 1 November 2026)', () => {
  const now = new Date('2026-11-02T15:30:00Z');
  let ids: { endpointId: string; storeId: string };

  beforeAll(async () => {
    const made = await storeWithEndpoint(server, receiver.url('/dst'));
    await server.prisma.store.update({ where: { id: made.storeId }, data: { timezone: 'America/New_York' } });
    ids = { endpointId: made.endpointId, storeId: made.storeId };
  });

  it('keeps 24 distinct hours an hour apart, and the 25-hour day as one day from midnight to midnight', async () => {
    const hours = await healthBuckets(server.prisma, {
      ...ids,
      window: 'LAST_24_HOURS',
      now: new Date('2026-11-01T12:30:00Z'),
    });
    expect(hours).toHaveLength(24);
    for (let i = 1; i < hours.length; i++)
      expect(hours[i]!.start.getTime() - hours[i - 1]!.start.getTime()).toBe(HOUR);

    const days = await healthBuckets(server.prisma, { ...ids, window: 'LAST_30_DAYS', now });
    const starts = days.map((d) => d.start.toISOString());
    // Midnight in New York is 04:00Z in summer time and 05:00Z after it: 1 November lasts 25 hours.
    expect(starts.slice(-3)).toEqual([
      '2026-10-31T04:00:00.000Z',
      '2026-11-01T04:00:00.000Z',
      '2026-11-02T05:00:00.000Z',
    ]);
    expect(starts[0]).toBe('2026-10-04T04:00:00.000Z');
  });
});
