import { performance } from 'node:perf_hooks';
import { connectDatabase } from '../src/db/client';
import { createStore } from '../src/modules/stores/provision';
import { type HealthWindow, healthBuckets } from '../src/modules/webhooks/health';
import { median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 31 item 4: the endpoint health statement (src/modules/webhooks/health.ts) on 1,000,000
 * deliveries of one endpoint over the last 30 days (one attempt each, 5 % failed, durations 20–520 ms),
 * beside four other endpoints of 100,000 deliveries each, loaded with generate_series. Times the
 * last 24 hours and the last 30 days with the ("endpointId", "createdAt") INCLUDE (status,
 * "durationMs", "deliveryId") index, then without it, in the same run.
 */
const DELIVERIES = Number(process.env.BENCH_HEALTH_DELIVERIES ?? 1_000_000);
const OTHERS = 4;
const OTHER_DELIVERIES = Math.round(DELIVERIES / 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const RUNS_WITHOUT = 3;
const INDEX = '"WebhookAttempt_endpointId_createdAt_idx"';
const WINDOWS: HealthWindow[] = ['LAST_24_HOURS', 'LAST_30_DAYS'];

withBenchDatabase('webhook_health', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  // One connection for the load (its session settings hold for every statement).
  const loader = await db.pool.connect();
  const sql = (text: string, values: unknown[] = []) => loader.query(text, values);
  try {
    const store = await createStore(db.prisma, {
      name: 'Health bench',
      plan: 'PRO',
      ownerEmail: 'health-bench@example.test',
    });
    await sql(`UPDATE "Store" SET timezone = 'Europe/Berlin' WHERE id = $1`, [store.id]);
    const endpointIds: string[] = [];
    for (let i = 0; i <= OTHERS; i++) {
      const { rows } = await sql(
        `INSERT INTO "WebhookEndpoint" ("storeId", url, events, "secretCiphertext", "updatedAt")
         VALUES ($1, $2, '{*}', 'bench', now()) RETURNING id`,
        [store.id, `https://receiver-${i}.example.test/hooks`],
      );
      endpointIds.push(rows[0].id);
    }
    const [endpointId] = endpointIds as [string];
    const now = new Date();
    const started = performance.now();
    // Bulk load: the three tables' secondary indexes are built once afterwards, foreign keys not
    // checked row by row (this database is the benchmark's own, dropped at the end).
    const { rows: indexes } = await sql(
      `SELECT indexname, indexdef FROM pg_indexes
        WHERE tablename IN ('Event', 'WebhookDelivery', 'WebhookAttempt') AND indexname NOT LIKE '%_pkey'`,
    );
    for (const index of indexes) await sql(`DROP INDEX "${index.indexname}"`);
    await sql(`SET session_replication_role = replica`);
    // Events spread evenly over the last 30 days; deliveries of the same events to every endpoint.
    await sql(
      `INSERT INTO "Event" ("storeId", type, data, "createdAt")
       SELECT $1, 'order.paid', '{}', ($2::timestamptz AT TIME ZONE 'UTC') - (n * interval '30 days' / $3)
         FROM generate_series(1, $3) AS n`,
      [store.id, now.toISOString(), DELIVERIES],
    );
    for (const [index, id] of endpointIds.entries()) {
      await sql(
        `INSERT INTO "WebhookDelivery" ("endpointId", "eventId", "storeId", "eventType", status, attempt, "httpStatus",
                                        payload, "createdAt", "updatedAt")
         SELECT $1, e.id, e."storeId", e.type,
                CASE WHEN random() < 0.05 THEN 'failed' ELSE 'success' END::"DeliveryStatus", 1, 200, '{}',
                e."createdAt", e."createdAt"
           FROM (SELECT * FROM "Event" ORDER BY "createdAt" DESC LIMIT $2) AS e`,
        [id, index === 0 ? DELIVERIES : OTHER_DELIVERIES],
      );
    }
    await sql(
      `INSERT INTO "WebhookAttempt" ("deliveryId", "endpointId", number, status, "httpStatus", "durationMs", "createdAt")
       SELECT d.id, d."endpointId", 1, d.status, CASE WHEN d.status = 'success' THEN 200 ELSE 500 END,
              20 + floor(random() * 500)::int, d."createdAt"
         FROM "WebhookDelivery" AS d`,
    );
    await sql(`SET session_replication_role = DEFAULT`);
    for (const index of indexes) await sql(index.indexdef);
    await sql('VACUUM ANALYZE "WebhookAttempt"');
    await sql('ANALYZE "WebhookDelivery"');
    const total = DELIVERIES + OTHERS * OTHER_DELIVERIES;
    console.log(
      `Endpoint health: ${DELIVERIES.toLocaleString('en')} deliveries of one endpoint over 30 days, ${OTHERS} others of ${OTHER_DELIVERIES.toLocaleString('en')} (${total.toLocaleString('en')} attempts), loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const time = async (window: HealthWindow, runs: number) => {
      const times: number[] = [];
      let attempts = 0;
      for (let run = 0; run < runs; run++) {
        const start = performance.now();
        const buckets = await healthBuckets(db.prisma, { endpointId, storeId: store.id, window, now });
        times.push(performance.now() - start);
        attempts = buckets.reduce((sum, bucket) => sum + bucket.attempts, 0);
      }
      return { median: median(times), attempts };
    };
    const withIndex: Record<string, { median: number; attempts: number }> = {};
    for (const window of WINDOWS) withIndex[window] = await time(window, RUNS);
    await sql(`DROP INDEX ${INDEX}`);
    await sql('ANALYZE "WebhookAttempt"');
    for (const window of WINDOWS) {
      const indexed = withIndex[window] as { median: number; attempts: number };
      const without = await time(window, RUNS_WITHOUT);
      console.log(
        `  ${window.padEnd(13)} ${indexed.attempts.toLocaleString('en').padStart(9)} attempts: with the index median ${indexed.median.toFixed(1)} ms (${RUNS} runs), without ${without.median.toFixed(1)} ms (${RUNS_WITHOUT} runs): ${(without.median / indexed.median).toFixed(1)}× faster with it`,
      );
    }
  } finally {
    loader.release();
    await db.close();
  }
});
