import { randomUUID } from 'node:crypto';
import { connectDatabase } from '../src/db/client';
import type { RequestLogRow } from '../src/request-log/entry';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 32 item 1, where the request log's cost lies: one batch of 1,000 entries (what the recorder
 * writes at a time) written in several ways, in alternating rounds, with the API process's CPU per
 * entry (Prisma and pg included) and PostgreSQL's (this benchmark's backends only, from /proc) —
 * figures a machine shared with other work blurs far less than throughput.
 *   Ways of sending, into the table as migrated:
 *     prisma unnest   13 arrays through Prisma's $executeRawUnsafe (the recorder before this bench)
 *     pg unnest       the same statement through the pg pool
 *     pg json         one JSON text parameter, json_to_recordset (the recorder now)
 *   Index sets (pg json, into a table of the same columns with only these indexes):
 *     idx: <names>    which of the secondary indexes the table holds
 * Options: BENCH_ROUNDS (5), BENCH_BATCHES (batches per way and round, 10), BENCH_WAYS (a comma list
 * of way names to run, all by default).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const BATCH = 1000;
const KEYS = 1000;

const COLUMNS =
  '"at", "storeId", "keyId", "staffUserId", door, method, route, status, "errorCode", "durationMs", "requestId", "clientIp", cost';
const unnestInsert = (table: string) => `INSERT INTO ${table} (${COLUMNS})
  SELECT * FROM unnest($1::timestamp(3)[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                       $8::int[], $9::text[], $10::float8[], $11::text[], $12::text[], $13::int[])`;
const jsonInsert = (table: string) => `INSERT INTO ${table} (${COLUMNS})
  SELECT ${COLUMNS} FROM json_to_recordset($1::json) AS r("at" timestamp(3), "storeId" text, "keyId" text,
    "staffUserId" text, door text, method text, route text, status int, "errorCode" text, "durationMs" float8,
    "requestId" text, "clientIp" text, cost int)`;

/** The secondary indexes as migrated, by a short name. */
const INDEXES: Record<string, string> = {
  'store,at,id': '("storeId", "at" DESC, "id" DESC)',
  'store,key,at,id': '("storeId", "keyId", "at" DESC, "id" DESC)',
  'store,requestId': '("storeId", "requestId")',
  'store,status,at': '("storeId", status, "at" DESC)',
};

let sequence = 0;
/** A request id like newRequestId()'s (32 random hex digits), or one whose first 12 digits are the time. */
const requestId = (ordered?: boolean) =>
  ordered
    ? `req_${Date.now().toString(16).padStart(12, '0')}${(sequence++).toString(16).padStart(4, '0')}${randomUUID().slice(0, 16).replaceAll('-', '')}`
    : `req_${randomUUID().replaceAll('-', '')}`;

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

const arrays = (rows: RequestLogRow[]) => [
  rows.map((row) => row.at.toISOString().slice(0, 23)),
  rows.map((row) => row.storeId),
  rows.map((row) => row.keyId),
  rows.map((row) => row.staffUserId),
  rows.map((row) => row.door),
  rows.map((row) => row.method),
  rows.map((row) => row.route),
  rows.map((row) => row.status),
  rows.map((row) => row.errorCode),
  rows.map((row) => row.durationMs),
  rows.map((row) => row.requestId),
  rows.map((row) => row.clientIp),
  rows.map((row) => row.cost),
];

withBenchDatabase('request_log_write', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl, { max: 1 });
  const database = new URL(databaseUrl).pathname.slice(1);
  const storeId = 'store_bench';
  try {
    const ways: Record<string, () => Promise<unknown>> = {
      'rows only (no write)': async () => batch(storeId),
      'prisma unnest': () => db.prisma.$executeRawUnsafe(unnestInsert('"RequestLogEntry"'), ...arrays(batch(storeId))),
      'pg unnest': () => db.pool.query(unnestInsert('"RequestLogEntry"'), arrays(batch(storeId))),
      'pg json': () => db.pool.query(jsonInsert('"RequestLogEntry"'), [JSON.stringify(batch(storeId))]),
      'prisma json': () => db.prisma.$executeRawUnsafe(jsonInsert('"RequestLogEntry"'), JSON.stringify(batch(storeId))),
      'prisma json, synchronous_commit off': () =>
        db.prisma.$transaction([
          db.prisma.$executeRawUnsafe(`SET LOCAL synchronous_commit = off`),
          db.prisma.$executeRawUnsafe(jsonInsert('"RequestLogEntry"'), JSON.stringify(batch(storeId))),
        ]),
    };
    // Tables of the same columns with other keys and indexes, written the `pg json` way.
    const variants: Array<{ name: string; pk: string; indexes: string[]; ordered?: boolean; direct?: boolean }> = [
      { name: 'pk(at,id) + all four', pk: '"at", id', indexes: Object.keys(INDEXES) },
      { name: 'pk(store,at,id) + key, requestId, status', pk: '"storeId", "at", id', indexes: ['store,key,at,id', 'store,requestId', 'store,status,at'] },
      { name: 'same, time-ordered request ids', pk: '"storeId", "at", id', indexes: ['store,key,at,id', 'store,requestId', 'store,status,at'], ordered: true },
      { name: 'same, into the day partition', pk: '"storeId", "at", id', indexes: ['store,key,at,id', 'store,requestId', 'store,status,at'], direct: true },
      { name: 'pk(store,at,id) + key, status', pk: '"storeId", "at", id', indexes: ['store,key,at,id', 'store,status,at'] },
      { name: 'pk(store,at,id) alone', pk: '"storeId", "at", id', indexes: [] },
    ];
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
      const target = variant.direct ? `"RequestLogVariant${v}_day"` : table;
      ways[variant.name] = () =>
        db.pool.query(jsonInsert(target), [JSON.stringify(batch(storeId, variant.ordered))]);
    }
    const only = process.env.BENCH_WAYS?.split(',');
    const chosen = only ? Object.fromEntries(Object.entries(ways).filter(([name]) => only.includes(name))) : ways;
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
        `  ${name.padEnd(64)} API ${perEntry((m) => m.cpu)}  PostgreSQL ${perEntry((m) => m.db)}  wall ${perEntry((m) => m.wall)}`,
      );
    }
  } finally {
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
