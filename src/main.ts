import type { Server } from 'node:http';
import type { Runner } from 'graphile-worker';
import type { Redis } from 'ioredis';
import { startWorker, surviveLostJobReports, webhookWorkerOptions } from '../jobs/worker';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { createApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { connectDatabase, type Database, workerPoolSize } from './db';
import { watchAvailability } from './db/availability';
import { startEmbeddedPostgres } from './db/embedded';
import { migrate } from './db/migrate';
import { listen } from './http/server';
import { createLogger } from './logger';
import { connectRedis } from './redis';
import { createRuntime } from './runtime';

type Role = 'all' | 'api' | 'worker';

/**
 * Process entry. `all` (npm start): API and worker in one process, migrating first, and with no
 * DATABASE_URL an embedded PostgreSQL seeded with a demo store. `api` / `worker`: one role each.
 */
async function main() {
  const role = parseRole(process.argv[2]);
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  if (config.webhook.secretKeyIsDevDefault) {
    logger.warn('no WEBHOOK_SECRET_KEY: webhook secrets are encrypted with the fixed development key');
  }
  const stops: Array<() => Promise<unknown>> = [];

  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    if (role !== 'all') throw new ConfigError(`DATABASE_URL is required for \`${role}\``);
    logger.info('no DATABASE_URL: starting embedded PostgreSQL under %s', config.dataDir);
    const embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      log: (message) => logger.info(message),
      serverLog: (message) => logger.debug(message),
    });
    stops.push(() => embedded.stop());
    databaseUrl = embedded.url;
  }
  if (role === 'all') {
    const result = await migrate(databaseUrl, (line) => logger.info(line));
    logger.info('database schema up to date (%d applied now)', result.applied.length);
  }
  const db = connectDatabase(databaseUrl, {
    max: role === 'api' ? undefined : workerPoolSize(config.workerConcurrency),
  });
  stops.unshift(() => db.close());
  const availability = watchAvailability(db.pool, logger);
  stops.unshift(async () => availability.stop());
  if (role === 'all' && (!config.databaseUrl || config.seedDemo)) await seedOnFirstBoot(db, config);

  let redis: Redis | null = null;
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, logger, { commandTimeoutMs: config.redisTimeoutMs });
    const connection = redis;
    stops.unshift(() => connection.quit().catch(() => connection.disconnect()));
  } else if (role !== 'worker') {
    logger.warn('no REDIS_URL: rate limits and usage counts are kept in this process only');
  }

  const runtime = createRuntime({ config, prisma: db.prisma, redis, logger });
  await runtime.start();
  stops.unshift(() => runtime.stop());

  let server: Server | undefined;
  if (role !== 'worker') {
    const app = createApp({ config, redis, logger, runtime });
    server = await listen(app, config.port, config.host);
    // An error of the listening server (say, out of file descriptors while accepting) is logged, not fatal.
    server.on('error', (error) => logger.error({ err: error }, 'http server error'));
    logger.info('listening on http://%s:%d (GraphQL /graphql, REST /api/v1)', config.host, config.port);
    if (role === 'api') {
      // Usage counted in this process's memory (no Redis, or Redis down) is flushed by this process;
      // what Redis counted is flushed by the workers' flush_usage job too.
      const timer = setInterval(() => {
        runtime.usage
          .flush(db.prisma)
          .catch((error: unknown) => logger.error({ err: error }, 'usage flush failed'));
      }, 60_000);
      timer.unref();
      stops.unshift(async () => clearInterval(timer));
    }
  }
  let worker: Runner | undefined;
  if (role !== 'api') {
    surviveLostJobReports(availability);
    worker = await startWorker({
      pgPool: db.pool,
      logger,
      concurrency: config.workerConcurrency,
      usageMeter: runtime.usage,
      prisma: db.prisma,
      webhooks: webhookWorkerOptions(config, logger),
      availability,
    });
    logger.info('worker running (concurrency %d)', config.workerConcurrency);
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('%s received: draining requests and jobs', signal);
    const deadline = setTimeout(() => {
      logger.error('shutdown took longer than %d ms; exiting', config.shutdownTimeoutMs);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    await Promise.all([server ? closeServer(server) : undefined, worker?.stop()]);
    // Usage counted in this process (no Redis, or Redis down) must not be lost.
    await runtime.usage
      .flush(db.prisma)
      .catch((error: unknown) => logger.error({ err: error }, 'final usage flush failed'));
    for (const stop of stops)
      await stop().catch((error) => logger.warn({ err: error }, 'error while stopping'));
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/** Stops accepting connections, closes idle keep-alive sockets, and waits for requests in flight. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

async function seedOnFirstBoot(db: Database, config: Config) {
  const seeded = await seedDemoStore(db.prisma);
  if (!seeded.created) return;
  const base = `http://localhost:${config.port}`;
  // Printed once, to the terminal only: the secret exists nowhere else.
  process.stdout.write(
    [
      '',
      'Demo store created (PRO plan).',
      `  Owner login:  ${seeded.ownerEmail} / ${seeded.ownerPassword}`,
      `  Demo API key (every scope; shown once, save it now): ${seeded.apiKey}`,
      `  Try: curl -H 'tt-api-key: ${seeded.apiKey}' ${base}/api/v1/category`,
      '',
    ].join('\n'),
  );
}

function parseRole(value: string | undefined): Role {
  if (value === undefined || value === 'all') return 'all';
  if (value === 'api' || value === 'worker') return value;
  throw new ConfigError(`Unknown role "${value}": use api, worker or nothing for both`);
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
