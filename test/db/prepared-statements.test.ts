import fc from 'fast-check';
import { connectDatabase, type Database } from '../../src/db/client';
import { PER_CONNECTION } from '../../src/db/prepared-statements';
import { createDatabaseFromTemplate } from '../helpers/databases';

/**
 * README "Architecture" (Prepared statements and the count): a parameterised statement is sent named, so PostgreSQL parses and plans
 * it once per connection; a connection holds a bounded number of them; `preparedStatements: false`
 * (a pooler in transaction mode) sends none. Each pool here has one connection, so what
 * pg_prepared_statements lists on it is everything that connection was sent.
 */

let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
const opened: Database[] = [];

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
});
afterAll(async () => {
  for (const db of opened) await db.close();
  await database.drop();
});

function connect(preparedStatements?: boolean) {
  const sent: string[] = [];
  const db = connectDatabase(database.url, {
    max: 1,
    onQuery: (sql) => sent.push(sql),
    ...(preparedStatements === undefined ? {} : { preparedStatements }),
  });
  opened.push(db);
  return { db, sent };
}

/** The named statements the pool's one connection holds (a simple query: not itself named). */
const preparedOn = async (db: Database) =>
  (
    await db.pool.query<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements',
    )
  ).rows;

/** The product page's read: the page with each product's category, and the count. */
async function productPage(db: Database) {
  const where = { storeId: 'st_none' };
  return Promise.all([
    db.prisma.product.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: 25,
      include: { category: { select: { id: true, name: true } } },
    }),
    db.prisma.product.count({ where }),
  ]);
}

describe('prepared statements', () => {
  it('by default the page’s statements are named, each prepared once on the connection however often it runs', async () => {
    const { db, sent } = connect();
    for (let i = 0; i < 3; i++) expect(await productPage(db)).toEqual([[], 0]);
    const prepared = await preparedOn(db);
    const pageStatements = [...new Set(sent.filter((sql) => sql.includes('"Product"')))];
    expect(pageStatements).toHaveLength(2);
    expect(prepared.map((row) => row.statement).sort()).toEqual(pageStatements.sort());
    expect(new Set(prepared.map((row) => row.name)).size).toBe(prepared.length);
  });

  it('with preparedStatements false no named statement is sent, and the answers are the same', async () => {
    const { db, sent } = connect(false);
    for (let i = 0; i < 3; i++) expect(await productPage(db)).toEqual([[], 0]);
    expect(sent.filter((sql) => sql.includes('"Product"')).length).toBe(6);
    expect(await preparedOn(db)).toEqual([]);
  });

  it(`a connection holds at most ${PER_CONNECTION} names; statements beyond run unnamed and answer alike`, async () => {
    const { db } = connect();
    const texts = Array.from({ length: PER_CONNECTION + 20 }, (_, i) => `SELECT $1::int + ${i} AS n`);
    for (const [i, text] of texts.entries()) {
      const { rows } = await db.pool.query<{ n: number }>({ text, values: [i] });
      expect(rows).toEqual([{ n: 2 * i }]);
    }
    const prepared = await preparedOn(db);
    expect(prepared).toHaveLength(PER_CONNECTION);
    expect(prepared.map((row) => row.statement).sort()).toEqual(texts.slice(0, PER_CONNECTION).sort());
  });

  it('any sequence of statements answers on a named connection as on an unnamed one', async () => {
    const named = connect().db;
    const unnamed = connect(false).db;
    const texts = [
      'SELECT $1::int * 3 AS v',
      'SELECT $1::text || $2::text AS v',
      'SELECT length($1::text) AS v',
      'SELECT $1::int IS NULL AS v',
    ];
    const call = fc.record({
      text: fc.nat(texts.length - 1),
      a: fc.integer({ min: -1000, max: 1000 }),
      b: fc.string(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), async (calls) => {
        for (const { text, a, b } of calls) {
          const sql = texts[text] as string;
          const values: unknown[] = sql.includes('$2') ? [String(a), b] : sql.includes('::text') ? [b] : [a];
          const [left, right] = await Promise.all([
            named.pool.query({ text: sql, values }),
            unnamed.pool.query({ text: sql, values }),
          ]);
          expect(left.rows).toEqual(right.rows);
        }
      }),
      { numRuns: 40 },
    );
    expect((await preparedOn(named)).length).toBeGreaterThan(0);
    expect(await preparedOn(unnamed)).toEqual([]);
  });
});
