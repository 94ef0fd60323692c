import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** The server the tests use; PostgreSQL on its default local port unless TEST_DATABASE_URL says otherwise. */
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Each jest run names its databases `commerce_test_<run>_…` (run = the jest main process id, set by
 * global-setup), so two runs on one server never drop each other's databases.
 */
export const runId = () => process.env.COMMERCE_TEST_RUN ?? String(process.pid);
export const templateDb = () => `commerce_test_${runId()}_template`;

/** Drops this run's databases, and those of runs whose process is gone. */
export async function dropTestDatabases(which: 'this run' | 'dead runs') {
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 'commerce\\_test\\_%'",
    );
    for (const { datname } of rows) {
      const owner = datname.split('_')[2] ?? '';
      const drop = which === 'this run' ? owner === runId() : !isAlive(Number(owner));
      if (drop) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  });
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template: fast, and isolated per test file. */
export async function createDatabaseFromTemplate(): Promise<{
  name: string;
  url: string;
  drop(): Promise<void>;
}> {
  const name = `commerce_test_${runId()}_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDb()}"`));
  return {
    name,
    url: databaseUrl(name),
    drop: () =>
      withAdmin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
