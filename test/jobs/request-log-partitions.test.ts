import { quickAddJob, runOnce } from 'graphile-worker';
import { HOURS_AHEAD } from '../../jobs/tasks/request_log_partitions';
import { workerLogger } from '../../jobs/worker';
import { REQUEST_LOG_RETENTION_DAYS } from '../../src/config';
import { connectDatabase, type Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import {
  DEFAULT_PARTITION,
  ensurePartitions,
  hourStart,
  listPartitions,
  SEALED_INDEXES,
} from '../../src/request-log/partitions';
import { taskName } from '../../src/task-catalog';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { testTaskList } from '../helpers/worker';

/**
 * README "Request log": entries are partitioned by hour; an hour's partition is written with its
 * primary key alone and gets its secondary indexes when the hour has ended; entries are kept
 * REQUEST_LOG_RETENTION_DAYS (7). The worker's request_log_partitions job does all three: makes the
 * coming hours' partitions, seals the ended ones, drops whole partitions (and the default
 * partition's older rows) past the retention.
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

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const row = (at: Date, requestId: string, status = 200) => ({
  at,
  storeId: 'store_1',
  keyId: 'key_1',
  door: 'REST',
  method: 'GET',
  route: '/api/v1/category',
  status,
  durationMs: 1.5,
  requestId,
});

async function runJob() {
  await quickAddJob({ pgPool: db.pool }, taskName.request_log_partitions, {});
  await runOnce({ pgPool: db.pool, taskList: tasks.taskList, logger: workerLogger(createLogger('silent')) });
}

/** Each partition's indexes beside its primary key, by partition. */
async function secondaryIndexes(): Promise<Map<string, string[]>> {
  const { rows } = await db.pool.query<{ table: string; index: string }>(
    `SELECT tablename AS table, indexname AS index FROM pg_indexes
      WHERE schemaname = 'request_log' AND indexname NOT LIKE '%pkey' ORDER BY indexname`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table, index } of rows) byTable.set(table, [...(byTable.get(table) ?? []), index]);
  return byTable;
}

const sealedNames = (partition: string) =>
  Object.keys(SEALED_INDEXES)
    .map((suffix) => `${partition}_${suffix}`)
    .sort();

it('writes the current hour with its primary key alone and seals each hour once it has ended', async () => {
  const now = new Date();
  // The migration made this hour's partition; one of three hours ago is made as the job would have then.
  await ensurePartitions(db.prisma, new Date(now.getTime() - 3 * HOUR), 0);
  const partitions = await listPartitions(db.prisma);
  const current = partitions.find((p) => p.from.getTime() === hourStart(now).getTime());
  const previous = partitions.find((p) => p.from.getTime() === hourStart(now).getTime() - 3 * HOUR);
  if (!current || !previous) throw new Error('no partition for this hour or the one three hours ago');
  await db.prisma.requestLogEntry.createMany({
    data: [
      row(new Date(previous.from.getTime() + 60_000), 'req_earlier', 503),
      row(now, 'req_this_hour', 404),
    ],
  });
  // The table itself has no secondary index (a new partition would inherit it).
  const { rows: parent } = await db.pool.query(
    `SELECT indexname FROM pg_indexes WHERE tablename = 'RequestLogEntry' AND schemaname = 'public'`,
  );
  expect(parent.map((index) => index.indexname)).toEqual(['RequestLogEntry_pkey']);
  expect((await secondaryIndexes()).get(current.name)).toBeUndefined();

  await runJob();
  const indexes = await secondaryIndexes();
  expect(indexes.get(previous.name)).toEqual(sealedNames(previous.name));
  expect(indexes.get(DEFAULT_PARTITION)).toEqual(sealedNames(DEFAULT_PARTITION));
  expect(indexes.get(current.name)).toBeUndefined();
  // The hours ahead stay bare too.
  const ahead = (await listPartitions(db.prisma)).filter((p) => p.from > now);
  expect(ahead.length).toBeGreaterThanOrEqual(HOURS_AHEAD);
  for (const partition of ahead) expect(indexes.get(partition.name)).toBeUndefined();

  // Both hours answer the same filters, sealed or not.
  const found = await db.prisma.requestLogEntry.findMany({
    where: { storeId: 'store_1', status: { gte: 400 } },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
  });
  expect(found.map((entry) => entry.requestId)).toEqual(['req_this_hour', 'req_earlier']);

  // A second run finds nothing left to seal: each index is built once.
  await runJob();
  expect(await secondaryIndexes()).toEqual(indexes);
});

it('drops entries older than the retention, keeps the rest, and makes the coming hours’ partitions', async () => {
  const now = Date.now();
  const old = new Date(now - (REQUEST_LOG_RETENTION_DAYS + 3) * DAY);
  // An hour partition of its own for the oldest rows (as the job made it then); the next ones have
  // none and land in the default partition.
  await ensurePartitions(db.prisma, old, 0);
  await db.prisma.requestLogEntry.createMany({
    data: [
      row(old, 'req_old_partition'),
      row(new Date(now - (REQUEST_LOG_RETENTION_DAYS + 1) * DAY), 'req_old_default'),
      row(new Date(now - (REQUEST_LOG_RETENTION_DAYS - 1) * DAY), 'req_kept_default'),
      row(new Date(now - 3 * HOUR), 'req_recent'),
    ],
  });

  await runJob();

  const kept = await db.prisma.requestLogEntry.findMany({
    where: { requestId: { in: ['req_old_partition', 'req_old_default', 'req_kept_default', 'req_recent'] } },
    orderBy: { at: 'asc' },
  });
  expect(kept.map((entry) => entry.requestId)).toEqual(['req_kept_default', 'req_recent']);
  const hours = (await listPartitions(db.prisma)).map((p) => p.from.getTime());
  expect(Math.min(...hours)).toBeGreaterThan(now - (REQUEST_LOG_RETENTION_DAYS + 1) * DAY);
  const thisHour = hourStart(new Date(now)).getTime();
  for (let i = 0; i <= HOURS_AHEAD; i++) expect(hours).toContain(thisHour + i * HOUR);
});
