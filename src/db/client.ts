import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool } from 'pg';
import { PrismaClient } from '../../prisma/generated/client/client';
import { nameStatement } from './prepared-statements';

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface Database {
  prisma: PrismaClient;
  /** The pg pool shared by Prisma's adapter and graphile-worker. */
  pool: Pool;
  close(): Promise<void>;
}

interface ConnectOptions {
  max?: number;
  /** Called with the text of every SQL statement sent (query counting in tests and diagnostics). */
  onQuery?: (sql: string) => void;
  /** PostgreSQL ends any statement of this pool running longer (lock waits included); 0: never. */
  statementTimeoutMs?: number;
  /**
   * Named (prepared) statements for parameterised statements, parsed and planned once per connection
   * (src/db/prepared-statements.ts); default true. False behind PgBouncer in transaction mode
   * (`?pgbouncer=true`), whose next transaction may run on another server connection that does not
   * hold the name.
   */
  preparedStatements?: boolean;
  /**
   * False behind PgBouncer in transaction mode, which refuses startup parameters it does not know
   * (statement_timeout among them): the timeout is then PgBouncer's `connect_query` or the role's
   * setting (README "Deploying at scale").
   */
  startupParameters?: boolean;
  /**
   * Defaults for every interactive transaction of this client (Prisma's own: maxWait 2 s to get a
   * connection and start, timeout 5 s to finish). Tests on a loaded machine give more time
   * (test/helpers/server.ts); a call's own options (ORDER_TX_OPTIONS) still win.
   */
  transactionOptions?: { maxWait?: number; timeout?: number };
}

const DEFAULT_POOL_SIZE = 10;

/**
 * pg reports a connection lost mid-query ("Connection terminated unexpectedly", "… not queryable") or
 * while being opened as a plain Error without a code. Such an error is given the SQLSTATE of its kind
 * (08006 connection_failure, 08001 unable to connect), judged by where it happened — a client whose
 * connection failed, a connect — never by its text, so `isDatabaseUnavailable` (src/errors.ts) knows it.
 * An error that has a code keeps it.
 */
function nameConnectionFailure(error: unknown, code: '08001' | '08006'): unknown {
  if (error instanceof Error && (error as { code?: unknown }).code === undefined)
    Object.assign(error, { code });
  return error;
}

/**
 * A process that runs the worker holds at least one connection per concurrent job, as
 * graphile-worker asks (it warns at start-up otherwise).
 */
export const workerPoolSize = (concurrency: number) => Math.max(DEFAULT_POOL_SIZE, concurrency);

/**
 * The pool's client class: pg's Client, whose failures on a lost connection are named (see
 * nameConnectionFailure), whose statements `onQuery` sees, and whose parameterised statements are named
 * (prepared once per connection) unless `preparedStatements` is off. It calls pg's own query method as it is
 * at call time, so whatever wraps that method (a test counting statements) still sees every one.
 */
function poolClient(onQuery: ((sql: string) => void) | undefined, prepare: boolean): typeof Client {
  class PoolClient extends Client {
    /** Set by the pool's `connect` listener (connectDatabase) when the connection fails. */
    lost = false;
    /** The statement names this connection has been sent (bounded: src/db/prepared-statements.ts). */
    readonly prepared = new Set<string>();
  }
  const query = function (this: PoolClient, ...args: unknown[]) {
    const first = args[0];
    onQuery?.(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? ''));
    if (prepare) nameStatement(first, this.prepared);
    const send = () => (Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
    // pg fails the queries of a lost connection on the next tick, after the client's 'error' event.
    const named = (error: unknown) => (this.lost ? nameConnectionFailure(error, '08006') : error);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => callback(error ? named(error) : error, result);
      return send();
    }
    const result = send();
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          throw named(error);
        })
      : result;
  };
  (PoolClient.prototype as { query: unknown }).query = query;
  return PoolClient;
}

/** Errors opening a pooled connection (both of pg-pool's call styles) are connection failures. */
function nameFailedConnects(pool: Pool): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (callback?: (error: unknown, ...rest: unknown[]) => void) => {
    if (callback) {
      return connect((error: unknown, ...rest: unknown[]) =>
        callback(nameConnectionFailure(error, '08001'), ...rest),
      );
    }
    return (connect() as Promise<unknown>).catch((error: unknown) => {
      throw nameConnectionFailure(error, '08001');
    });
  };
}

/** The pg pool under each client connectDatabase made (see poolOf). */
const pools = new WeakMap<PrismaClient, Pool>();

/**
 * The pg pool a client of connectDatabase runs on, for the one bulk write that bypasses Prisma (the
 * request log's batches, src/request-log/recorder.ts: Prisma's handling of 13 arrays of 1,000
 * parameters cost more CPU than the rest of the write, bench/request-log-write.ts).
 */
export function poolOf(prisma: PrismaClient): Pool {
  const pool = pools.get(prisma);
  if (!pool) throw new Error('poolOf: this PrismaClient was not made by connectDatabase');
  return pool;
}

export function connectDatabase(databaseUrl: string, options: ConnectOptions = {}): Database {
  const pool = new Pool({
    connectionString: databaseUrl,
    max: options.max ?? DEFAULT_POOL_SIZE,
    Client: poolClient(options.onQuery, options.preparedStatements ?? true),
    ...(options.statementTimeoutMs && options.startupParameters !== false
      ? { statement_timeout: options.statementTimeoutMs }
      : {}),
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // Attached before pg-pool lends the client out, so an error is named before pg-pool hands the
    // same object to a pool.query caller.
    client.on('error', (error) => {
      (client as unknown as { lost: boolean }).lost = true;
      nameConnectionFailure(error, '08006');
    });
  });
  nameFailedConnects(pool);
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool),
    ...(options.transactionOptions ? { transactionOptions: options.transactionOptions } : {}),
  });
  pools.set(prisma, pool);
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
