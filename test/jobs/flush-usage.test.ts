import { parseCrontab, quickAddJob, runOnce } from 'graphile-worker';
import type { Redis } from 'ioredis';
import { crontab } from '../../jobs/registry';
import { workerLogger } from '../../jobs/worker';
import { connectDatabase, type Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import { taskName } from '../../src/task-catalog';
import { admissionOn } from '../helpers/admission';
import { createDatabaseFromTemplate, redisUrl } from '../helpers/databases';
import { makeKey, makeStore } from '../helpers/factories';
import { deleteKeys, ready, testPrefix } from '../helpers/redis-prefix';
import { testTaskList } from '../helpers/worker';

const prefix = testPrefix('flush-usage');
const logger = createLogger('silent');
let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;
let redis: Redis;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 3 });
  redis = connectRedis(redisUrl, logger);
  await ready(redis);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
  await db.close();
  await database.drop();
});

describe('flush_usage', () => {
  it('moves the usage counted in Redis to the key and its daily bucket', async () => {
    const store = await makeStore(db.prisma);
    const { keyId } = await makeKey(db.prisma, store.id, { usageLimit: 10 });
    const { usage: meter, record } = admissionOn(redis, { keyPrefix: prefix, logger });
    const key = { id: keyId, storeId: store.id, usageLimit: 10, usageCount: 0n };
    const usedAt = new Date('2026-03-01T08:30:00.000Z');
    for (let i = 0; i < 3; i++) expect((await record(key, usedAt)).allowed).toBe(true);

    const tasks = testTaskList(db, meter);
    await quickAddJob({ pgPool: db.pool }, taskName.flush_usage, {});
    await runOnce({ pgPool: db.pool, taskList: tasks.taskList, logger: workerLogger(logger) });
    await tasks.close();

    const stored = await db.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(stored.usageCount).toBe(3n);
    expect(stored.lastUsedAt).toEqual(usedAt);
    const days = await db.prisma.apiKeyDailyUsage.findMany({ where: { apiKeyId: keyId } });
    expect(days.map((d) => [d.day.toISOString(), d.storeId, d.count])).toEqual([
      ['2026-03-01T00:00:00.000Z', store.id, 3n],
    ]);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM graphile_worker.jobs');
    expect(rows[0].n).toBe(0);
  });

  it('is scheduled every minute next to the hourly prunes', () => {
    expect(parseCrontab(crontab).map((item) => [item.task, item.options.maxAttempts])).toEqual([
      ['flush_usage', 1],
      ['prune_expired', 1],
      ['prune_webhook_deliveries', 1],
      ['send_key_notices', 1],
      ['request_log_partitions', 1],
    ]);
    expect(crontab).toMatch(/^\* \* \* \* \* flush_usage /m);
  });
});
