import cluster from 'node:cluster';
import type { Server } from 'node:http';
import path from 'node:path';
import express from 'express';
import type { Runner } from 'graphile-worker';
import type { Logger } from 'pino';
import { startWorker, surviveLostJobReports, webhookWorkerOptions } from '../jobs/worker';
import { type SeedResult, seedDemoStore } from '../prisma/seed/demo-store';
import { type ApiProcesses, startApiProcesses } from './api-processes';
import { createApp } from './app';
import { banner } from './banner';
import { type Config, ConfigError, configWarnings, loadConfig } from './config';
import { watchAvailability } from './db/availability';
import { connectDatabase, type Database, workerPoolSize } from './db/client';
import { describeDatabaseError } from './db/connection-errors';
import { startEmbeddedPostgres } from './db/embedded';
import { migrate } from './db/migrate';
import { readEnvFile } from './env-file';
import { apiHeaders } from './http/api-headers';
import { healthRouter } from './http/health';
import { listen } from './http/server';
import { createLogger, terminalLogDestination } from './logger';
import type { RedisClient } from './redis';
import { connectRedis } from './redis';
import { createRuntime } from './runtime';

type Role = 'all' | 'api' | 'worker';

/** What start-up has reached, to name the cause of a failure. */
interface Progress {
  databaseUrl?: string;
}

/**
 * Process entry. `all` (npm start): API and worker in one process, migrating first, and with no
 * DATABASE_URL an embedded PostgreSQL seeded with a demo store. `api` / `worker`: one role each.
 * Settings come from the environment, then `.env` (src/env-file.ts).
 */
