import { Client } from 'pg';
import { migrate } from '../src/db/migrate';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * Runs `body` against a freshly migrated database of its own, and drops that database afterwards
 * whether the benchmark succeeded or not.
 */
export async function withBenchDatabase<T>(
  label: string,
  body: (databaseUrl: string) => Promise<T>,
): Promise<T> {
  const name = `commerce_bench_${label}_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await migrate(url.toString());
    return await body(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}
