import { AuthInvalidation } from '../auth/invalidation';
import { ConfigError, loadConfig } from '../config';
import { connectDatabase, type Db } from '../db/client';
import { type CommandDatabase, commandDatabase } from '../db/command-database';
import { describeDatabaseError } from '../db/connection-errors';
import { readEnvFile } from '../env-file';
import { createLogger } from '../logger';
import { DataVersions, versionKeyPrefix } from '../read-cache/data-version';
import { connectRedis, REDIS_KEY_PREFIX } from '../redis';
import { webhookServicesFrom } from '../webhook-delivery/services';
import { runCli } from './run';

export { type CliIo, runCli } from './run';

/**
 * `npm run cli -- <command> …`: finds the database (DATABASE_URL, else the embedded one `npm start`
 * runs), runs one command, closes. Help and usage errors work without a database; a database that
 * cannot be used is one line saying what to do (src/db/connection-errors.ts) and exit status 1.
 */
async function main(): Promise<number> {
  readEnvFile();
  const config = loadConfig();
  let target: CommandDatabase | ConfigError;
  try {
    target = await commandDatabase(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    target = error;
  }
  const database = target instanceof ConfigError ? null : connectDatabase(target.url, { max: 2 });
  const logger = createLogger('warn');
  const redis = config.redis
    ? connectRedis(config.redis, logger, { commandTimeoutMs: config.redisTimeoutMs })
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
      db: database?.prisma ?? missingDatabase(target as ConfigError),
      invalidateAuth: (invalidated) => invalidation.publish(invalidated),
      storeChanged: versions ? async (storeId) => void (await versions.bump(storeId)) : undefined,
      databaseProblem: (error) =>
        target instanceof ConfigError ? null : describeDatabaseError(error, target.url, target.embeddedDir),
      out: (text) => process.stdout.write(`${text}\n`),
      err: (text) => process.stderr.write(`${text}\n`),
      webhooks: webhookServicesFrom(config),
      interrupted: () =>
        new Promise((resolve) => {
          process.once('SIGINT', () => resolve());
          process.once('SIGTERM', () => resolve());
        }),
    });
  } finally {
    redis?.disconnect();
    await database?.close();
  }
}

/** Stands in for the client when there is no database to use; any use is that configuration error. */
function missingDatabase(reason: ConfigError): Db {
  return new Proxy({} as Db, {
    get() {
      throw reason;
    },
  });
}

if (require.main === module) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
