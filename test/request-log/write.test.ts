import { connectDatabase, type Database } from '../../src/db/client';
import type { RequestLogRow } from '../../src/request-log/entry';
import { writeBatch } from '../../src/request-log/recorder';
import { createDatabaseFromTemplate } from '../helpers/databases';

/**
 * README "Request log", Durability: a batch is one statement on the API's pg pool whose own
 * transaction commits with synchronous_commit off; every column arrives as recorded, and the
 * connection goes back to the pool with the server's setting for the service's own transactions.
 */
let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  // One connection: the statement after the batch runs on the batch's own connection.
  db = connectDatabase(database.url, { max: 1 });
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

const at = new Date(Math.floor(Date.now() / 1000) * 1000 + 123);
const rows: RequestLogRow[] = [
  {
    at,
    storeId: 'store_w',
    keyId: 'key_1',
    staffUserId: null,
    door: 'REST',
    method: 'GET',
    route: '/api/v1/product/{id}',
    status: 404,
    errorCode: 'NOT_FOUND',
    durationMs: 1.25,
    requestId: 'req_one',
    clientIp: '127.0.0.1',
    cost: null,
  },
  {
    at,
    storeId: 'store_w',
    keyId: null,
    staffUserId: 'staff_1',
    door: 'GRAPHQL',
    method: 'POST',
    route: 'ListOrders, "quoted" \\ and {braced}',
    status: 200,
    errorCode: null,
    durationMs: 0.5,
    requestId: 'req_two',
    clientIp: null,
    cost: 202,
  },
];

it('writes every column as recorded, and leaves the connection’s synchronous_commit as it was', async () => {
  const before = (await db.pool.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
  await writeBatch(db.pool, rows);
  const written = await db.prisma.requestLogEntry.findMany({
    where: { storeId: 'store_w' },
    orderBy: { requestId: 'asc' },
  });
  expect(written.map(({ id: _id, ...row }) => row)).toEqual(rows);
  expect((await db.pool.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe(before);
  expect(before).toBe('on');
});
