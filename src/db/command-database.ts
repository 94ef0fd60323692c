import path from 'node:path';
import { type Config, ConfigError } from '../config';
import { embeddedDatabaseUrl } from './embedded';

export interface CommandDatabase {
  url: string;
  /** Set when it is the embedded database `npm start` runs (errors then say to start the service). */
  embeddedDir?: string;
}

/**
 * The database of a command run beside the service (admin CLI, migrations, seed): DATABASE_URL, or
 * without it the embedded one `npm start` runs under DATA_DIR on EMBEDDED_PG_PORT, the same
 * settings the server uses. DATABASE_DIRECT_URL, when set, wins over DATABASE_URL.
 */
export async function commandDatabase(config: Config): Promise<CommandDatabase> {
  // A command holds a session of its own (the migrations' advisory lock): past PgBouncer, directly.
  if (config.databaseDirectUrl) return { url: config.databaseDirectUrl };
  const found = await embeddedDatabaseUrl(config.dataDir, config.embeddedPgPort);
  if ('missing' in found) throw new ConfigError(found.missing);
  return { url: found.url, embeddedDir: path.resolve(config.dataDir) };
}
