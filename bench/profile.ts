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
 *   npx tsx bench/profile.ts /tmp/cpu-prof-…/rest-304.cpuprofile   (report a profile written before)
 *
 * (`rest-304`: the cached page asked with its current ETag, answered 304 — README "Conditional requests".)
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PAGE = '/api/v1/product?limit=25';
/** The read cache's window on the 304 path, its longest (READ_CACHE_TTL_MS): the tag names it. */
const TAG_WINDOW_MS = 600_000;
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
    // The tag names the read cache's window (src/read-cache/read-cache.ts tagBasis): with the default
    // 10 s window the tag fetched first goes stale mid-run and the rest of the run is 200s. And a loaded
    // machine must not make admission fall back to memory (no version: no tag, a 200), as
    // bench/conditional.ts sets too.
    ...(cache === '304' ? { READ_CACHE_TTL_MS: String(TAG_WINDOW_MS), REDIS_TIMEOUT_MS: '2000' } : {}),
    // REQUEST_LOG=off from the environment: the same path without the request log, to compare.
    ...(process.env.REQUEST_LOG ? { REQUEST_LOG: process.env.REQUEST_LOG } : {}),
    BENCH_CPU_PROFILE: file,
  });
  // The windows are aligned to the clock: a run that would cross into the next one waits for it.
  const left = TAG_WINDOW_MS - (Date.now() % TAG_WINDOW_MS);
  if (cache === '304' && left < DURATION_MS + 10_000)
    await new Promise((resolve) => setTimeout(resolve, left + 500));
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
  console.log(
    `${path_}: ${result.rps.toFixed(0)} req/s, ${result.requests} requests, ${result.errors} of another status ${JSON.stringify(result.unexpected)}; profile ${file}`,
  );
  report(profile);
}

/**
 * Self time per group and per function, as shares of the busy (non-idle) time. The profiler's own
 * stop (inspector `post`, which serializes the profile while the sampler still runs: ~9 % of a 304
 * run's samples) is not the app's and is left out.
 */
function report(profile: Profile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const profilerOwn = new Set<number>();
  const markOwn = (id: number) => {
    profilerOwn.add(id);
    for (const child of byId.get(id)?.children ?? []) markOwn(child);
  };
  for (const node of profile.nodes)
    if (node.callFrame.url === 'node:inspector' && node.callFrame.functionName === 'post') markOwn(node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (profilerOwn.has(id)) return;
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
  print('by concern (CONCERNS below)', byConcern(profile, byId, self), 20);
}

/**
 * What a request's CPU is spent on, by concern rather than by package. A sample goes to the first
 * concern `anywhere` whose test some frame of its stack passes (pg under the request log is the
 * request log, a socket write under Redis's uncork is Redis, everything under the answer's `end` is
 * writing it); else to the concern of its innermost frame that one of the others names (middleware
 * call `next()`, so an outer frame would claim the whole request); else Node's own frames; else `other`.
 */
const CONCERNS: Array<[name: string, anywhere: boolean, test: (url: string, fn: string) => boolean]> = [
  ['GC', true, (_url, fn) => fn === '(garbage collector)'],
  [
    'request log (src/request-log, its Prisma/pg INSERT)',
    true,
    (url) => /src\/request-log\/|node_modules\/(pg|pg-pool|pg-protocol|@prisma)\//.test(url),
  ],
  [
    'Redis: admission script, its writes and replies',
    true,
    (url) =>
      /src\/admission\/|src\/redis\.ts|src\/ratelimit\/redis|node_modules\/(ioredis|redis-parser)\//.test(
        url,
      ),
  ],
  [
    'writing the answer (headers, body, the socket write)',
    true,
    (url, fn) =>
      url === 'node:_http_outgoing' && (fn === 'end' || fn === 'writeHead' || fn === '_implicitHeader'),
  ],
  [
    'metrics (src/http/metrics.ts, prom-client)',
    false,
    (url) => /src\/http\/metrics\.ts|node_modules\/prom-client\//.test(url),
  ],
  [
    'pipeline (envelop, plugins: the 304 decision, the cache hit)',
    false,
    (url) =>
      /src\/graphql\/|src\/read-cache\/|src\/cost\/|node_modules\/(@envelop|graphql-yoga|@whatwg-node|graphql)\//.test(
        url,
      ),
  ],
  ['API key verification, authentication (src/auth)', false, (url) => /src\/auth\/|src\/usage\//.test(url)],
  ['REST door (route, variables, query string)', false, (url) => /\/rest\//.test(url)],
  [
    'request id, log line (src/http/request-state.ts)',
    false,
    (url) => /src\/http\/request-state\.ts/.test(url),
  ],
  [
    'headers of src/http (api headers, vary, CORS)',
    false,
    (url) => /src\/http\/(api-headers|cors)\.ts|node_modules\/(cors|vary)\//.test(url),
  ],
  ['express and its router', false, (url) => /node_modules\/(express|router|path-to-regexp)\//.test(url)],
];

function byConcern(profile: Profile, byId: Map<number, ProfileNode>, self: Map<number, number>) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const table = new Map<string, number>();
  const stackOf = (id: number) => {
    const frames: ProfileNode['callFrame'][] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame) frames.push(frame);
    }
    return frames;
  };
  for (const [id, micros] of self) {
    const leaf = byId.get(id);
    if (!leaf || groupOf(leaf.callFrame) === '(idle)') continue;
    const frames = stackOf(id);
    const concern =
      CONCERNS.find(
        ([, anywhere, test]) => anywhere && frames.some((f) => test(f.url, f.functionName)),
      )?.[0] ??
      frames
        .map((f) => CONCERNS.find(([, anywhere, test]) => !anywhere && test(f.url, f.functionName))?.[0])
        .find((name) => name !== undefined) ??
      (frames.some((f) => f.url.startsWith('node:'))
        ? 'Node: HTTP parsing, events, sockets, timers'
        : 'other');
    table.set(concern, (table.get(concern) ?? 0) + micros);
  }
  return table;
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

// A profile written before (its path as the argument) is reported again, without a run.
const written = process.argv[2]?.endsWith('.cpuprofile') ? process.argv[2] : undefined;
(written
  ? Promise.resolve(report(JSON.parse(readFileSync(written, 'utf8')) as Profile))
  : withBenchDatabase('profile', run)
)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
