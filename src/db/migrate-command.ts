import { loadConfig } from '../config';
import { migrate } from './migrate';

// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL.
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error('DATABASE_URL is not set. (`npm start` migrates its embedded database by itself.)');
    process.exit(1);
  }
  const result = await migrate(config.databaseUrl, (line) => console.log(line));
  console.log(`${result.applied.length} migration(s) applied, ${result.alreadyApplied} already applied.`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
