import { randomUUID } from 'node:crypto';
import { connectDatabase } from '../src/db/client';
import { newRequestId } from '../src/http/request-state';
import { COLUMN_TYPES, type RequestLogRow } from '../src/request-log/entry';
import { COLUMN_LIST, writeBatch } from '../src/request-log/recorder';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 32 item 1, where the request log's cost lies: one batch of 1,000 entries (what the recorder
 * writes at a time) written in several ways, in alternating rounds, with the API process's CPU per
 * entry (Prisma and pg included) and PostgreSQL's (this benchmark's backends only, from /proc) —
 * figures a machine shared with other work blurs far less than throughput.
 *   before          the recorder before issue 32's cost work: 13 arrays through Prisma's
 *                   $executeRawUnsafe into a table keyed and indexed as migrations 060000 + 070000 made it
 *   recorder        the recorder now (writeBatch: COPY text written by RequestLogBatch, on the
 *                   pg pool, synchronous_commit off) into the table as migrated (this hour's partition:
 *                   the primary key alone), with request ids as newRequestId() makes them now
 *                   (time first); so do the other ways into that table; the
 *                   variant tables get random ones, as before, unless named otherwise
 *   Ways of sending, into the table as migrated:
 *     prisma unnest   13 JavaScript arrays through Prisma's $executeRawUnsafe
 *     pg unnest, array literals   INSERT … unnest of 13 array literals (the recorder before COPY)
 *     pg unnest, pg converts the arrays   the same with pg making the literals (the recorder before that)
 *     pg json / prisma json   one JSON text parameter, json_to_recordset
 *   Keys and indexes (the recorder's COPY, into a table of the same columns with only that key and those indexes)
 * Options: BENCH_ROUNDS (5), BENCH_BATCHES (batches per way and round, 10), BENCH_WAYS (a list of way
 * names to run, separated by `;`, all by default).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const BATCH = 1000;
const KEYS = 1000;

/** The way batches were written before COPY: one INSERT of thirteen arrays, unnested. */
const unnestInsert = (table: string) =>
  `INSERT INTO ${table} (${COLUMN_LIST}) SELECT * FROM unnest(${Object.values(COLUMN_TYPES)
    .map((type, i) => `$${i + 1}::${type}[]`)
    .join(', ')})`;

/** `{"a","b",NULL,3}`: each column as the array literal the recorder wrote itself before COPY. */
const arrayLiterals = (rows: RequestLogRow[]): string[] =>
  (Object.keys(COLUMN_TYPES) as Array<keyof RequestLogRow>).map((column) => {
    const values = rows.map((row) => (column === 'at' ? row.at.toISOString().slice(0, 23) : row[column]));
    return `{${values
      .map((value) =>
        value === null
          ? 'NULL'
          : typeof value === 'number'
            ? value
            : `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
      )
      .join(',')}}`;
  });

const jsonInsert = (table: string) => `INSERT INTO ${table} (${COLUMN_LIST})
  SELECT ${COLUMN_LIST} FROM json_to_recordset($1::json) AS r(${Object.entries(COLUMN_TYPES)
    .map(([column, type]) => `"${column}" ${type}`)
    .join(', ')})`;

/** The secondary indexes as migrated, by a short name. */
const INDEXES: Record<string, string> = {
  'store,at,id': '("storeId", "at" DESC, "id" DESC)',
  'store,key,at,id': '("storeId", "keyId", "at" DESC, "id" DESC)',
  'store,requestId': '("storeId", "requestId")',
  'store,status,at': '("storeId", status, "at" DESC)',
};

/**
 * The thirteen columns as JavaScript arrays, which the driver turns into array literals itself (as
 * the recorder sent them before it wrote the literals itself).
 */
const jsArrays = (rows: RequestLogRow[]): unknown[] =>
  (Object.keys(COLUMN_TYPES) as Array<keyof RequestLogRow>).map((column) =>
    rows.map((row) => (column === 'at' ? row.at.toISOString().slice(0, 23) : row[column])),
  );

/** A request id as the service made them before (32 random hex digits), or as newRequestId() makes them now. */
const requestId = (ordered?: boolean) =>
  ordered ? newRequestId() : `req_${randomUUID().replaceAll('-', '')}`;

function batch(storeId: string, ordered?: boolean): RequestLogRow[] {
  const at = new Date();
  return Array.from({ length: BATCH }, () => ({
    at,
    storeId,
    keyId: `key_${Math.floor(Math.random() * KEYS)}`,
    staffUserId: null,
    door: 'REST',
    method: 'GET',
    route: '/api/v1/product',
    status: 200,
    errorCode: null,
    durationMs: Math.round(Math.random() * 500) / 100,
    requestId: requestId(ordered),
    clientIp: '127.0.0.1',
    cost: null,
  }));
}

withBenchDatabase('request_log_write', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl, { max: 1 });
  const database = new URL(databaseUrl).pathname.slice(1);
  const storeId = 'store_bench';
  try {
    const ways: Record<string, () => Promise<unknown>> = {
      'rows only (no write)': async () => batch(storeId),
      before: () =>
        db.prisma.$executeRawUnsafe(unnestInsert('"RequestLogVariant0"'), ...jsArrays(batch(storeId))),
      recorder: () => writeBatch(db.pool, batch(storeId, true)),
      'pg unnest, array literals (the recorder before COPY)': () =>
        db.pool.query(unnestInsert('"RequestLogEntry"'), arrayLiterals(batch(storeId, true))),
      'prisma unnest': () =>
        db.prisma.$executeRawUnsafe(unnestInsert('"RequestLogEntry"'), ...jsArrays(batch(storeId, true))),
      'pg unnest, pg converts the arrays': () =>
        db.pool.query(unnestInsert('"RequestLogEntry"'), jsArrays(batch(storeId, true))),
      'pg json': () => db.pool.query(jsonInsert('"RequestLogEntry"'), [JSON.stringify(batch(storeId, true))]),
      'prisma json': () =>
        db.prisma.$executeRawUnsafe(jsonInsert('"RequestLogEntry"'), JSON.stringify(batch(storeId, true))),
    };
    // Tables of the same columns with another key and other indexes, written as the recorder does.
    const now = ['store,key,at,id', 'store,requestId', 'store,status,at'];
    const variants: Array<{ name: string; pk: string; indexes: string[]; ordered?: boolean }> = [
      { name: 'pk(at,id) + all four (as before)', pk: '"at", id', indexes: Object.keys(INDEXES) },
      {
        name: 'pk(store,at,id) + key, requestId, status (a sealed hour)',
        pk: '"storeId", "at", id',
        indexes: now,
      },
      { name: 'same, time-ordered request ids', pk: '"storeId", "at", id', indexes: now, ordered: true },
      { name: 'pk(store,at,id) + key, requestId', pk: '"storeId", "at", id', indexes: now.slice(0, 2) },
      {
        name: 'pk(store,at,id) + key, status',
        pk: '"storeId", "at", id',
        indexes: [now[0], now[2]] as string[],
      },
      { name: 'pk(store,at,id) alone (the current hour)', pk: '"storeId", "at", id', indexes: [] },
    ];
    const tables: Record<string, { table: string; ordered?: boolean }> = {
      // Its current hour's partition: the primary key alone until the hour is sealed.
      'RequestLogEntry (as migrated, ids as now)': { table: '"RequestLogEntry"', ordered: true },
    };
    for (const [v, variant] of variants.entries()) {
      const table = `"RequestLogVariant${v}"`;
      await db.pool.query(
        `CREATE TABLE ${table} (LIKE "RequestLogEntry" INCLUDING DEFAULTS INCLUDING CONSTRAINTS) PARTITION BY RANGE ("at")`,
      );
      await db.pool.query(`ALTER TABLE ${table} ADD PRIMARY KEY (${variant.pk})`);
      await db.pool.query(
        `CREATE TABLE "RequestLogVariant${v}_day" PARTITION OF ${table} FOR VALUES FROM ('2000-01-01') TO ('2100-01-01')`,
      );
      for (const index of variant.indexes) await db.pool.query(`CREATE INDEX ON ${table} ${INDEXES[index]}`);
      tables[variant.name] = { table, ordered: variant.ordered };
      ways[variant.name] = () => writeBatch(db.pool, batch(storeId, variant.ordered), table);
    }
    const only = process.env.BENCH_WAYS?.split(';');
    const chosen = only
      ? Object.fromEntries(Object.entries(ways).filter(([name]) => only.includes(name)))
      : ways;
    const rounds = await alternatingRounds(chosen, {
      rounds: ROUNDS,
      calls: BATCHES,
      inFlight: 1,
      database,
    });
    console.log(
      `Request log writes: batches of ${BATCH.toLocaleString('en')} entries, ${ROUNDS} alternating rounds of ${BATCHES} batches; CPU per entry, µs (medians of the rounds)`,
    );
    for (const [name, measured] of Object.entries(rounds)) {
      const perEntry = (pick: (m: (typeof measured)[number]) => number) =>
        ((median(measured.map(pick)) * 1000) / BATCH).toFixed(1).padStart(6);
      console.log(
        `  ${name.padEnd(52)} API ${perEntry((m) => m.cpu)}  PostgreSQL ${perEntry((m) => m.db)}  wall ${perEntry((m) => m.wall)}`,
      );
    }
    // The WAL one more batch into each table writes (after the rounds, so at their size; the server's
    // WAL position before and after, so nothing else may write meanwhile): it counts the work itself,
    // which the machine's load does not change.
    console.log('One batch more into each table (median of 3): WAL bytes per entry');
    const walPosition = async () =>
      (await db.pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0]?.lsn;
    for (const [name, { table, ordered }] of Object.entries(tables)) {
      const bytes: number[] = [];
      for (let run = 0; run < 3; run++) {
        const before = await walPosition();
        await writeBatch(db.pool, batch(storeId, ordered), table);
        const { rows } = await db.pool.query<{ bytes: number }>(
          'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::float8 AS bytes',
          [before],
        );
        bytes.push(rows[0]?.bytes ?? 0);
      }
      console.log(`  ${name.padEnd(52)} WAL ${(median(bytes) / BATCH).toFixed(0)} bytes`);
    }
  } finally {
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
