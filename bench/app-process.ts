// One API process for a benchmark (bench/pipeline-ab.ts): the app of the tree this file stands in,
// on the database and Redis the parent names, listening on a free loopback port that it prints as
// one JSON line. Only APIs that every version of the app has are used, so the same file can be
// copied into an older checkout and run there.
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { connectDatabase } from '../src/db';
import { listen } from '../src/http/server';
import { createLogger } from '../src/logger';
import { connectRedis } from '../src/redis';
import { createRuntime } from '../src/runtime';

async function main() {
  const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>;
  const config = loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', ...env });
  const logger = createLogger('silent');
  const db = connectDatabase(config.databaseUrl as string, { max: 10 });
  const redis = connectRedis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', logger);
  await new Promise((resolve) => redis.once('ready', resolve));
  const runtime = createRuntime({
    config,
    prisma: db.prisma,
    redis,
    logger,
    redisKeyPrefix: process.env.BENCH_REDIS_PREFIX ?? `bench:${process.pid}:`,
  });
  await runtime.start();
  const server = await listen(createApp({ config, redis, logger, runtime }), 0, '127.0.0.1');
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0));
}

void main();
