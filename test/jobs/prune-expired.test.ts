import { quickAddJob, runOnce } from 'graphile-worker';
import { workerLogger } from '../../jobs/worker';
import { connectDatabase, type Database } from '../../src/db/client';
import { createLogger } from '../../src/logger';
import { taskName } from '../../src/task-catalog';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { makeStore } from '../helpers/factories';
import { testTaskList } from '../helpers/worker';

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

describe('prune_expired', () => {
  it('deletes expired sessions and idempotency records and keeps live ones', async () => {
    const store = await makeStore(db.prisma);
    const hour = 3_600_000;
    const now = Date.now();
    for (const [hash, expiresAt] of [
      ['a'.repeat(64), new Date(now - hour)],
      ['b'.repeat(64), new Date(now + hour)],
    ] as const) {
      await db.prisma.session.create({
        data: { tokenHash: hash, staffUserId: store.ownerId!, storeId: store.id, expiresAt },
      });
    }
    await db.prisma.idempotencyRecord.createMany({
      data: [
        { scope: 'key_x', key: 'old', requestHash: 'c'.repeat(64), expiresAt: new Date(now - hour) },
        { scope: 'key_x', key: 'new', requestHash: 'd'.repeat(64), expiresAt: new Date(now + hour) },
      ],
    });

    await quickAddJob({ pgPool: db.pool }, taskName.prune_expired, {});
    await runOnce({
      pgPool: db.pool,
      taskList: tasks.taskList,
      logger: workerLogger(createLogger('silent')),
    });

    expect((await db.prisma.session.findMany()).map((s) => s.tokenHash)).toEqual(['b'.repeat(64)]);
    expect((await db.prisma.idempotencyRecord.findMany()).map((r) => r.key)).toEqual(['new']);
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM graphile_worker.jobs');
    expect(rows[0].n).toBe(0);
  });
});
