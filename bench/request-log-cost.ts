import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { createLogger } from '../src/logger';
import { connectRedis } from '../src/redis';
import { cpuSince, median, postgresCpuMs } from './alternating';
import { withBenchDatabase } from './database';
import {
  type AppProcess,
  cpuMsOf,
  issueKeys,
  machineCpuMs,
  otherThreadsCpuMs,
  runLoad,
  startServer,
} from './processes';
import { deleteKeysUnder } from './redis-keys';

/**
 * Issue 32 item 1: what the request log costs. `GET /api/v1/product?limit=25` (full stack) against
 * API processes of their own (bench/app-process.ts) — read cache on and off (every request a miss),
 * each with REQUEST_LOG on and off, and a second log-off process of each as a control — in
 * alternating rounds of closed-loop load from a client process (bench/load-client.ts).
 * Target: with the log on, at least 0.95 of the throughput with it off, cached and uncached alike,
 * judged on the median of each round's own on/off ratio (the pair runs back to back in a round).
 * The control (off / off, two processes alike) shows what the bench itself can tell apart: an
 * earlier form of this bench ran the four apps in one process, and its two identical log-off apps
 * came out 0.92 of each other.
 * Also CPU per request, which other work on the machine blurs less than throughput: each API
 * process's own, and PostgreSQL's (the bench database's backends, and every postgres process:
 * autovacuum, the WAL writer), and the share of the machine's cores left idle during each round (a
 * quarter on the cached page, log on or off: the processes wait on one another, so its throughput is
 * the API main thread's latency, not the machine's CPU). bench/request-log-write.ts takes the write
 * alone apart.
 * BENCH_UNWRITTEN=1 adds a log-on process whose batches are made but never sent: the log's cost to the
 * API alone, apart from PostgreSQL's write; BENCH_SENT=1 one whose batches reach PostgreSQL as the
 * parameter of a statement that only measures them: the write apart from PostgreSQL's insert. After
 * every round each process's request_log_dropped_total must still be 0: a log that drops entries
 * (its buffer full, a write that never ends) measures nothing.
 * Options: BENCH_DURATION_MS (4000), BENCH_WARM_UP_MS (2000), BENCH_ROUNDS (9), BENCH_CONCURRENCY (16), BENCH_KEYS (1000),
 * BENCH_CACHE (`cached` or `uncached`: that page's processes only), BENCH_FRESH (1: new processes
 * for every round, each warmed up; 0: the same processes throughout).
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const WARM_UP_MS = Number(process.env.BENCH_WARM_UP_MS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const PAGE = '/api/v1/product?limit=25';
const CACHES = (['cached', 'uncached'] as const).filter(
  (cache) => process.env.BENCH_CACHE === undefined || process.env.BENCH_CACHE === cache,
);
/**
 * BENCH_UNWRITTEN=1 adds a process that records and makes its batches but never sends them;
 * BENCH_SENT=1 one whose batches reach PostgreSQL, which only measures their length (bench/app-process.ts).
 */
const LOGS = (
  ['log on', 'log off', 'log off (control)', 'log on, unwritten', 'log on, sent only'] as const
).filter(
  (log) =>
    (log !== 'log on, unwritten' || process.env.BENCH_UNWRITTEN === '1') &&
    (log !== 'log on, sent only' || process.env.BENCH_SENT === '1'),
);
const FRESH = process.env.BENCH_FRESH !== '0';
const METRICS_TOKEN = randomBytes(16).toString('hex');

