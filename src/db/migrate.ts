import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runMigrations } from 'graphile-worker';
import { Client } from 'pg';
import { projectRoot } from '../paths';

export const migrationsDir = path.join(projectRoot, 'prisma', 'migrations');

/** Arbitrary but fixed: every process that migrates this database takes the same lock. */
const MIGRATION_LOCK_ID = 72_707_369;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = migrationsDir): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

// The table exactly as Prisma Migrate creates it, so `prisma migrate status` reads our history.
const createMigrationsTable = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"              VARCHAR(64) NOT NULL,
  "finished_at"           TIMESTAMPTZ,
  "migration_name"        VARCHAR(255) NOT NULL,
  "logs"                  TEXT,
  "rolled_back_at"        TIMESTAMPTZ,
  "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies pending migrations in order, each in its own transaction, under an advisory lock so that
 * two processes never migrate at once (the second waits, then finds nothing to do). Also installs
 * graphile-worker's schema, which the transactional outbox (graphile_worker.add_job) needs.
 */
export async function migrate(
  databaseUrl: string,
  log: (message: string) => void = () => {},
  dir = migrationsDir,
): Promise<MigrationResult> {
  const migrations = readMigrations(dir);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(createMigrationsTable);
    const { rows } = await client.query<{
      migration_name: string;
      checksum: string;
      finished_at: Date | null;
    }>('SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL');
    const recorded = new Map(rows.map((row) => [row.migration_name, row]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = recorded.get(migration.name);
      if (previous?.finished_at) {
        if (previous.checksum !== migration.checksum) {
          log(`warning: migration ${migration.name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      if (previous) {
        throw new Error(
          `Migration ${migration.name} failed earlier and is recorded as unfinished; resolve it by hand, then mark it rolled back.`,
        );
      }
      await applyOne(client, migration);
      applied.push(migration.name);
      log(`applied migration ${migration.name}`);
    }
    await runMigrations({ connectionString: databaseUrl });
    return { applied, alreadyApplied: migrations.length - applied.length };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    await client.end();
  }
}

async function applyOne(client: Client, migration: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(migration.sql);
    // now() is the transaction's start, when the migration began; clock_timestamp() is when it finished.
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count, started_at)
       VALUES ($1, $2, clock_timestamp(), $3, 1, now())`,
      [id, migration.checksum, migration.name],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw new Error(
      `Migration ${migration.name} could not apply (${(error as Error).message}); none of it was kept (each migration is one transaction): fix the database or the migration and start again`,
    );
  }
}
