import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase } from '../src/db/client';
import { listen } from '../src/http/server';
import { createLogger } from '../src/logger';
import { issueApiKey } from '../src/modules/api-keys/issue';
import { connectRedis } from '../src/redis';
import { createRuntime } from '../src/runtime';
import { allScopes, makeCategories, makeStore } from '../test/helpers/factories';
import { withBenchDatabase } from './database';

/**
 * What API-key authentication, the sliding-window rate limit and usage metering cost per request,
 * with the key cached: the same route served by two apps side by side, one with the real pipeline and
 * one that sets the same principal without any check. Requests alternate between them so both see the
 * same machine state. Target (issue 3): the median difference is at most 1 ms.
 */
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
};

async function run(databaseUrl: string) {
  // graphql-js and express read NODE_ENV when loaded; measure what production runs.
  if (process.env.NODE_ENV !== 'production')
    throw new Error('run with NODE_ENV=production (npm run bench does)');
  const logger = createLogger('silent');
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '1000000',
    COST_BUDGET_POINTS: '1000000000',
    // Both apps run the operation: the read cache (which only an authenticated request can use)
    // would otherwise answer one side from memory.
    READ_CACHE_TTL_MS: '0',
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
  });
  const db = connectDatabase(databaseUrl);
  const redis = connectRedis(redisUrl, logger);
  await new Promise((resolve) => redis.once('ready', resolve));
  const prefix = `bench:${process.pid}:`;
  const runtime = createRuntime({ config, prisma: db.prisma, redis, logger, redisKeyPrefix: prefix });
  await runtime.start();

  const store = await makeStore(db.prisma);
  await makeCategories(db.prisma, store.id, ['Shoes', 'Hats', 'Bags']);
  const { secret } = await issueApiKey(
    db.prisma,
    store.id,
    { keyName: 'bench', environment: 'production', scopes: allScopes() },
    { now: new Date() },
  );

  const withAuth = createApp({ config, redis, logger, runtime });
  const fixed = await runtime.keys.verify(secret, '127.0.0.1', new Date());
  const withoutAuth = createApp({
    config,
    redis,
    logger,
    runtime: {
      ...runtime,
      authenticate: async (req) => {
        req.state.principal = fixed.principal;
      },
    },
  });
  const listenOn = async (app: ReturnType<typeof createApp>) => {
    const server = await listen(app, 0, '127.0.0.1');
    return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  const a = await listenOn(withAuth);
  const b = await listenOn(withoutAuth);
  const path = '/api/v1/category?limit=1';
  const headers = { 'tt-api-key': secret };

  const timeOne = async (base: string) => {
    const started = process.hrtime.bigint();
    const res = await fetch(base + path, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`unexpected status ${res.status}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  for (let i = 0; i < 300; i++) {
    await timeOne(a.base);
    await timeOne(b.base);
  }
  const tA: number[] = [];
  const tB: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    if (i % 2 === 0) {
      tA.push(await timeOne(a.base));
      tB.push(await timeOne(b.base));
    } else {
      tB.push(await timeOne(b.base));
      tA.push(await timeOne(a.base));
    }
  }
  const mA = median(tA);
  const mB = median(tB);
  console.log(`GET ${path}, ${REQUESTS} requests each, alternating, key cached`);
  console.log(
    `  with auth + rate limit + usage: median ${mA.toFixed(3)} ms, p95 ${percentile(tA, 0.95).toFixed(3)} ms`,
  );
  console.log(
    `  without (principal preset):     median ${mB.toFixed(3)} ms, p95 ${percentile(tB, 0.95).toFixed(3)} ms`,
  );
  console.log(
    `  overhead at the median: ${(mA - mB).toFixed(3)} ms (ratio ${(mA / mB).toFixed(2)}); target ≤ 1 ms: ${mA - mB <= 1 ? 'met' : 'NOT met'}`,
  );

  a.server.close();
  b.server.close();
  await runtime.stop();
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await db.close();
}

withBenchDatabase('auth', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
