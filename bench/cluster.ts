import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { redisUrl } from '../test/helpers/databases';
import { freePort } from '../test/helpers/process';
import { withBenchDatabase } from './database';
import { type AppProcess, ensurePeersInstalled, issueKeys, startServer } from './processes';
import { PAGE, postgraphilePage, serverRounds, type Target } from './rounds';

/**
 * Issue 33 item 4 ("every core"): the machine's throughput with API_PROCESSES=2 beside one API
 * process, and beside PostGraphile 4 with one and with two cluster workers (what its CLI's
 * `--cluster-workers 2` runs), on the uncached and the cached product page (25 with their category).
 * Ours runs as operators run it (`src/main.ts api`, the node:cluster primary and its API processes);
 * CPU per request is the whole process tree's (primary included) and PostgreSQL's. Closed loop,
 * keep-alive, BENCH_CONNECTIONS (64) connections, alternating rounds, medians. Target: each
 * two-process figure ≥ its one-process figure; the ratios to PostGraphile are reported.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const here = path.join(__dirname, '..');
/** `src/main.ts api` with `processes` API processes; resolves once its banner says it listens. */
async function startApi(env: Record<string, string>, processes: number): Promise<AppProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(here, 'src/main.ts'), 'api'],
    {
      cwd: here,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        API_PROCESSES: String(processes),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`API (${processes}) did not listen in 60 s:\n${output}`)),
      60_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`:${port}`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`API (${processes}) exited with ${code}:\n${output}`)));
  });
  child.stdout?.resume();
  return { child, base: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

async function run(databaseUrl: string) {
  if (process.env.NODE_ENV !== 'production')
    throw new Error('run with NODE_ENV=production (npm run bench does)');
  const peersDir = ensurePeersInstalled();
  const db = connectDatabase(databaseUrl, { max: 2 });
  const { storeId } = await seedDemoStore(db.prisma);
  const keys = await issueKeys(db.prisma, storeId, 200);
  await db.close();
  const common = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL ?? redisUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '100000000',
    COST_BUDGET_POINTS: '1000000000',
    REDIS_TIMEOUT_MS: '2000',
  };
  const servers: AppProcess[] = [];
  const start = async (server: Promise<AppProcess>) => {
    const started = await server;
    servers.push(started);
    return started;
  };
  try {
    const uncached1 = await start(startApi({ ...common, READ_CACHE_TTL_MS: '0' }, 1));
    const uncached2 = await start(startApi({ ...common, READ_CACHE_TTL_MS: '0' }, 2));
    const cached1 = await start(startApi(common, 1));
    const cached2 = await start(startApi(common, 2));
    const postgraphile = (workers: number) =>
      start(
        startServer(path.join(peersDir, 'postgraphile-server.cjs'), {
          DATABASE_URL: databaseUrl,
          BENCH_WORKERS: String(workers),
        }),
      );
    const pgl1 = await postgraphile(1);
    const pgl2 = await postgraphile(2);
    const rest = (name: string, server: AppProcess): Target => ({
      name,
      server,
      url: server.base + PAGE,
      method: 'GET',
    });
    const pgl = (name: string, server: AppProcess): Target => ({
      name,
      server,
      url: `${server.base}/graphql`,
      method: 'POST',
      body: postgraphilePage(storeId),
    });
    const targets = [
      pgl('PostGraphile, 1 process', pgl1),
      pgl('PostGraphile, 2 cluster workers', pgl2),
      rest('ours REST uncached, 1 process', uncached1),
      rest('ours REST uncached, 2 processes', uncached2),
      rest('ours REST cached, 1 process', cached1),
      rest('ours REST cached, 2 processes', cached2),
    ];
    const median = await serverRounds(targets, {
      keys,
      concurrency: CONNECTIONS,
      durationMs: DURATION_MS,
      rounds: ROUNDS,
      database: new URL(databaseUrl).pathname.slice(1),
    });
    console.log(
      `API_PROCESSES and PostGraphile's cluster workers, product page: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, medians`,
    );
    for (const [name, m] of median) {
      console.log(
        `  ${name.padEnd(34)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms  API CPU ${m.cpuMs.toFixed(2)} ms/req  PostgreSQL CPU ${m.pgCpuMs.toFixed(2)} ms/req  (rounds ${m.all.map((r) => r.toFixed(0)).join(', ')})`,
      );
    }
    const rps = (name: string) => median.get(name)?.rps ?? Number.NaN;
    const line = (what: string, value: number, target?: number) =>
      console.log(
        `  ${what.padEnd(58)} ${value.toFixed(3).padStart(7)}${target === undefined ? '  (reported)' : `  target ≥ ${target}: ${value >= target ? 'met' : 'NOT MET'}`}`,
      );
    console.log('Ratios:');
    line(
      'uncached: 2 processes / 1 process',
      rps('ours REST uncached, 2 processes') / rps('ours REST uncached, 1 process'),
      1,
    );
    line(
      'cached: 2 processes / 1 process',
      rps('ours REST cached, 2 processes') / rps('ours REST cached, 1 process'),
      1,
    );
    line(
      'PostGraphile: 2 workers / 1 process',
      rps('PostGraphile, 2 cluster workers') / rps('PostGraphile, 1 process'),
    );
    line(
      'uncached, 2 processes / PostGraphile 2 workers',
      rps('ours REST uncached, 2 processes') / rps('PostGraphile, 2 cluster workers'),
    );
    line(
      'cached, 2 processes / PostGraphile 2 workers',
      rps('ours REST cached, 2 processes') / rps('PostGraphile, 2 cluster workers'),
    );
  } finally {
    for (const server of servers) server.stop();
  }
}

withBenchDatabase('cluster', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
