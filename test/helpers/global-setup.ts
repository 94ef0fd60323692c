import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { migrate } from '../../src/db/migrate';
import { adminUrl, databaseUrl, dropTestDatabases, redisUrl, templateDb, withAdmin } from './databases';

/** Checks that PostgreSQL and Redis are there, then migrates the template every test database is cloned from. */
export default async function globalSetup() {
  try {
    await withAdmin((client) => client.query('SELECT 1'));
  } catch (error) {
    throw new Error(
      `The tests need PostgreSQL at ${adminUrl} (set TEST_DATABASE_URL to use another): ${(error as Error).message}`,
    );
  }
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(
      `The tests need Redis at ${redisUrl} (set TEST_REDIS_URL to use another): ${(error as Error).message}`,
    );
  } finally {
    redis.disconnect();
  }
  process.env.COMMERCE_TEST_RUN = String(process.pid);
  // Names this run for what it builds once (buildService's stamp): a pid comes back in a later run.
  process.env.COMMERCE_TEST_BUILD = `${process.pid}-${randomBytes(6).toString('hex')}`;
  await dropTestDatabases('dead runs');
  await withAdmin((client) => client.query(`CREATE DATABASE "${templateDb()}"`));
  await migrate(databaseUrl(templateDb()));
}
