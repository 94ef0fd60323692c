import type { AddressInfo } from 'node:net';
import { run } from 'graphile-worker';
import { startWorker, workerLogger } from '../jobs/worker';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase, workerPoolSize } from '../src/db/client';
import { emitEvent } from '../src/events/outbox';
import { listen } from '../src/http/server';
import { createLogger } from '../src/logger';
import { issueApiKey } from '../src/modules/api-keys/issue';
import { createRuntime } from '../src/runtime';
import { createUsageMeter } from '../src/usage/meter';
import { allScopes, makeStore } from '../test/helpers/factories';
import { testWorkerOptions } from '../test/helpers/webhooks';
import { withBenchDatabase } from './database';
import { startReceiverProcess } from './receiver-process';

/**
 * Webhook pipeline throughput and latency (issue 5), on one machine with a local HTTPS receiver in a
 * process of its own:
 * 1. graphile-worker's own throughput on no-op jobs, then deliveries per second end to end (event →
 *    fan-out → signed POST → log updated) with the same concurrency (the configured default) and poll interval, in alternating
 *    rounds of several seconds each; target: the ratio of the medians ≥ 0.25 (each delivery is one
 *    fan-out job that makes the first attempt: two statements of its own and a TLS request).
 * 2. The median time from a committed mutation (POST /api/v1/category) to the receiver getting the
 *    request, one at a time, API and worker in one process; target ≤ 100 ms.
 */
const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 100);
const POLL_INTERVAL = 1000;
/** BENCH_STUB_HTTP=1: no HTTP at all (throughput of the database and queue side; no latency figures). */
const STUB_HTTP = process.env.BENCH_STUB_HTTP === '1';

const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;
const percentile = (values: number[], p: number) =>
  [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(values.length * p))] as number;

async function waitUntil(check: () => Promise<boolean>, intervalMs = 25) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, intervalMs));
}

