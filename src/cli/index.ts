import { AuthInvalidation } from '../auth/invalidation';
import { ConfigError, loadConfig } from '../config';
import { connectDatabase, type Db } from '../db';
import { createLogger } from '../logger';
import { DataVersions, versionKeyPrefix } from '../read-cache/data-version';
import { connectRedis, REDIS_KEY_PREFIX } from '../redis';
import { runCli } from './run';

export { type CliIo, runCli } from './run';

/**
 * `npm run cli -- <command> …`: connects to DATABASE_URL, runs one command, closes. Help and usage errors
 * work without a database; a command that needs one fails with a clear message when DATABASE_URL is unset.
 */
async function main(): Promise<number> {
  const config = loadConfig();
  const database = config.databaseUrl ? connectDatabase(config.databaseUrl, { max: 2 }) : null;
  const logger = createLogger('warn');
  const redis = config.redisUrl
    ? connectRedis(config.redisUrl, logger, { commandTimeoutMs: config.redisTimeoutMs })
    : null;
  const invalidation = new AuthInvalidation(redis, () => {}, logger);
  // The API processes' keys (src/runtime.ts): store writes from here replace the read cache's versions.
  const versions = redis
    ? new DataVersions(redis, {
        keyPrefix: versionKeyPrefix(REDIS_KEY_PREFIX),
        timeoutMs: config.redisTimeoutMs,
        logger,
      })
    : null;
  try {
    // Up to a second for Redis; without it, API processes still drop the store within their cache TTL.
    if (redis && redis.status !== 'ready') {
      await new Promise((resolve) => {
        redis.once('ready', resolve);
        setTimeout(resolve, 1000).unref();
      });
    }
    return await runCli(process.argv.slice(2), {
      db: database?.prisma ?? missingDatabase(),
      invalidateAuth: (target) => invalidation.publish(target),
      storeChanged: versions ? async (storeId) => void (await versions.bump(storeId)) : undefined,
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
    });
  } finally {
    redis?.disconnect();
    await database?.close();
  }
}

/** Stands in for the client when DATABASE_URL is unset; any use is the configuration error. */
function missingDatabase(): Db {
  return new Proxy({} as Db, {
    get() {
      throw new ConfigError('DATABASE_URL is not set: the CLI needs it to reach the database');
    },
  });
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
