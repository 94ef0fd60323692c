import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { PrismaClient } from '../prisma/generated/client/client';

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
}

const DEFAULT_POOL_SIZE = 10;

/**
 * A process that runs the worker holds at least one connection per concurrent job, as
 * graphile-worker asks (it warns at start-up otherwise).
 */
export const workerPoolSize = (concurrency: number) => Math.max(DEFAULT_POOL_SIZE, concurrency);

export function connectDatabase(databaseUrl: string, options: ConnectOptions = {}): Database {
  const pool = new Pool({ connectionString: databaseUrl, max: options.max ?? DEFAULT_POOL_SIZE });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
    const onQuery = options.onQuery;
    if (onQuery) {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const first = args[0];
        onQuery(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? ''));
        return query(...args);
      };
    }
  });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
