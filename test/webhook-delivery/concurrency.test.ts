import type { Runner } from 'graphile-worker';
import { startWorker } from '../../jobs/worker';
import { loadConfig } from '../../src/config';
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
 * Head-of-line blocking: an attempt may wait on its receiver for the whole deadline (10 s), so the
 * worker's default concurrency (WORKER_CONCURRENCY, 20) must leave room for other stores' deliveries
 * while several receivers hang. With the old default of 5, eight hung receivers held every slot.
 */
const HUNG = 8;
let server: TestServer;
let receiver: Receiver;
let worker: Runner;
const logs = capturingLogger('warn');

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver((request) => (request.path === '/hung' ? { stall: true } : { status: 200 }));
  worker = await startWorker({
    pgPool: server.db.pool,
    logger: logs.logger,
    concurrency: loadConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgres://unused' }).workerConcurrency,
    usageMeter: server.runtime.usage,
    prisma: server.prisma,
    // Hung attempts keep their slots for the rest of the test (the receiver closing ends them).
    webhooks: testWorkerOptions({ timeoutMs: 120_000 }),
    pollInterval: 200,
  });
});
afterAll(async () => {
  await receiver.close();
  await worker.stop();
  await server.close();
});

it(`delivers to a healthy endpoint while ${HUNG} receivers hang on their attempts`, async () => {
  const hung = [];
  for (let i = 0; i < HUNG; i++) hung.push(await storeWithEndpoint(server, receiver.url('/hung')));
  const { key: healthyKey } = await storeWithEndpoint(server, receiver.url('/ok'));
  for (const [i, { key }] of hung.entries()) await createCategory(server, key, `Hung ${i}`);
  await receiver.waitFor(HUNG, (r) => r.path === '/hung');
  await createCategory(server, healthyKey, 'Healthy');
  const [delivered] = await receiver.waitFor(1, (r) => r.path === '/ok');
  expect(JSON.parse(delivered?.body ?? '{}')).toEqual(
    expect.objectContaining({
      type: 'category.created',
      data: { object: expect.objectContaining({ name: 'Healthy' }) },
    }),
  );
  // All eight are still hanging: the healthy delivery did not wait for any of them.
  const stillHanging = await server.prisma.webhookDelivery.count({
    where: {
      storeId: { in: hung.map((h) => h.storeId) },
      status: 'pending',
      attempt: 0,
      leaseToken: { not: null },
    },
  });
  expect(stillHanging).toBe(HUNG);
});