async function bench(databaseUrl: string) {
  const logger = createLogger('silent');
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000',
    COST_BUDGET_POINTS: '1000000000',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...(process.env.WORKER_CONCURRENCY ? { WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY } : {}),
  });
  // The production default (WORKER_CONCURRENCY), for both sides.
  const CONCURRENCY = config.workerConcurrency;
  // The production pool size for a worker of the configured concurrency.
  const db = connectDatabase(databaseUrl, { max: workerPoolSize(config.workerConcurrency) });
  const receiver = await startReceiverProcess();
  const pending = async (task: string) =>
    (
      await db.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = $1',
        [task],
      )
    ).rows[0]?.n ?? 0;

  // 1a. graphile-worker alone: no-op jobs. A round starts a worker on jobs already queued.
  const noopRound = async () => {
    await db.pool.query(
      `SELECT graphile_worker.add_job('bench_noop', '{}'::json) FROM generate_series(1, $1)`,
      [JOBS],
    );
    const started = performance.now();
    const noop = await run({
      pgPool: db.pool,
      concurrency: CONCURRENCY,
      pollInterval: POLL_INTERVAL,
      noHandleSignals: true,
      taskList: { bench_noop: async () => {} },
      logger: workerLogger(logger),
    });
    await waitUntil(async () => (await pending('bench_noop')) === 0);
    const seconds = (performance.now() - started) / 1000;
    await noop.stop();
    return JOBS / seconds;
  };

  // 1b. Deliveries end to end: a round's events are committed first, then a worker starts on them.
  const store = await makeStore(db.prisma);
  const workerOptions = () => {
    const options = testWorkerOptions({ timeoutMs: config.webhook.timeoutMs });
    if (STUB_HTTP) {
      // Diagnostic: the database and queue side alone, every POST answered at once without a request.
      options.httpClient = {
        post: async () => ({
          ok: true,
          httpStatus: 200,
          responseBody: 'ok',
          errorMessage: null,
          durationMs: 0,
        }),
        close: async () => {},
      };
    }
    return options;
  };
  const endpointId = 'whe_bench';
  await db.prisma.webhookEndpoint.create({
    data: {
      id: endpointId,
      storeId: store.id,
      url: receiver.url('/bench'),
      events: ['category.created'],
      secretCiphertext: workerOptions().secrets.seal(
        'whsec_YmVuY2hiZW5jaGJlbmNoYmVuY2hiZW5jaGJlbmNoYmU=',
        endpointId,
      ),
    },
  });
  const usageMeter = createUsageMeter({ redis: null, logger });
  // Polled like the no-op jobs above: one plain statement, so the watching costs both runs the same.
  const delivered = async () =>
    (
      await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "endpointId" = $1 AND status = 'success'`,
        [endpointId],
      )
    ).rows[0]?.n ?? 0;
  const deliveryWorker = () =>
    startWorker({
      pgPool: db.pool,
      logger,
      concurrency: CONCURRENCY,
      usageMeter,
      prisma: db.prisma,
      webhooks: workerOptions(),
      pollInterval: POLL_INTERVAL,
    });
  const deliveryRound = async () => {
    const before = await delivered();
    for (let offset = 0; offset < DELIVERIES; offset += 100) {
      await db.prisma.$transaction(async (tx) => {
        for (let i = before + offset; i < before + Math.min(DELIVERIES, offset + 100); i++) {
          await emitEvent(tx, {
            storeId: store.id,
            type: 'category.created',
            data: { object: { id: `cat_${i}`, name: `Category ${i}` } },
            now: new Date(),
          });
        }
      });
    }
    const started = performance.now();
    const worker = await deliveryWorker();
    await waitUntil(async () => (await delivered()) === before + DELIVERIES);
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    return DELIVERIES / seconds;
  };

  // Rounds alternate, so that a slow spell of this shared machine does not fall on one side only;
  // the medians are compared.
  const noopRates: number[] = [];
  const deliveryRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    noopRates.push(await noopRound());
    deliveryRates.push(await deliveryRound());
  }
  const jobsPerSecond = median(noopRates);
  const deliveriesPerSecond = median(deliveryRates);
  const failed = await db.prisma.webhookDelivery.count({ where: { endpointId, status: { not: 'success' } } });

  // 2. Latency: mutation committed → receiver has the request.
  const worker = await deliveryWorker();
  const runtime = createRuntime({ config, prisma: db.prisma, redis: null, logger });
  await runtime.start();
  const { secret: key } = await issueApiKey(
    db.prisma,
    store.id,
    { keyName: 'bench', environment: 'production', scopes: allScopes() },
    { now: new Date() },
  );
  await db.prisma.webhookEndpoint.update({
    where: { id: endpointId },
    data: { url: receiver.url('/latency') },
  });
  const server = await listen(createApp({ config, redis: null, logger, runtime }), 0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fromCommit: number[] = [];
  const fromRequest: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES + 10; i++) {
    const arrival = receiver.nextLatencyArrival();
    const sent = Date.now();
    const res = await fetch(`${base}/api/v1/category`, {
      method: 'POST',
      headers: { 'tt-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Latency ${i}` }),
    });
    const committed = Date.now(); // the response leaves after the commit: a lower bound of the commit time's lag
    if (res.status !== 201) throw new Error(`unexpected status ${res.status}`);
    await res.arrayBuffer();
    if (STUB_HTTP) break;
    const received = await arrival;
    if (i >= 10) {
      fromCommit.push(received - committed);
      fromRequest.push(received - sent);
    }
  }

  console.log(
    `concurrency ${CONCURRENCY}, poll interval ${POLL_INTERVAL} ms (LISTEN/NOTIFY wakes workers at once)`,
  );
  const rates = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
  console.log(
    `  graphile-worker no-op jobs, ${JOBS} per round: median ${jobsPerSecond.toFixed(0)} jobs/s (rounds: ${rates(noopRates)})`,
  );
  console.log(
    `  webhook deliveries end to end, ${DELIVERIES} per round: median ${deliveriesPerSecond.toFixed(0)} deliveries/s (rounds: ${rates(deliveryRates)}; ${failed} not successful)`,
  );
  const ratio = deliveriesPerSecond / jobsPerSecond;
  console.log(`  ratio ${ratio.toFixed(2)}; target ≥ 0.25: ${ratio >= 0.25 ? 'met' : 'NOT met'}`);
  if (STUB_HTTP) return finish();
  console.log(
    `  mutation → receiver, ${LATENCY_SAMPLES} sequential: median ${median(fromCommit)} ms after the response (p95 ${percentile(fromCommit, 0.95)} ms), ${median(fromRequest)} ms after the request was sent (p95 ${percentile(fromRequest, 0.95)} ms)`,
  );
  console.log(
    `  target median ≤ 100 ms (counted from the request): ${median(fromRequest) <= 100 ? 'met' : 'NOT met'}`,
  );

  await finish();

  async function finish() {
    server.close();
    await worker.stop();
    await runtime.stop();
    await receiver.close();
    await db.close();
  }
}

withBenchDatabase('webhooks', bench)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
