import fc from 'fast-check';
import { connectDatabase, type Database } from '../../src/db/client';
import type { RequestLogRow } from '../../src/request-log/entry';
import { writeBatch } from '../../src/request-log/recorder';
import { createDatabaseFromTemplate } from '../helpers/databases';

/**
 * README "Request log", Durability: a batch is one COPY on the API's pg pool in a transaction of its
 * own that commits with synchronous_commit off; every column arrives as recorded, and the
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

/** Any text; often the marks COPY's text format gives meaning to (backslash, tab, newline, `\.`, `\N`). */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom(
    'NULL',
    '\\N',
    '\\.',
    '\\',
    '\t',
    '\n',
    '\r\n',
    'a\tb\\nc',
    '',
    ' ',
    '{"a",b}',
    '\u0000',
    'é😀',
  ),
);
/** PostgreSQL's text cannot hold NUL: the log writes one as U+FFFD rather than refuse the batch. */
const stored = (value: string) => value.replaceAll('\u0000', '\uFFFD');

it('writes any text in any column exactly as recorded (the batch’s COPY text escapes what it must)', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({ route: text, requestId: text, keyId: fc.option(text), errorCode: fc.option(text) }),
        {
          minLength: 1,
          maxLength: 5,
        },
      ),
      async (values) => {
        const storeId = `store_p${n++}`;
        const batch: RequestLogRow[] = values.map((value, i) => ({
          ...(rows[0] as RequestLogRow),
          ...value,
          storeId,
          staffUserId: null,
          durationMs: i / 100,
          at: new Date(at.getTime() + i),
        }));
        await writeBatch(db.pool, batch);
        const written = await db.prisma.requestLogEntry.findMany({
          where: { storeId },
          orderBy: { at: 'asc' },
        });
        expect(written.map(({ id: _id, ...row }) => row)).toEqual(
          batch.map((row) => ({
            ...row,
            route: stored(row.route),
            requestId: stored(row.requestId),
            keyId: row.keyId === null ? null : stored(row.keyId),
            errorCode: row.errorCode === null ? null : stored(row.errorCode),
          })),
        );
      },
    ),
    { numRuns: 60 },
  );
});

it('fails a batch PostgreSQL refuses as a whole, and the pool goes on writing the next one', async () => {
  const bad = {
    ...(rows[0] as RequestLogRow),
    storeId: 'store_refused',
    requestId: 'req_bad',
    status: 2 ** 40,
  };
  const good = { ...(rows[0] as RequestLogRow), storeId: 'store_refused', requestId: 'req_good' };
  await expect(writeBatch(db.pool, [good, bad])).rejects.toThrow(/out of range/);
  await writeBatch(db.pool, [good]);
  const written = await db.prisma.requestLogEntry.findMany({ where: { storeId: 'store_refused' } });
  expect(written.map((row) => row.requestId)).toEqual(['req_good']);
  expect((await db.pool.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
  // Refused before any data is taken (the COPY itself fails): the write still ends, as a failure.
  await expect(writeBatch(db.pool, [good], '"NoSuchTable"')).rejects.toThrow(/does not exist/);
  await writeBatch(db.pool, [{ ...good, requestId: 'req_after' }]);
  expect(await db.prisma.requestLogEntry.count({ where: { storeId: 'store_refused' } })).toBe(2);
});
