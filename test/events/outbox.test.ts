import { connectDatabase, type Database } from '../../src/db/client';
import { emitEvent } from '../../src/events/outbox';
import { taskName } from '../../src/task-catalog';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { makeStore } from '../helpers/factories';

let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 3 });
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

const jobsFor = async (eventId: string) =>
  (
    await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE task_identifier = '${taskName.fan_out_event}' AND key = $1`,
      [eventId],
    )
  ).rows[0]?.n;

describe('the transactional outbox', () => {
  it('commits the change, the event row and its fan-out job together', async () => {
    const store = await makeStore(db.prisma);
    const now = new Date('2026-03-04T05:06:07.089Z');
    const data = {
      object: { name: 'Kept — “quoted”', price: 1250, tags: ['a', null], nested: { ok: true } },
    };
    const eventId = await db.prisma.$transaction(async (tx) => {
      await tx.category.create({ data: { storeId: store.id, name: 'Kept', slug: 'kept' } });
      return emitEvent(tx, { storeId: store.id, type: 'category.created', data, now });
    });
    expect(await db.prisma.event.findUnique({ where: { id: eventId } })).toEqual({
      id: eventId,
      type: 'category.created',
      storeId: store.id,
      apiVersion: 'v1',
      data,
      createdAt: now,
    });
    expect(eventId).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(await jobsFor(eventId)).toBe(1);
  });

  it('leaves neither the change, nor the event, nor the job when the transaction rolls back', async () => {
    const store = await makeStore(db.prisma);
    let eventId = '';
    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.category.create({ data: { storeId: store.id, name: 'Gone', slug: 'gone' } });
        eventId = await emitEvent(tx, {
          storeId: store.id,
          type: 'category.created',
          data: {},
          now: new Date(),
        });
        throw new Error('the change fails after the event was written');
      }),
    ).rejects.toThrow('the change fails');
    expect(eventId).not.toBe('');
    expect(await db.prisma.category.count({ where: { storeId: store.id } })).toBe(0);
    expect(await db.prisma.event.count({ where: { storeId: store.id } })).toBe(0);
    expect(await jobsFor(eventId)).toBe(0);
  });
});