async function main() {
  const envFile = readEnvFile();
  // An API process of API_PROCESSES (src/api-processes.ts) is `api`, whatever the primary runs.
  const role = cluster.isWorker ? 'api' : parseRole(process.argv[2]);
  const config = loadConfig();
  const rootLogger = createLogger(config.logLevel, terminalLogDestination(config.env));
  // Several API processes write to one stream: each line says which.
  const logger = cluster.isWorker ? rootLogger.child({ pid: process.pid }) : rootLogger;
  if (envFile) logger.debug('settings read from %s (the environment wins)', envFile);
  const stops = new Stops(logger);
  const progress: Progress = {};
  const supervising = cluster.isPrimary && role !== 'worker' && config.apiProcesses > 1;
  let started: Started | null = null;
  let exitCode = 0;
  let processes: ApiProcesses | undefined;
  try {
    if (supervising) checkApiProcesses(role, config);
    // The primary of several API processes keeps what there is one of: the embedded PostgreSQL,
    // migrations and the demo seed, and the worker (`npm start`); `api` alone needs none of it.
    if (!supervising || role === 'all')
      started = await start(role, config, logger, stops, progress, !supervising);
    if (supervising) {
      const databaseUrl = progress.databaseUrl ?? (config.databaseUrl as string);
      processes = await startApiProcesses({
        count: config.apiProcesses,
        env: { DATABASE_URL: databaseUrl },
        logger,
      });
      const running = processes;
      stops.listener(async () => {
        if (!(await running.stop('SIGTERM'))) {
          exitCode = 1;
          logger.error('an API process did not stop cleanly');
        }
      });
      printBanner(config, role, databaseUrl, started);
    }
  } catch (error) {
    // Half-way through: whatever started stops again, the embedded PostgreSQL last.
    await stops.listeners();
    await stops.resources();
    reportStartupFailure(error, config, progress, logger);
    process.exit(1);
  }

  let stopping = false;
  // Ctrl-C signals the whole foreground group, so npm and the terminal may both deliver one: the
  // first starts the drain, later ones change nothing (the embedded PostgreSQL, in a group of its
  // own, gets none and is stopped last).
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.debug('%s received while stopping', signal);
      return;
    }
    stopping = true;
    logger.info('%s received: draining requests and jobs', signal);
    const deadline = setTimeout(() => {
      logger.error('shutdown took longer than %d ms; exiting', config.shutdownTimeoutMs);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    await stops.listeners();
    // Usage counted in this process (no Redis, or Redis down) must not be lost.
    const flushed = started
      ? await started.runtime.usage.flush(started.db.prisma).catch((error: unknown) => {
          logger.warn({ err: error }, 'final usage flush failed');
          return null;
        })
      : null;
    if (flushed) logger.info('usage counts of %d key(s) written to the database', flushed);
    await stops.resources();
    logger.info('stopped');
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  void processes?.failed.then(() => {
    exitCode = 1;
    void shutdown('an API process failing to start');
  });
}

type Started = Awaited<ReturnType<typeof start>>;

/** API_PROCESSES above 1 shares what must be shared between API processes through Redis. */
function checkApiProcesses(role: Role, config: Config): void {
  if (!config.redisUrl)
    throw new ConfigError(
      `API_PROCESSES=${config.apiProcesses} needs REDIS_URL: API processes share rate limits, usage counts and the read cache's versions through Redis (set REDIS_URL, or API_PROCESSES=1)`,
    );
  if (role === 'api' && !config.databaseUrl) throw new ConfigError('DATABASE_URL is required for `api`');
}

function printBanner(
  config: Config,
  role: Role,
  databaseUrl: string,
  started: { demo: SeedResult | null } | null,
): void {
  process.stdout.write(
    banner({
      config,
      role,
      embeddedDir: config.databaseUrl ? undefined : path.resolve(config.dataDir),
      databaseUrl,
      demo: started?.demo ?? null,
    }),
  );
}

/**
 * Starts the role in this process; `serveApi` false: the primary of several API processes, which
 * runs everything of its role but the HTTP server (and prints the banner once they listen).
 */
async function start(
  role: Role,
  config: Config,
  logger: Logger,
  stops: Stops,
  progress: Progress,
  serveApi = true,
) {
  for (const warning of configWarnings(config, { api: role !== 'worker' })) logger.warn(warning);
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
    stops.resource(() => embedded.stop());
    databaseUrl = embedded.url;
  }
  progress.databaseUrl = databaseUrl;
  // What needs a session (migrations' advisory lock, graphile-worker's LISTEN and locks) connects
  // directly; the API's requests through DATABASE_URL, which may be PgBouncer (README "Deploying at scale").
  const directUrl = config.databaseDirectUrl ?? databaseUrl;
  if (role === 'all') {
    const result = await migrate(directUrl, (line) => logger.info(line));
    logger.info('database schema up to date (%d applied now)', result.applied.length);
  }
  const apiUrl = role === 'worker' ? directUrl : databaseUrl;
  const pooled = apiUrl !== directUrl && config.databasePooled;
  const db = connectDatabase(apiUrl, {
    max: role === 'api' || apiUrl !== directUrl ? undefined : workerPoolSize(config.workerConcurrency),
    statementTimeoutMs: config.statementTimeoutMs,
    preparedStatements: !pooled,
    startupParameters: !pooled,
  });
  stops.resource(() => db.close());
  // A database refusing this process shows here, before anything listens.
  await db.pool.query('SELECT 1');
  const availability = watchAvailability(db.pool, logger);
  stops.resource(async () => availability.stop());
  let workerDb = db;
  let workerAvailability = availability;
  if (role === 'all' && directUrl !== apiUrl) {
    const direct = connectDatabase(directUrl, {
      max: workerPoolSize(config.workerConcurrency),
      statementTimeoutMs: config.statementTimeoutMs,
    });
    stops.resource(() => direct.close());
    await direct.pool.query('SELECT 1');
    workerDb = direct;
    workerAvailability = watchAvailability(direct.pool, logger);
    stops.resource(async () => workerAvailability.stop());
  }
  // The read replica is never waited for: down at start, reads go to the primary (one warning).
  const replica =
    config.replica && role !== 'worker'
      ? connectDatabase(config.replica.url, { statementTimeoutMs: config.statementTimeoutMs })
      : null;
  if (replica) stops.resource(() => replica.close());
  const demo =
    role === 'all' && (!config.databaseUrl || config.seedDemo) ? await seedOnFirstBoot(db, config) : null;

  let redis: RedisClient | null = null;
  if (config.redis) {
    redis = connectRedis(config.redis, logger, { commandTimeoutMs: config.redisTimeoutMs });
    const connection = redis;
    stops.resource(() => connection.quit().catch(() => connection.disconnect()));
  } else if (role !== 'worker') {
    logger.warn(
      'no REDIS_URL (nor REDIS_CLUSTER_NODES): rate limits and usage counts are kept in this process only',
    );
  }

  const runtime = createRuntime({
    config,
    prisma: db.prisma,
    redis,
    logger,
    replica: replica && config.replica ? { prisma: replica.prisma, maxLagMs: config.replica.maxLagMs } : null,
  });
  await runtime.start();
  stops.resource(() => runtime.stop());

  let server: Server | undefined;
  if (role !== 'worker' && serveApi) {
    const app = createApp({ config, redis, logger, runtime });
    server = await listen(app, config.port, config.host, config.http);
    const listening = server;
    stops.listener(() => closeServer(listening));
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
      stops.resource(async () => clearInterval(timer));
    }
  }
  let worker: Runner | undefined;
  if (role !== 'api') {
    surviveLostJobReports(workerAvailability);
    worker = await startWorker({
      pgPool: workerDb.pool,
      logger,
      concurrency: config.workerConcurrency,
      usageMeter: runtime.usage,
      prisma: workerDb.prisma,
      webhooks: webhookWorkerOptions(config, logger, {}, redis),
      requestLogRetentionDays: config.requestLog.retentionDays,
      availability: workerAvailability,
    });
    const running = worker;
    stops.listener(() => running.stop());
    logger.info('worker running (concurrency %d)', config.workerConcurrency);
    if (role === 'worker' && config.workerHealthPort !== undefined) {
      // The worker role's probes, for an orchestrator: the same checks as the API's.
      const probes = express()
        .disable('x-powered-by')
        .use(apiHeaders)
        .use(healthRouter({ prisma: db.prisma, redis }));
      const health = await listen(probes, config.workerHealthPort, config.host);
      stops.listener(() => closeServer(health));
      logger.info('worker health on http://%s:%d/healthz and /readyz', config.host, config.workerHealthPort);
    }
  }
  // Once, by the primary, when there are several API processes.
  if (serveApi && cluster.isPrimary) printBanner(config, role, databaseUrl, { demo });
  return { db, runtime, demo };
}

