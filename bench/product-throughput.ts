import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase } from '../src/db';
import { createLogger } from '../src/logger';
import { issueApiKey } from '../src/modules/api-keys/issue';
import { connectRedis } from '../src/redis';
import { createRuntime } from '../src/runtime';
import { allScopes } from '../test/helpers/factories';
import { withBenchDatabase } from './database';

/**
 * Issue 4's target: `GET /api/v1/product` (page of 25, full authentication, rate limit and usage, many
 * keys so the limit is not what is measured) against a bare node:http server returning the same JSON
 * from memory, and the same page through GraphQL against REST. Closed-loop load from this process.
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
/**
 * Enough keys that the rate limit (140 a minute each) is never what is measured: the three runs make
 * up to ~8,000 requests within a minute (57 keys), so 100 leave a margin; any 429 fails the run. More
 * keys measure the verified-key cache instead (each key is looked up again when its 5 s entry ends).
 */
const KEYS = Number(process.env.BENCH_KEYS ?? 100);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Result {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Runs bench/load-client.ts in a process of its own against one target (the servers keep this one). */
function load(target: {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  keys: string[];
}): Promise<Result> {
  const input = JSON.stringify({ ...target, durationMs: DURATION_MS, concurrency: CONCURRENCY });
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'load-client.ts'), input],
      { maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Result)),
    );
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
  const app = createApp({ config, redis, logger, runtime });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
  await load(rest); // warm-up
  const bareResult = await load({ ...rest, url: bareBase + productPath });
  // CPU of this (the API) process per request: what bounds its throughput on one core.
  const cpuPerRequest = async (run: () => Promise<Result>) => {
    const before = process.cpuUsage();
    const result = await run();
    const used = process.cpuUsage(before);
    return { result, ms: (used.user + used.system) / 1000 / (result.rps * (DURATION_MS / 1000)) };
  };
  const restRun = await cpuPerRequest(() => load(rest));
  const graphqlRun = await cpuPerRequest(() =>
    load({ url: `${base}/graphql`, method: 'POST', body: query, keys }),
  );
  const restResult = restRun.result;
  const graphqlResult = graphqlRun.result;
  for (const [name, result] of [
    ['REST', restResult],
    ['GraphQL', graphqlResult],
  ] as const) {
    if (result.errors > 0) throw new Error(`${name}: ${result.errors} responses were not 200`);
  }
  console.log(
    `GET ${productPath}: ${CONCURRENCY} concurrent clients, ${DURATION_MS / 1000} s each, ${KEYS} keys`,
  );
  console.log(line('bare node:http (same JSON)', bareResult));
  console.log(`${line('REST, full stack', restResult)}   API CPU ${restRun.ms.toFixed(2)} ms/request`);
  console.log(
    `${line('GraphQL, same page', graphqlResult)}   API CPU ${graphqlRun.ms.toFixed(2)} ms/request`,
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
  bare.close();
  await runtime.stop();
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (found.length) await redis.del(...found);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
  await db.close();
}

withBenchDatabase('products', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
