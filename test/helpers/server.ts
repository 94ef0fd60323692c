import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { connectDatabase, type Database } from '../../src/db/client';
import { listen } from '../../src/http/server';
import { createLogger } from '../../src/logger';
import type { RedisClient } from '../../src/redis';
import { connectRedis } from '../../src/redis';
import { isRequestLogWrite } from '../../src/request-log/recorder';
import { createRuntime, type Runtime } from '../../src/runtime';
import { createDatabaseFromTemplate, redisUrl } from './databases';

/** Interactive transactions' defaults in tests: time to start under load, and to finish. */
export const TEST_TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

export interface TestServer {
  baseUrl: string;
  /** The settings the server runs with. */
  config: Config;
  databaseUrl: string;
  redisKeyPrefix: string;
  runtime: Runtime;
  db: Database;
  prisma: Database['prisma'];
  /** Moves the injected clock. */
  clock: { now: Date };
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** A request with an API key and, when given, a JSON body. */
  send(method: string, path: string, body: unknown, key?: string): Promise<Response>;
  graphql(query: string, variables?: Record<string, unknown>, key?: string): Promise<Response>;
  close(): Promise<void>;
}

/** A real HTTP server on a loopback port, over its own database cloned from the migrated template. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    logger?: Logger;
    /** Default: a connection to the test Redis with a key prefix of this server's own. null: no Redis. */
    redis?: RedisClient | null;
    /** Another server's database and Redis prefix: a second API process of the same deployment. */
    shareWith?: TestServer;
    /**
     * Sees every SQL statement the server's Prisma client sends for requests and jobs — all but the
     * request log's batched INSERT, which runs off the request path every second and would land in
     * whichever request a test is counting (test/request-log checks its rows).
     */
    onQuery?: (sql: string) => void;
  } = {},
): Promise<TestServer> {
  const shared = options.shareWith;
  const database = shared ? null : await createDatabaseFromTemplate();
  const databaseUrl = shared?.databaseUrl ?? (database?.url as string);
  // With the real test Redis, a loaded machine must not trip the 100 ms fallback and make counts
  // per-process: tests of exactness wait up to 2 s. Tests of a dead or stalled Redis keep 100 ms.
  const redisTimeout = options.redis === undefined ? { REDIS_TIMEOUT_MS: '2000' } : {};
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    ...redisTimeout,
    // Tests write rows straight into the database, behind the API's back, which the read cache cannot
    // see (by design: only mutations change a store's data). Its own tests switch it on.
    READ_CACHE_TTL_MS: '0',
    // Tests send many requests with one key in well under a minute; the budget is charged (its
    // headers are there) but never runs out. Its own tests set a small one.
    COST_BUDGET_POINTS: '1000000000',
    // Tests present unknown keys and tokens from 127.0.0.1 on purpose, well over 30 in a file; the
    // failures are counted but never block. Their own tests (test/auth/unknown-credentials) set a small limit.
    AUTH_FAILURES_PER_IP_MAX: '1000000',
    ...env,
  });
  const db = connectDatabase(databaseUrl, {
    max: 5,
    onQuery: options.onQuery && requestStatements(options.onQuery),
    statementTimeoutMs: config.statementTimeoutMs,
    // On a machine shared by two jest workers and more, opening a pooled connection for an interactive
    // transaction (sign-ins, store writes, set-ups) can take longer than Prisma's 2 s maxWait: "Unable
    // to start a transaction in the given time". What a test checks is the answer, not that speed.
    transactionOptions: TEST_TRANSACTION_OPTIONS,
  });
  const clock = shared?.clock ?? { now: new Date() };
  const logger = options.logger ?? createLogger('silent');
  const ownRedis =
    options.redis === undefined
      ? connectRedis(redisUrl, logger, { commandTimeoutMs: config.redisTimeoutMs })
      : null;
  const redis = options.redis === undefined ? ownRedis : options.redis;
  if (ownRedis && ownRedis.status !== 'ready')
    await new Promise((resolve) => ownRedis.once('ready', resolve));
  const redisKeyPrefix = shared?.redisKeyPrefix ?? `test:${randomBytes(6).toString('hex')}:`;
  const runtime = createRuntime({
    config,
    prisma: db.prisma,
    redis,
    logger,
    now: () => clock.now,
    redisKeyPrefix,
  });
  await runtime.start();
  const app = createApp({ config, redis, logger, runtime });
  const server = await listen(app, 0, '127.0.0.1', config.http);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const request = (path: string, init: RequestInit & { key?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.key !== undefined) headers.set('tt-api-key', init.key);
    return fetch(`${baseUrl}${path}`, { ...init, headers });
  };
  const send = (method: string, path: string, body: unknown, key?: string) =>
    request(path, {
      method,
      key,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  return {
    baseUrl,
    config,
    send,
    databaseUrl,
    redisKeyPrefix,
    runtime,
    db,
    prisma: db.prisma,
    clock,
    request,
    graphql: (query, variables, key) =>
      request('/graphql', {
        method: 'POST',
        key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.stop();
      if (ownRedis) {
        const keys = await ownRedis.keys(`${redisKeyPrefix}*`);
        if (keys.length > 0) await ownRedis.del(...keys);
        ownRedis.disconnect();
      }
      await db.close();
      await database?.drop();
    },
  };
}

/** The request log's batched write (its BEGIN, COPY and COMMIT) lands in whichever request a test happens to count. */
export { isRequestLogWrite };

const requestStatements =
  (onQuery: (sql: string) => void) =>
  (sql: string): void => {
    if (!isRequestLogWrite(sql)) onQuery(sql);
  };
