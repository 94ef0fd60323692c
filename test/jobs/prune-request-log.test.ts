import { quickAddJob, runOnce } from 'graphile-worker';
import { workerLogger } from '../../jobs/worker';
import { REQUEST_LOG_RETENTION_DAYS } from '../../src/config';
import { connectDatabase, type Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { ensurePartitions, partitionDays } from '../../src/request-log/partitions';
import { taskName } from '../../src/task-catalog';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { testTaskList } from '../helpers/worker';

/**
 * README "Request log": entries are kept REQUEST_LOG_RETENTION_DAYS (7) and pruned hourly by
 * prune_request_log, which drops whole day partitions (and the default partition's older rows)
 * and makes the coming days' partitions.
 */
let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;
let tasks: ReturnType<typeof testTaskList>;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 3 });
  tasks = testTaskList(db);
});
afterAll(async () => {
  await tasks.close();
  await db.close();
  await database.drop();
});

const DAY = 86_400_000;
const row = (at: Date, requestId: string) => ({
  at,
  storeId: 'store_1',
  keyId: 'key_1',
  door: 'REST',
  method: 'GET',
  route: '/api/v1/category',
  status: 200,
  durationMs: 1.5,
  requestId,
});

it('drops entries older than the retention, keeps the rest, and makes the coming days’ partitions', async () => {
  const now = Date.now();
  const old = new Date(now - (REQUEST_LOG_RETENTION_DAYS + 3) * DAY);
  // A day partition of its own for the oldest rows (as the job made it then); the next ones have
  // none and land in the default partition.
  await ensurePartitions(db.prisma, old, 0);
  await db.prisma.requestLogEntry.createMany({
    data: [
      row(old, 'req_old_partition'),
      row(new Date(now - (REQUEST_LOG_RETENTION_DAYS + 1) * DAY), 'req_old_default'),
      row(new Date(now - (REQUEST_LOG_RETENTION_DAYS - 1) * DAY), 'req_kept_default'),
      row(new Date(now - 3_600_000), 'req_recent'),
    ],
  });

  await quickAddJob({ pgPool: db.pool }, taskName.prune_request_log, {});
  await runOnce({ pgPool: db.pool, taskList: tasks.taskList, logger: workerLogger(createLogger('silent')) });

  const kept = await db.prisma.requestLogEntry.findMany({ orderBy: { at: 'asc' } });
  expect(kept.map((entry) => entry.requestId)).toEqual(['req_kept_default', 'req_recent']);
  const days = [...(await partitionDays(db.prisma)).values()].map((day) => day.getTime());
  expect(Math.min(...days)).toBeGreaterThan(now - (REQUEST_LOG_RETENTION_DAYS + 1) * DAY);
  const today = Math.floor(now / DAY) * DAY;
  for (let i = 0; i <= 7; i++) expect(days).toContain(today + i * DAY);
});
