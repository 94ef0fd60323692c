import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { withBenchDatabase } from './database';
import { cpuMsOf, issueKeys, type LoadResult, runLoad, startApp } from './processes';

/**
 * Issue 13's performance check: the product page, REST and GraphQL, cached and uncached, served by
 * the code before the pipeline (the tree in BENCH_BASE_DIR, e.g. a worktree of 33e7254) and by this
 * tree, in one run: four app processes on one database and Redis, alternating rounds of closed-loop
 * load (bench/load-client.ts in its own process), medians compared, CPU per request read from each
 * app process's /proc/<pid>/stat. bench/BASELINE.md says how to make the base tree.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const KEYS = Number(process.env.BENCH_KEYS ?? 1000);
const baseDir = process.env.BENCH_BASE_DIR;
const here = path.join(__dirname, '..');

type Result = LoadResult;

const load = (target: { url: string; method: 'GET' | 'POST'; body?: string; keys: string[] }) =>
  runLoad({ durationMs: DURATION_MS, concurrency: CONCURRENCY, ...target });

async function run(databaseUrl: string) {
  if (!baseDir) throw new Error('BENCH_BASE_DIR must name the checkout of the code before the change');
  if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production');
  const db = connectDatabase(databaseUrl, { max: 4 });
  const seeded = await seedDemoStore(db.prisma);
  const keys = await issueKeys(db.prisma, seeded.storeId, KEYS);
  await db.close();
  const common = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '1000000',
    // The cost budget (issue 19, after the pipeline) is one more Redis round trip per request; with
    // BENCH_COST_BUDGET=off the comparison is of the pipeline alone.
    COST_BUDGET_POINTS: process.env.BENCH_COST_BUDGET === 'off' ? '0' : '1000000000',
  };
  const apps = {
    before: await startApp(baseDir, common),
    after: await startApp(here, common),
    beforeUncached: await startApp(baseDir, { ...common, READ_CACHE_TTL_MS: '0' }),
    afterUncached: await startApp(here, { ...common, READ_CACHE_TTL_MS: '0' }),
  };
  const page = '/api/v1/product?limit=25';
  const query = JSON.stringify({
    query: `{ products(limit: 25) { items { id name slug sku priceAmount compareAtAmount currency stock status categoryId category { id name } createdAt updatedAt } pagination { totalResults currentPage limit lastPage } } }`,
  });
  const targets = Object.entries(apps).flatMap(([name, app]) => [
    { name: `${name} REST`, app, url: app.base + page, method: 'GET' as const },
    { name: `${name} GraphQL`, app, url: `${app.base}/graphql`, method: 'POST' as const, body: query },
  ]);
  for (const target of targets) await load({ ...target, keys });
  const rounds = new Map<string, Array<Result & { cpuMs: number }>>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const pid = target.app.child.pid as number;
      const before = cpuMsOf(pid);
      const result = await load({ url: target.url, method: target.method, body: target.body, keys });
      if (result.errors > 0)
        throw new Error(
          `${target.name}: ${result.errors} answers were not 200: ${JSON.stringify(result.unexpected)}`,
        );
      const cpuMs = (cpuMsOf(pid) - before) / result.requests;
      rounds.set(target.name, [...(rounds.get(target.name) ?? []), { ...result, cpuMs }]);
    }
  }
  const median = (name: string) => {
    const sorted = [...(rounds.get(name) ?? [])].sort((a, b) => a.rps - b.rps);
    return sorted[Math.floor(sorted.length / 2)] as Result & { cpuMs: number };
  };
  console.log(
    `GET ${page} and the same page through GraphQL: ${CONCURRENCY} clients, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, ${KEYS} keys; median rounds`,
  );
  for (const target of targets) {
    const m = median(target.name);
    const all = (rounds.get(target.name) ?? []).map((r) => r.rps.toFixed(0)).join(', ');
    console.log(
      `  ${target.name.padEnd(26)} ${m.rps.toFixed(0).padStart(6)} req/s  p50 ${m.p50.toFixed(2)} ms  API CPU ${m.cpuMs.toFixed(3)} ms/request  (rounds: ${all})`,
    );
  }
  for (const [what, b, a] of [
    ['REST cached', 'before REST', 'after REST'],
    ['GraphQL cached', 'before GraphQL', 'after GraphQL'],
    ['REST uncached', 'beforeUncached REST', 'afterUncached REST'],
    ['GraphQL uncached', 'beforeUncached GraphQL', 'afterUncached GraphQL'],
  ] as const) {
    const [x, y] = [median(b), median(a)];
    console.log(
      `  ${what.padEnd(18)} after/before: throughput ${(y.rps / x.rps).toFixed(2)}, CPU per request ${(y.cpuMs / x.cpuMs).toFixed(2)}`,
    );
  }
  for (const app of Object.values(apps)) app.stop();
}

withBenchDatabase('ab', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
