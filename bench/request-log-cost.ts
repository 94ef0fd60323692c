import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase } from '../src/db/client';
import { listen } from '../src/http/server';
import { createLogger } from '../src/logger';
import { issueApiKey } from '../src/modules/api-keys/issue';
import { connectRedis } from '../src/redis';
import { createRuntime } from '../src/runtime';
import { allScopes } from '../test/helpers/factories';
import { cpuSince, median, postgresCpuMs } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 32 item 1: what the request log costs. `GET /api/v1/product?limit=25` (full stack) against
 * four apps of one process — read cache on and off (every request a miss), each with REQUEST_LOG on
 * and off — in alternating rounds of closed-loop load from a client process (bench/load-client.ts).
 * Target: with the log on, at least 0.95 of the throughput with it off, cached and uncached alike.
 * Also CPU per request, which other work on the machine blurs less than throughput: the API
 * process's (with its GC pauses) and its database backends' (bench/request-log-write.ts takes the
 * write alone apart). Options: BENCH_DURATION_MS (4000), BENCH_ROUNDS (7), BENCH_CONCURRENCY (16),
 * BENCH_KEYS (1000), BENCH_CACHE (`cached` or `uncached`: that pair of apps only).
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const WARM_UP_MS = 2000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** `cached` or `uncached` runs only that pair of apps (a shorter run, or more rounds in the same time). */
const CACHES = (['cached', 'uncached'] as const).filter(
  (cache) => process.env.BENCH_CACHE === undefined || process.env.BENCH_CACHE === cache,
);

interface Result {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  unexpected: Record<string, number>;
}

function load(target: { url: string; keys: string[]; durationMs?: number }): Promise<Result> {
  const input = JSON.stringify({
    durationMs: DURATION_MS,
    method: 'GET',
    ...target,
    concurrency: CONCURRENCY,
  });
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'load-client.ts')],
      { maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Result)),
    );
    child.stdin?.end(input);
  });
}

async function run(databaseUrl: string) {
  if (process.env.NODE_ENV !== 'production')
    throw new Error('run with NODE_ENV=production (npm run bench does)');
  const logger = createLogger('silent');
  const db = connectDatabase(databaseUrl, { max: 10 });
  const redis = connectRedis(redisUrl, logger);
  await new Promise((resolve) => redis.once('ready', resolve));
  const prefix = `bench:${process.pid}:`;
  const seeded = await seedDemoStore(db.prisma);
  const keys: string[] = [];
  for (let k = 0; k < KEYS; k++)
    keys.push(
      (
        await issueApiKey(
          db.prisma,
          seeded.storeId,
          { keyName: `bench ${k}`, environment: 'production', scopes: allScopes() },
          { now: new Date() },
        )
      ).secret,
    );
  const secretKey = randomBytes(32).toString('hex');
  const database = new URL(databaseUrl).pathname.slice(1);
  const apps: Record<string, { base: string; flush: () => Promise<number>; stop: () => Promise<void> }> = {};
  for (const cache of CACHES)
    for (const log of ['on', 'off'] as const) {
      const config = loadConfig({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        WEBHOOK_SECRET_KEY: secretKey,
        READ_CACHE_TTL_MS: cache === 'cached' ? '10000' : '0',
        REQUEST_LOG: log,
        // The four apps share one Redis prefix and 1,000 keys: the default rate limit would refuse
        // the cached rounds' requests (429s), as every other throughput bench here sets too.
        RATE_LIMIT_MAX: '100000000',
        COST_BUDGET_POINTS: '1000000000',
      });
      const runtime = createRuntime({ config, prisma: db.prisma, redis, logger, redisKeyPrefix: prefix });
      await runtime.start();
      const listener = await listen(createApp({ config, redis, logger, runtime }), 0, '127.0.0.1');
      apps[`${cache}, log ${log}`] = {
        base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`,
        flush: () => runtime.requestLog.flush(),
        stop: async () => {
          listener.close();
          await runtime.stop();
        },
      };
    }
  const productPath = '/api/v1/product?limit=25';
  for (const app of Object.values(apps))
    await load({ url: app.base + productPath, keys, durationMs: WARM_UP_MS });
  const rounds: Record<string, number[]> = Object.fromEntries(Object.keys(apps).map((name) => [name, []]));
  // CPU per request, which a machine shared with other work blurs far less than throughput: this
  // process's (the four apps; the load client is its own process) and the bench database's
  // PostgreSQL backends' (/proc/<pid>/stat). The log's last partial batch is written before the
  // round's CPU is read, so each round pays for its own entries and no other app's round does.
  const cpu: Record<string, { api: number[]; db: number[]; gc: number[] }> = Object.fromEntries(
    Object.keys(apps).map((name) => [name, { api: [], db: [], gc: [] }]),
  );
  // The API process's garbage collection pauses, ms (the apps share the process; only one is loaded at a time).
  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating, and each round's order turned around, so neither side always follows the other.
    const names = Object.keys(apps);
    for (const name of round % 2 ? names.reverse() : names) {
      const app = apps[name] as (typeof apps)[string];
      const cpuBefore = process.cpuUsage();
      const gcBefore = gcMs;
      const dbBefore = postgresCpuMs(database);
      const result = await load({ url: app.base + productPath, keys });
      await app.flush();
      const used = process.cpuUsage(cpuBefore);
      const dbUsed = cpuSince(dbBefore, postgresCpuMs(database));
      if (result.errors > 0)
        throw new Error(
          `${name}: ${result.errors} responses were not 200: ${JSON.stringify(result.unexpected)}`,
        );
      (rounds[name] as number[]).push(result.rps);
      cpu[name]?.api.push((used.user + used.system) / 1000 / result.requests);
      cpu[name]?.db.push(dbUsed / result.requests);
      cpu[name]?.gc.push((gcMs - gcBefore) / result.requests);
    }
  }
  const logged = await db.prisma.requestLogEntry.count();
  console.log(
    `GET ${productPath}: ${CONCURRENCY} concurrent clients, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, ${KEYS} keys; ${logged.toLocaleString('en')} entries logged`,
  );
  for (const [name, values] of Object.entries(rounds))
    console.log(
      `  ${name.padEnd(18)} median ${median(values).toFixed(0).padStart(6)} req/s (rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`,
    );
  gcObserver.disconnect();
  for (const [name, { api, db: dbCpu, gc }] of Object.entries(cpu))
    console.log(
      `  ${name.padEnd(18)} CPU per request: API ${median(api).toFixed(3)} ms (of which GC ${median(gc).toFixed(3)}), PostgreSQL ${median(dbCpu).toFixed(3)} ms (medians; rounds API ${api.map((v) => v.toFixed(3)).join(', ')})`,
    );
  for (const cache of CACHES) {
    const ratio =
      median(rounds[`${cache}, log on`] as number[]) / median(rounds[`${cache}, log off`] as number[]);
    console.log(
      `  ${cache}: log on / off ${ratio.toFixed(3)} (target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'})`,
    );
  }
  for (const app of Object.values(apps)) await app.stop();
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (found.length) await redis.del(...found);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
  await db.close();
}

withBenchDatabase('request_log_cost', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
