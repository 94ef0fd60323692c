import { loadConfig } from '../config';
import { readEnvFile } from '../env-file';
import { commandDatabase } from './command-database';
import { describeDatabaseError } from './connection-errors';
import { migrate } from './migrate';

// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (unset: the embedded database
// `npm start` runs, which it also migrates by itself).
async function main() {
  readEnvFile();
  const database = await commandDatabase(loadConfig());
  try {
    const result = await migrate(database.url, (line) => console.log(line));
    console.log(`${result.applied.length} migration(s) applied, ${result.alreadyApplied} already applied.`);
  } catch (error) {
    const line = describeDatabaseError(error, database.url, database.embeddedDir);
    if (line) throw new Error(line);
    throw error;
  }
}

main().catch((error) => {
  console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
