import { ConfigError, loadConfig } from '../../src/config';
import { connectDatabase } from '../../src/db/client';
import { commandDatabase } from '../../src/db/command-database';
import { describeDatabaseError } from '../../src/db/connection-errors';
import { readEnvFile } from '../../src/env-file';
import { DEMO_KEY_NAME, DEMO_STAFF, DEMO_STORE_NAME, seedDemoStore } from './demo-store';

// `npm run db:seed`: creates the demo store once in DATABASE_URL (unset: the embedded database
// `npm start` runs, which it seeds by itself on first boot). It must be migrated: `npm run db:migrate`.
async function main() {
  readEnvFile();
  const config = loadConfig();
  // The demo store's staff sign in with a published password (as SEED_DEMO, refused in production).
  if (config.isProduction)
    throw new ConfigError(
      'db:seed creates the demo store, whose staff sign in with the published password `demo-password`: not with NODE_ENV=production',
    );
  const database = await commandDatabase(config);
  const db = connectDatabase(database.url, { max: 2 });
  try {
    const started = Date.now();
    const result = await seedDemoStore(db.prisma);
    if (!result.created) {
      console.log(
        `The demo store already exists (${result.storeId}, owner ${result.ownerEmail}); nothing to do.`,
      );
      return;
    }
    // The key is printed once, here: only its hash is stored.
    console.log(
      [
        `Demo store "${DEMO_STORE_NAME}" created: ${result.storeId} (PRO plan, ${Date.now() - started} ms)`,
        `  Owner login:  ${result.ownerEmail} / ${result.ownerPassword}`,
        ...DEMO_STAFF.map(
          (staff) => `  ${staff.role.padEnd(5)} login:  ${staff.email} / ${result.ownerPassword}`,
        ),
        `  ${DEMO_KEY_NAME}, development; shown once, save it now:`,
        `  ${result.apiKey}`,
      ].join('\n'),
    );
  } catch (error) {
    const line = describeDatabaseError(error, database.url, database.embeddedDir);
    if (line) throw new ConfigError(line);
    throw error;
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? `Error: ${error.message}` : error);
  process.exit(1);
});
