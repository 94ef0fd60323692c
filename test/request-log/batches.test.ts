import type { Request, Response } from 'express';
import { connectDatabase, type Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { createRequestLog } from '../../src/request-log/recorder';
import { createDatabaseFromTemplate } from '../helpers/databases';

/**
 * README "Request log": entries are written in batches — one statement as soon as a whole batch
 * waits, and what is left every REQUEST_LOG_FLUSH_MS — so a busy process sends a few statements a
 * second, each of a whole batch, not one after every write with whatever came in meanwhile.
 */
let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 2 });
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

/** A finished request as the recorder sees it: its state, method, path and status. */
function finished(storeId: string, i: number): [Request, Response] {
  const req = {
    method: 'GET',
    originalUrl: '/api/v1/category',
    state: {
      requestId: `req_batch_${i}`,
      principal: { kind: 'apiKey', storeId, keyId: 'key_1' },
      door: 'REST',
      route: '/api/v1/category',
    },
  } as unknown as Request;
  return [req, { statusCode: 200 } as Response];
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

it('writes whole batches as they fill and leaves the rest for the timer', async () => {
  const log = createRequestLog(db.prisma, {
    enabled: true,
    bufferMax: 10_000,
    batchSize: 100,
    // Far beyond the test: the timer never runs.
    flushMs: 600_000,
    now: () => new Date(),
    logger: createLogger('silent'),
  });
  log.start();
  const storeId = 'store_batches';
  const statements = () =>
    db.pool
      .query<{ n: number }>(
        `SELECT count(DISTINCT xmin::text)::int AS n FROM "RequestLogEntry" WHERE "storeId" = $1`,
        [storeId],
      )
      .then((result) => result.rows[0]?.n);
  // Requests keep finishing while the batches are written: 250 in all, ten at a time.
  for (let i = 0; i < 250; i++) {
    log.record(...finished(storeId, i), 1);
    if (i % 10 === 9) await tick();
  }
  while (log.waiting() >= 100) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, 100));

  // Two whole batches written, each in a transaction of its own; fifty wait for the timer.
  expect(await db.prisma.requestLogEntry.count({ where: { storeId } })).toBe(200);
  expect(await statements()).toBe(2);
  expect(log.waiting()).toBe(50);

  // The timer's flush writes what waits when it starts; what comes in during its write waits for
  // the next tick (or a whole batch), not a statement of its own right after.
  const flushing = log.flush();
  for (let i = 250; i < 280; i++) log.record(...finished(storeId, i), 1);
  expect(await flushing).toBe(50);
  expect(await statements()).toBe(3);
  expect(log.waiting()).toBe(30);

  // Stopping writes everything.
  await log.stop();
  expect(log.waiting()).toBe(0);
  expect(await db.prisma.requestLogEntry.count({ where: { storeId } })).toBe(280);
});