/**
 * What to stop, in two steps: the listeners (HTTP server, worker) drain first, together; then the
 * resources, newest first, so the embedded PostgreSQL (the first started) stops last. Each runs once.
 */
class Stops {
  private readonly drains: Array<() => Promise<unknown>> = [];
  private readonly closes: Array<() => Promise<unknown>> = [];
  constructor(private readonly logger: Logger) {}
  listener(stop: () => Promise<unknown>) {
    this.drains.push(stop);
  }
  resource(stop: () => Promise<unknown>) {
    this.closes.unshift(stop);
  }
  async listeners() {
    const drains = this.drains.splice(0);
    await Promise.all(drains.map((stop) => stop().catch((error) => this.warn(error))));
  }
  async resources() {
    for (const stop of this.closes.splice(0)) await stop().catch((error) => this.warn(error));
  }
  private warn(error: unknown) {
    this.logger.warn({ err: error }, 'error while stopping');
  }
}

/** Stops accepting connections, closes idle keep-alive sockets, and waits for requests in flight. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** The demo store on a database that has none yet; its key is printed this once. */
async function seedOnFirstBoot(db: Database, config: Config): Promise<SeedResult> {
  const seeded = await seedDemoStore(db.prisma);
  if (!seeded.created) return seeded;
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
  return seeded;
}

/**
 * One line naming the cause and the setting to change (the stack only with LOG_LEVEL=debug or trace),
 * on stderr, for a start that cannot finish: a port in use, a database that is away or refuses the
 * login, a migration that cannot apply, a bad setting.
 */
function reportStartupFailure(error: unknown, config: Config, progress: Progress, logger: Logger) {
  const line = startupFailure(error, config, progress);
  process.stderr.write(`Error: ${line}\n`);
  if (config.logLevel === 'debug' || config.logLevel === 'trace')
    logger.debug({ err: error }, 'start-up failed');
}

function startupFailure(error: unknown, config: Config, progress: Progress): string {
  if (error instanceof ConfigError) return error.message;
  const { code, syscall } = (error ?? {}) as { code?: string; syscall?: string };
  if (syscall === 'listen' && code === 'EADDRINUSE')
    return `Port ${config.port} on ${config.host} is already in use: stop the other process, or set PORT`;
  if (syscall === 'listen' && code === 'EACCES')
    return `Port ${config.port} needs privileges this process lacks: set PORT to 1024 or above`;
  if (syscall === 'listen' && code === 'EADDRNOTAVAIL')
    return `HOST ${config.host} is not an address of this machine: set HOST (0.0.0.0 listens on every address)`;
  const database = progress.databaseUrl && describeDatabaseError(error, progress.databaseUrl);
  if (database) return database;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

function parseRole(value: string | undefined): Role {
  if (value === undefined || value === 'all') return 'all';
  if (value === 'api' || value === 'worker') return value;
  throw new ConfigError(`Unknown role "${value}": use api, worker or nothing for both`);
}

main().catch((error) => {
  process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
