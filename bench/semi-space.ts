import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { withBenchDatabase } from './database';
import { type AppProcess, cpuMsOf, issueKeys, type LoadResult, runLoad, startServer } from './processes';

/**
 * Issue 33 item 6: V8's young generation (`--max-semi-space-size`, MB) on the product page, uncached and
 * cached REST. One API process per size and page (bench/app-process.ts, the flag in NODE_OPTIONS), all
 * on the demo store; the load client in its own process (16 connections, keep-alive); alternating
 * rounds, medians; API CPU per request from /proc. A size is set in scripts/start.mjs only if it wins
 * over V8's default on both pages in three runs (BASELINE says which). `control` in BENCH_SEMI_SPACE is
 * a second process with V8's default: how far two alike processes come apart in this run.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = (process.env.BENCH_SEMI_SPACE ?? 'default,16,32,64').split(',');
const PAGE = '/api/v1/product?limit=25';
const here = path.join(__dirname, '..');

type Measured = LoadResult & { cpuMs: number };

withBenchDatabase('semi_space', async (databaseUrl) => {
  if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production');
  const db = connectDatabase(databaseUrl, { max: 4 });
  const { storeId } = await seedDemoStore(db.prisma);
  const keys = await issueKeys(db.prisma, storeId, 200);
  const common = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '100000000',
    COST_BUDGET_POINTS: '1000000000',
  };
  const targets: Array<{ name: string; size: string; page: string; server: AppProcess }> = [];
  try {
    for (const page of ['uncached', 'cached'])
      for (const size of SIZES)
        targets.push({
          name: `${page} REST, semi-space ${size}`,
          size,
          page,
          server: await startServer(
            path.join(here, 'bench/app-process.ts'),
            {
              BENCH_APP_ENV: JSON.stringify(
                page === 'uncached' ? { ...common, READ_CACHE_TTL_MS: '0' } : common,
              ),
              NODE_OPTIONS: size === 'default' || size === 'control' ? '' : `--max-semi-space-size=${size}`,
            },
            here,
          ),
        });
    const load = (target: (typeof targets)[number], durationMs: number) =>
      runLoad({ url: target.server.base + PAGE, method: 'GET', keys, durationMs, concurrency: 16 });
    for (const target of targets) await load(target, 1500);
    const rounds = new Map<string, Measured[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const target of targets) {
        const pid = target.server.child.pid as number;
        const before = cpuMsOf(pid);
        const result = await load(target, DURATION_MS);
        if (result.errors > 0)
          throw new Error(
            `${target.name}: ${result.errors} answers were not 200: ${JSON.stringify(result.unexpected)}`,
          );
        rounds.set(target.name, [
          ...(rounds.get(target.name) ?? []),
          { ...result, cpuMs: (cpuMsOf(pid) - before) / result.requests },
        ]);
      }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    console.log(
      `Semi-space size, product page REST: 16 connections, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, medians`,
    );
    for (const page of ['uncached', 'cached']) {
      const of = (size: string) => rounds.get(`${page} REST, semi-space ${size}`) ?? [];
      const base = of('default');
      for (const size of SIZES) {
        const m = of(size);
        const rps = median(m.map((r) => r.rps));
        const cpu = median(m.map((r) => r.cpuMs));
        console.log(
          `  ${page.padEnd(8)} ${size.padStart(7)}  ${rps.toFixed(0).padStart(5)} req/s  ${(rps / median(base.map((r) => r.rps))).toFixed(3)} of default  CPU ${cpu.toFixed(3)} ms/req  ${(cpu / median(base.map((r) => r.cpuMs))).toFixed(3)} of default  (rounds ${m.map((r) => r.rps.toFixed(0)).join(', ')})`,
        );
      }
    }
  } finally {
    for (const target of targets) target.server.stop();
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
