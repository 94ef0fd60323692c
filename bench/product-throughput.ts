import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
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
import { withBenchDatabase } from './database';
import { deleteKeysUnder } from './redis-keys';

/**
 * Issue 4's target: `GET /api/v1/product` (page of 25, full authentication, rate limit and usage, many
 * keys so the limit is not what is measured) against a bare node:http server returning the same JSON
 * from memory, and the same page through GraphQL against REST. Closed-loop load from a client process
 * (bench/load-client.ts, node:http: it costs the same for a GET and a POST).
 * The service runs with its default configuration, read cache included (README "Read cache"); the
 * same REST request against a second app with the read cache off is measured in the same rounds and
 * printed beside it, so that what a cache miss costs stays in view.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
/** Each app door is warmed up (JIT, caches, first misses) before the rounds. */
const WARM_UP_MS = 2000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/**
 * Enough keys that the rate limit (140 a minute each) is never what is measured: in any minute the
 * rounds make up to ~150,000 requests at today's speed (REST and GraphQL up to ~5,000 req/s each,
 * three rounds of each a minute), ~75 per key, and any 429 fails the run. Every key's verified-key cache entry (5 s)
 * is refreshed from PostgreSQL as it expires, so more keys also measure that: one statement per key
 * every 5 s, as in production.
 */
const KEYS = Number(process.env.BENCH_KEYS ?? 2000);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}
type Measured = Result & { cpuMs: number };

/** The round with the median throughput (its latencies and CPU go with it). */
const medianRun = (results: Measured[]) =>
  [...results].sort((a, b) => a.rps - b.rps)[Math.floor(results.length / 2)] as Measured;

/** Runs bench/load-client.ts in a process of its own against one target (the servers keep this one). */
function load(target: {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  keys: string[];
  durationMs?: number;
}): Promise<Result> {
  const input = JSON.stringify({ durationMs: DURATION_MS, ...target, concurrency: CONCURRENCY });
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

const line = (name: string, r: Result) =>
  `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`;

async function run(databaseUrl: string) {
  // graphql-js and express read NODE_ENV when loaded; measure what production runs.
  if (process.env.NODE_ENV !== 'production')
    throw new Error('run with NODE_ENV=production (npm run bench does)');
  const logger = createLogger('silent');
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const db = connectDatabase(databaseUrl, { max: 10 });
  const redis = connectRedis(redisUrl, logger);
  await new Promise((resolve) => redis.once('ready', resolve));
  const prefix = `bench:${process.pid}:`;
  const runtime = createRuntime({ config, prisma: db.prisma, redis, logger, redisKeyPrefix: prefix });
  await runtime.start();
  const seeded = await seedDemoStore(db.prisma);
  const keys: string[] = [];
  for (let k = 0; k < KEYS; k++) {
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
  }
  const listenOn = async (app: ReturnType<typeof createApp>) => {
    const listener = await listen(app, 0, '127.0.0.1');
    return { listener, base: `http://127.0.0.1:${(listener.address() as AddressInfo).port}` };
  };
  const { listener: server, base } = await listenOn(createApp({ config, redis, logger, runtime }));
  const uncachedConfig = { ...config, readCache: { ...config.readCache, ttlMs: 0 } };
  const uncachedRuntime = createRuntime({
    config: uncachedConfig,
    prisma: db.prisma,
    redis,
    logger,
    redisKeyPrefix: prefix,
  });
  await uncachedRuntime.start();
  const uncached = await listenOn(
    createApp({ config: uncachedConfig, redis, logger, runtime: uncachedRuntime }),
  );
  const productPath = '/api/v1/product?limit=25';
  const page = await (
    await fetch(base + productPath, { headers: { 'tt-api-key': keys[0] as string } })
  ).text();
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(page);
  });
  bare.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => bare.once('listening', () => resolve()));
  const bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const query = JSON.stringify({
    query: `{ products(limit: 25) { items { id name slug sku priceAmount compareAtAmount currency stock status categoryId category { id name } createdAt updatedAt } pagination { totalResults currentPage limit lastPage } } }`,
  });

  const rest = { url: base + productPath, method: 'GET' as const, keys };
  const graphql = { url: `${base}/graphql`, method: 'POST' as const, body: query, keys };
  // CPU of this (the API) process per request: what bounds its throughput on one core.
  const measured = async (target: Parameters<typeof load>[0]) => {
    const before = process.cpuUsage();
    const result = await load(target);
    const used = process.cpuUsage(before);
    return { ...result, cpuMs: (used.user + used.system) / 1000 / (result.rps * (DURATION_MS / 1000)) };
  };
  const uncachedRest = { ...rest, url: uncached.base + productPath };
  for (const target of [rest, graphql, uncachedRest]) await load({ ...target, durationMs: WARM_UP_MS });
  // Rounds alternate the three, so that a slow spell of this shared machine does not fall on one side
  // only; each side's median round is compared.
  const runs = {
    bare: [] as Measured[],
    rest: [] as Measured[],
    graphql: [] as Measured[],
    uncached: [] as Measured[],
  };
  for (let round = 0; round < ROUNDS; round++) {
    runs.bare.push(await measured({ ...rest, url: bareBase + productPath }));
    runs.rest.push(await measured(rest));
    runs.graphql.push(await measured(graphql));
    runs.uncached.push(await measured(uncachedRest));
  }
  for (const [name, results] of Object.entries(runs)) {
    const errors = results.reduce((sum, r) => sum + r.errors, 0);
    if (errors > 0) throw new Error(`${name}: ${errors} responses were not 200`);
  }
  const bareResult = medianRun(runs.bare);
  const restResult = medianRun(runs.rest);
  const graphqlResult = medianRun(runs.graphql);
  const uncachedResult = medianRun(runs.uncached);
  const rounds = (results: Measured[]) => results.map((r) => r.rps.toFixed(0)).join(', ');
  console.log(
    `GET ${productPath}: ${CONCURRENCY} concurrent clients, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, ${KEYS} keys; median rounds`,
  );
  console.log(`${line('bare node:http (same JSON)', bareResult)}   (rounds: ${rounds(runs.bare)})`);
  console.log(
    `${line('REST, full stack', restResult)}   API CPU ${restResult.cpuMs.toFixed(2)} ms/request (rounds: ${rounds(runs.rest)})`,
  );
  console.log(
    `${line('GraphQL, same page', graphqlResult)}   API CPU ${graphqlResult.cpuMs.toFixed(2)} ms/request (rounds: ${rounds(runs.graphql)})`,
  );
  console.log(
    `${line('REST, read cache off (every miss)', uncachedResult)}   API CPU ${uncachedResult.cpuMs.toFixed(2)} ms/request (rounds: ${rounds(runs.uncached)}; ${(uncachedResult.rps / bareResult.rps).toFixed(2)} of bare)`,
  );
  const restRatio = restResult.rps / bareResult.rps;
  const graphqlRatio = graphqlResult.rps / restResult.rps;
  console.log(
    `  REST / bare: ${restRatio.toFixed(2)} (target ≥ 0.25: ${restRatio >= 0.25 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  GraphQL / REST: ${graphqlRatio.toFixed(2)} (target ≥ 0.8: ${graphqlRatio >= 0.8 ? 'met' : 'NOT met'})`,
  );

  server.close();
  uncached.listener.close();
  bare.close();
  await runtime.stop();
  await uncachedRuntime.stop();
  await deleteKeysUnder(redis, prefix);
  redis.disconnect();
  await db.close();
}

withBenchDatabase('products', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
