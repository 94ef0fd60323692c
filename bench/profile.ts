import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { withBenchDatabase } from './database';
import { issueKeys, runLoad, startApp } from './processes';

/**
 * Where an API process's CPU goes on one path (issue 20: "find where the time goes"): one app process
 * under V8's sampling profiler (from after a warm-up), closed-loop load on the path for BENCH_DURATION_MS, then
 * the profile's self time grouped by package (Prisma, pg, graphql-js, yoga, express, ...) and by our
 * own folders, and the heaviest functions. Not part of `npm run bench`: a tool for looking.
 *
 *   NODE_ENV=production npx tsx bench/profile.ts rest-uncached|rest-cached|rest-304|graphql-uncached|graphql-cached
 *
 * (`rest-304`: the cached page asked with its current ETag, answered 304 — README "Conditional requests".)
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PAGE = '/api/v1/product?limit=25';
const QUERY = JSON.stringify({
  query: `{ products(limit: 25) { items { id name slug sku priceAmount compareAtAmount currency stock status categoryId category { id name } createdAt updatedAt } pagination { totalResults currentPage limit lastPage } } }`,
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function run(databaseUrl: string) {
  const path_ = process.argv[2] ?? 'rest-uncached';
  const [door, cache] = path_.split('-') as ['rest' | 'graphql', 'cached' | 'uncached' | '304'];
  const db = connectDatabase(databaseUrl, { max: 4 });
  const seeded = await seedDemoStore(db.prisma);
  const keys = await issueKeys(db.prisma, seeded.storeId, 200);
  await db.close();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'cpu-prof-')), `${path_}.cpuprofile`);
  const app = await startApp(path.join(__dirname, '..'), {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '1000000',
    COST_BUDGET_POINTS: '1000000000',
    ...(cache === 'uncached' ? { READ_CACHE_TTL_MS: '0' } : {}),
    BENCH_CPU_PROFILE: file,
  });
  const tag =
    cache === '304'
      ? ((await fetch(app.base + PAGE, { headers: { 'tt-api-key': keys[0] as string } })).headers.get(
          'etag',
        ) ?? '')
      : undefined;
  const target =
    door === 'rest'
      ? tag === undefined
        ? { url: app.base + PAGE, method: 'GET' as const }
        : { url: app.base + PAGE, method: 'GET' as const, headers: { 'if-none-match': tag }, okStatus: 304 }
      : { url: `${app.base}/graphql`, method: 'POST' as const, body: QUERY };
  await runLoad({ ...target, keys, durationMs: 2000, concurrency: CONCURRENCY });
  app.child.kill('SIGUSR2');
  const result = await runLoad({ ...target, keys, durationMs: DURATION_MS, concurrency: CONCURRENCY });
  app.stop();
  await new Promise((resolve) => app.child.once('exit', resolve));
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  console.log(`${path_}: ${result.rps.toFixed(0)} req/s, ${result.requests} requests; profile ${file}`);
  report(profile);
}

/** Self time per group and per function, as shares of the busy (non-idle) time. */
function report(profile: Profile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, micros] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const group = groupOf(node.callFrame);
    if (group === '(idle)') continue;
    busy += micros;
    groups.set(group, (groups.get(group) ?? 0) + micros);
    const name = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
  }
  const print = (title: string, table: Map<string, number>, top: number) => {
    console.log(title);
    for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`  ${((100 * micros) / busy).toFixed(1).padStart(5)} %  ${name}`);
  };
  console.log(`busy ${(busy / 1000).toFixed(0)} ms`);
  print('self time by group', groups, 30);
  print('heaviest functions', functions, 40);
}

function groupOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)')
    return functionName;
  if (!url) return `(native) ${functionName}`;
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:'))
    return url.split('/')[0] === 'node:internal' ? url.split('/').slice(0, 2).join('/') : url;
  const ours = url.indexOf('/src/') >= 0 ? url.slice(url.indexOf('/src/') + 1) : url;
  return ours.split('/').slice(0, 2).join('/');
}

const shortUrl = (url: string) =>
  url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|rest|prisma)\//, '$1/');

withBenchDatabase('profile', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
