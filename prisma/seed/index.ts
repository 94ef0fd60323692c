import { ConfigError, loadConfig } from '../../src/config';
import { connectDatabase } from '../../src/db';
import { DEMO_KEY_NAME, DEMO_STAFF, DEMO_STORE_NAME, seedDemoStore } from './demo-store';

// `npm run db:seed`: creates the demo store in DATABASE_URL once (it must be migrated: `npm run db:migrate`).
async function main() {
  const config = loadConfig();
  if (!config.databaseUrl) {
    console.error('DATABASE_URL is not set. (`npm start` without it seeds its embedded database by itself.)');
    process.exit(1);
  }
  const db = connectDatabase(config.databaseUrl, { max: 2 });
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
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
