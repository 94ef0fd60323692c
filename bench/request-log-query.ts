import { performance } from 'node:perf_hooks';
import type { Context } from '../src/context';
import { connectDatabase } from '../src/db/client';
import { listRequestLog, type RequestLogFilter } from '../src/modules/request-log/service';
import { ensurePartitions, hourStart, sealPartitions } from '../src/request-log/partitions';
import { median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 32 item 1: the request log's read (src/modules/request-log/service.ts, one page of 100) on
 * 10,000,000 entries spread evenly over the 7-day retention window, 300 stores of 5 keys each,
 * loaded with one INSERT … SELECT generate_series into the hour partitions. Every hour but the last
 * is then sealed (its secondary indexes built, as the worker's job does when an hour ends); the last
 * is a whole hour of entries with its primary key alone, as the current hour is in service (the
 * bench's "now" is the end of this hour). Times a store's last 24 hours with each filter; the target
 * is under 50 ms.
 */
const ROWS = Number(process.env.BENCH_REQUEST_LOG_ROWS ?? 10_000_000);
const STORES = 300;
const KEYS = 5;
const DAYS = 7;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const ROUTES = [
  '/api/v1/product',
  '/api/v1/product/{id}',
  '/api/v1/order',
  '/api/v1/order/{id}',
  '/api/v1/customer',
  '/api/v1/category',
  'ListOrders',
  'McpGetStoreInfo',
];

/**
 * The statement's own execution time (EXPLAIN ANALYZE of the service's filter, written out), which
 * a loaded machine's scheduling delays do not blur as much as the wall time of a round trip.
 */
async function executionMs(
  sql: (text: string, values?: unknown[]) => Promise<{ rows: Array<Record<string, string>> }>,
  storeId: string,
  filter: RequestLogFilter,
): Promise<{ ms: number; indexes: string[] }> {
  const where = ['"storeId" = $1'];
  const values: unknown[] = [storeId];
  const add = (clause: string, value: unknown) => {
    values.push(value);
    where.push(clause.replace('?', `$${values.length}`));
  };
  if (filter.keyId) add('"keyId" = ?', filter.keyId);
  if (filter.statusClass === 'SERVER_ERROR') where.push('status >= 500 AND status < 600');
  if (filter.statusClass === 'CLIENT_ERROR') where.push('status >= 400 AND status < 500');
  if (filter.route) add('route = ?', filter.route);
  if (filter.requestId) add('"requestId" = ?', filter.requestId);
  if (filter.since) add('"at" >= ?::timestamp', filter.since.toISOString().slice(0, 23));
  if (filter.until) add('"at" < ?::timestamp', filter.until.toISOString().slice(0, 23));
  const { rows } = await sql(
    `EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM "RequestLogEntry" WHERE ${where.join(' AND ')}
      ORDER BY "at" DESC, id DESC LIMIT 101`,
    values,
  );
  const plan = (rows[0] as unknown as { 'QUERY PLAN': Array<{ 'Execution Time': number; Plan: unknown }> })[
    'QUERY PLAN'
  ];
  // The indexes the plan reads (one per partition: named after the partition, so keep the kind).
  const indexes = new Set<string>();
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const name = (node as { 'Index Name'?: string })['Index Name'];
    if (name) indexes.add(name.replace(/^(hour|day)_(\d+|default)_/, ''));
    for (const value of Object.values(node)) if (typeof value === 'object') walk(value);
  };
  walk(plan[0]?.Plan);
  return { ms: plan[0]?.['Execution Time'] ?? Number.NaN, indexes: [...indexes] };
}

withBenchDatabase('request_log', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  const loader = await db.pool.connect();
  const sql = (text: string, values: unknown[] = []) => loader.query(text, values);
  try {
    // The last millisecond of this hour: the current hour's partition holds a whole hour of entries.
    const now = new Date(hourStart(new Date()).getTime() + 3_600_000 - 1);
    const started = performance.now();
    await ensurePartitions(db.prisma, new Date(now.getTime() - DAYS * 86_400_000), DAYS * 24 + 1);
    await sql(`SET maintenance_work_mem = '256MB'`);
    await sql(
      `INSERT INTO "RequestLogEntry" ("at", "storeId", "keyId", door, method, route, status, "errorCode",
                                      "durationMs", "requestId", "clientIp", cost)
       SELECT ($1::timestamptz AT TIME ZONE 'UTC') - (n * interval '${DAYS} days' / $2),
              'store_' || (n % ${STORES}),
              'key_' || (n % ${STORES}) || '_' || ((n / ${STORES}) % ${KEYS}),
              CASE WHEN n % 3 = 0 THEN 'GRAPHQL' ELSE 'REST' END,
              CASE WHEN n % 4 = 0 THEN 'POST' ELSE 'GET' END,
              ($3::text[])[1 + (n / 7) % ${ROUTES.length}],
              s.status,
              CASE WHEN s.status >= 400 THEN 'NOT_FOUND' END,
              1 + (n % 200) / 10.0,
              'req_' || n,
              '10.0.' || (n % 250) || '.1',
              CASE WHEN n % 3 = 0 THEN 1 + n % 100 END
         FROM generate_series(1, $2) AS n,
              LATERAL (SELECT CASE WHEN n % 997 = 0 THEN 503 WHEN n % 13 = 0 THEN 404 ELSE 200 END AS status) AS s`,
      [now.toISOString(), ROWS, ROUTES],
    );
    // The hours before this one are sealed, as the worker's request_log_partitions job does.
    await sealPartitions(db.prisma, hourStart(now));
    await sql('VACUUM ANALYZE "RequestLogEntry"');
    console.log(
      `Request log: ${ROWS.toLocaleString('en')} entries over ${DAYS} days, ${STORES} stores × ${KEYS} keys, loaded and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const storeId = 'store_42';
    // The service's clock is the bench's "now" (the end of this hour), as it would be an hour from now.
    const ctx = {
      prisma: db.prisma,
      principal: { kind: 'apiKey', storeId },
      now: () => now,
    } as unknown as Context;
    const since = new Date(now.getTime() - 86_400_000);
    const { rows: sample } = await sql(
      `SELECT "requestId" FROM "RequestLogEntry" WHERE "storeId" = $1 AND "at" > $2 LIMIT 1`,
      [storeId, since.toISOString()],
    );
    const filters: Record<string, RequestLogFilter> = {
      'last 24 h': {},
      'by key': { keyId: `key_42_3` },
      'SERVER_ERROR (5xx)': { statusClass: 'SERVER_ERROR' },
      'CLIENT_ERROR, by key': { statusClass: 'CLIENT_ERROR', keyId: 'key_42_1' },
      'by route': { route: '/api/v1/order/{id}' },
      'by request id': { requestId: sample[0]?.requestId },
      // The dashboard's Requests page as it opens: the last day first (src/modules/request-log/service.ts).
      'newest, no time given': { since: null },
      '2 h, 5 h ago': {
        since: new Date(now.getTime() - 5 * 3_600_000),
        until: new Date(now.getTime() - 3 * 3_600_000),
      },
    };
    let worst = 0;
    for (const [name, filter] of Object.entries(filters)) {
      const times: number[] = [];
      let found = 0;
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        const page = await listRequestLog(ctx, { since, ...filter, limit: 100 });
        times.push(performance.now() - start);
        found = page.items.length;
      }
      const ms = median(times);
      worst = Math.max(worst, ms);
      const executed = await executionMs(sql, storeId, { since, ...filter });
      console.log(
        `  ${name.padEnd(22)} ${String(found).padStart(3)} entries: service median ${ms.toFixed(1)} ms (${RUNS} runs), PostgreSQL's execution ${executed.ms.toFixed(2)} ms (EXPLAIN ANALYZE; ${executed.indexes.join(', ') || 'no index'})`,
      );
    }
    console.log(
      `  slowest filter's service median ${worst.toFixed(1)} ms: ${worst < 50 ? 'PASS' : 'FAIL'} (target < 50 ms)`,
    );
  } finally {
    loader.release();
    await db.close();
  }
});