/** Entries a process's request log dropped so far (buffer full, or a batch refused or never ending). */
async function droppedEntries(app: AppProcess): Promise<number> {
  const res = await fetch(`${app.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  return Number(/^request_log_dropped_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}
const here = path.join(__dirname, '..');

interface Round {
  rps: number;
  /** The API process's threads other than the main one (V8's garbage collector's helpers, mostly). */
  threads: number;
  api: number;
  db: number;
  cluster: number;
  /** The share of the machine's cores left idle during the round, %. */
  idle: number;
}

async function run(databaseUrl: string) {
  if (process.env.NODE_ENV !== 'production')
    throw new Error('run with NODE_ENV=production (npm run bench does)');
  const db = connectDatabase(databaseUrl, { max: 4 });
  const { storeId } = await seedDemoStore(db.prisma);
  const keys = await issueKeys(db.prisma, storeId, KEYS);
  const database = new URL(databaseUrl).pathname.slice(1);
  const common = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    // Every process shares one Redis prefix and 1,000 keys: the default rate limit would refuse the
    // cached rounds' requests (429s), as every other throughput bench here sets too.
    RATE_LIMIT_MAX: '100000000',
    COST_BUDGET_POINTS: '1000000000',
    // To read each process's request_log_dropped_total: a log that drops entries measures nothing.
    METRICS_TOKEN: METRICS_TOKEN,
  };
  const redisPrefix = `bench:${process.pid}:`;
  const names = CACHES.flatMap((cache) => LOGS.map((log) => `${cache}, ${log}`));
  let apps = new Map<string, AppProcess>();
  const startAll = async () => {
    const started = new Map<string, AppProcess>();
    for (const cache of CACHES)
      for (const log of LOGS)
        started.set(
          `${cache}, ${log}`,
          await startServer(
            path.join(here, 'bench/app-process.ts'),
            {
              BENCH_APP_ENV: JSON.stringify({
                ...common,
                READ_CACHE_TTL_MS: cache === 'cached' ? '10000' : '0',
                REQUEST_LOG: log.startsWith('log on') ? 'on' : 'off',
              }),
              BENCH_REDIS_PREFIX: redisPrefix,
              ...(log === 'log on, unwritten' ? { BENCH_REQUEST_LOG_UNWRITTEN: '1' } : {}),
              ...(log === 'log on, sent only' ? { BENCH_REQUEST_LOG_SENT_ONLY: '1' } : {}),
            },
            here,
          ),
        );
    return started;
  };
  /** Ends every process and waits for it to exit, so that none writes to Redis after its keys are deleted. */
  const stopAll = async () => {
    const exits = [...apps.values()]
      .filter((app) => app.child.exitCode === null)
      .map((app) => new Promise((resolve) => app.child.once('exit', resolve)));
    for (const app of apps.values()) app.stop();
    apps = new Map();
    await Promise.all(exits);
  };
  const load = (app: AppProcess, durationMs: number) =>
    runLoad({ url: app.base + PAGE, method: 'GET', keys, durationMs, concurrency: CONCURRENCY });
  try {
    const rounds = new Map<string, Round[]>(names.map((name) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // With BENCH_FRESH (the default), every round measures processes of its own, so that one
      // process's luck (where its heap and code landed) is one round's noise, not a whole run's bias.
      if (round === 0 || FRESH) {
        await stopAll();
        apps = await startAll();
        for (const app of apps.values()) await load(app, WARM_UP_MS);
      }
      // Each round's order is the last one's turned by one place, so every configuration runs in every
      // place equally often (over names.length rounds) and follows each of the others. (Turned around
      // every other round, as before, the log-off process always ran in the middle, and came out
      // 2–10 % slower than its identical control.)
      for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const app = apps.get(name) as AppProcess;
        const pid = app.child.pid as number;
        const apiBefore = cpuMsOf(pid);
        const threadsBefore = otherThreadsCpuMs(pid);
        const dbBefore = postgresCpuMs(database);
        const clusterBefore = postgresCpuMs();
        const machineBefore = machineCpuMs();
        const result = await load(app, DURATION_MS);
        const machine = machineCpuMs();
        if (result.errors > 0)
          throw new Error(
            `${name}: ${result.errors} responses were not 200: ${JSON.stringify(result.unexpected)}`,
          );
        const dropped = await droppedEntries(app);
        if (dropped !== 0) throw new Error(`${name}: its request log dropped ${dropped} entries`);
        (rounds.get(name) as Round[]).push({
          rps: result.rps,
          api: (cpuMsOf(pid) - apiBefore) / result.requests,
          threads: (otherThreadsCpuMs(pid) - threadsBefore) / result.requests,
          db: cpuSince(dbBefore, postgresCpuMs(database)) / result.requests,
          cluster: cpuSince(clusterBefore, postgresCpuMs()) / result.requests,
          idle:
            (100 * (machine.idle - machineBefore.idle)) /
            (machine.idle - machineBefore.idle + machine.busy - machineBefore.busy),
        });
      }
    }
    const logged = await db.prisma.requestLogEntry.count();
    console.log(
      `GET ${PAGE}: API processes of their own${FRESH ? ', new for every round' : ''}, ${CONCURRENCY} concurrent clients, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, ${KEYS} keys; ${logged.toLocaleString('en')} entries logged`,
    );
    for (const [name, measured] of rounds) {
      const of = (field: keyof Round) => median(measured.map((r) => r[field]));
      console.log(
        `  ${name.padEnd(28)} ${of('rps').toFixed(0).padStart(5)} req/s  CPU per request: API ${of('api').toFixed(3)} ms (other threads ${of('threads').toFixed(3)}), PostgreSQL ${of('db').toFixed(3)} ms (all its processes ${of('cluster').toFixed(3)}); machine idle ${of('idle').toFixed(0)} %  (rounds ${measured.map((r) => r.rps.toFixed(0)).join(', ')})`,
      );
    }
    for (const cache of CACHES) {
      const rps = (log: (typeof LOGS)[number]) =>
        (rounds.get(`${cache}, ${log}`) as Round[]).map((r) => r.rps);
      const paired = (a: number[], b: number[]) =>
        median(a.map((value, round) => value / (b[round] as number)));
      const ratio = paired(rps('log on'), rps('log off'));
      const control = paired(rps('log off (control)'), rps('log off'));
      const beside = (['log on, unwritten', 'log on, sent only'] as const)
        .filter((log) => LOGS.includes(log))
        .map(
          (log) => `; ${log.slice('log on, '.length)} / off ${paired(rps(log), rps('log off')).toFixed(3)}`,
        )
        .join('');
      console.log(
        `  ${cache}: log on / off ${ratio.toFixed(3)} (median of the rounds' own ratios; ratio of the medians ${(median(rps('log on')) / median(rps('log off'))).toFixed(3)}); control off / off ${control.toFixed(3)}${beside} — target ≥ 0.95: ${ratio >= 0.95 ? 'met' : 'NOT met'}`,
      );
    }
  } finally {
    await stopAll();
    const redis = connectRedis(
      process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      createLogger('silent'),
    );
    await new Promise((resolve) => redis.once('ready', resolve));
    await deleteKeysUnder(redis, redisPrefix);
    redis.disconnect();
    await db.close();
  }
}

withBenchDatabase('request_log_cost', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
