import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { migrate, migrationsDir } from '../../src/db/migrate';
import { databaseUrl, runId, withAdmin } from '../helpers/databases';

/** src/db/migrate.ts against fresh, empty databases (not the migrated template). */

const migrationNames = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const BROKEN = '29990101000000_broken';

interface EmptyDatabase {
  url: string;
  query<T extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** An empty database with a unique name (the commerce_test_ prefix lets global teardown sweep leftovers). */
async function emptyDatabase(): Promise<EmptyDatabase> {
  const name = `commerce_test_${runId()}_migrate_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(name);
  return {
    url,
    async query(sql, params) {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () =>
      withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}

interface MigrationRow extends Record<string, unknown> {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

const recorded = (db: EmptyDatabase) =>
  db.query<MigrationRow>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name, started_at');

const tableExists = async (db: EmptyDatabase, table: string) =>
  (await db.query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [`public."${table}"`]))[0]!
    .oid !== null;

const addJobExists = async (db: EmptyDatabase) =>
  (
    await db.query(
      `SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'graphile_worker' AND p.proname = 'add_job'`,
    )
  ).length > 0;

/** A migrations directory holding copies of the real migrations plus `extra` ones. */
function migrationsCopy(extra: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  cpSync(migrationsDir, dir, { recursive: true });
  for (const [name, sql] of Object.entries(extra)) {
    mkdirSync(path.join(dir, name));
    writeFileSync(path.join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

let databases: EmptyDatabase[] = [];
let tempDirs: string[] = [];

async function fresh(): Promise<EmptyDatabase> {
  const db = await emptyDatabase();
  databases.push(db);
  return db;
}

afterEach(async () => {
  for (const db of databases) await db.drop();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  databases = [];
  tempDirs = [];
});

describe('migrate()', () => {
  test('there is at least one migration to apply', () => {
    expect(migrationNames.length).toBeGreaterThan(0);
    expect(migrationNames).toContain('20261122080000_init');
  });

  test('applies every migration and records it in Prisma’s _prisma_migrations format', async () => {
    const db = await fresh();
    const before = new Date();
    const result = await migrate(db.url);

    expect(result).toEqual({ applied: migrationNames, alreadyApplied: 0 });
    const rows = await recorded(db);
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    for (const row of rows) {
      const file = readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'));
      expect(row).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        checksum: createHash('sha256').update(file).digest('hex'),
        finished_at: expect.any(Date),
        migration_name: row.migration_name,
        logs: null,
        rolled_back_at: null,
        started_at: expect.any(Date),
        applied_steps_count: 1,
      });
      expect(row.finished_at!.getTime()).toBeGreaterThanOrEqual(row.started_at.getTime());
      expect(row.started_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 5_000);
    }

    // The table itself is the one Prisma Migrate creates.
    const columns = await db.query<{ column_name: string; data_type: string; is_nullable: string }>(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', is_nullable: 'NO' },
      { column_name: 'checksum', data_type: 'character varying', is_nullable: 'NO' },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', is_nullable: 'YES' },
      { column_name: 'migration_name', data_type: 'character varying', is_nullable: 'NO' },
      { column_name: 'logs', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', is_nullable: 'YES' },
      { column_name: 'started_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
      { column_name: 'applied_steps_count', data_type: 'integer', is_nullable: 'NO' },
    ]);

    // The data model and graphile-worker's schema (the outbox calls graphile_worker.add_job) exist.
    expect(await tableExists(db, 'Store')).toBe(true);
    expect(await addJobExists(db)).toBe(true);
  });

  test('a second run applies nothing and leaves the history alone', async () => {
    const db = await fresh();
    await migrate(db.url);
    const first = await recorded(db);

    const again = await migrate(db.url);

    expect(again).toEqual({ applied: [], alreadyApplied: migrationNames.length });
    expect(await recorded(db)).toEqual(first);
    expect(await addJobExists(db)).toBe(true);
  });

  test('two concurrent runs on a fresh database both succeed and apply each migration once', async () => {
    const db = await fresh();

    const results = await Promise.all([migrate(db.url), migrate(db.url)]);

    expect(results.flatMap((r) => r.applied).sort()).toEqual(migrationNames);
    // One run did everything; the other waited for the lock, then found nothing to do.
    expect(results.map((r) => r.applied.length).sort((a, b) => a - b)).toEqual([0, migrationNames.length]);
    const rows = await recorded(db);
    expect(rows.map((row) => row.migration_name)).toEqual(migrationNames);
    expect(rows.every((row) => row.finished_at !== null)).toBe(true);
    expect(await addJobExists(db)).toBe(true);
  });

  test('a failing migration is named, leaves none of its changes and no finished record', async () => {
    const db = await fresh();
    // Valid statements first, so a missing rollback would leave them behind; the failure is at run time.
    const dir = migrationsCopy({
      [BROKEN]: [
        'CREATE TABLE "BrokenPartial" ("id" TEXT PRIMARY KEY);',
        'ALTER TABLE "Store" ADD COLUMN "brokenColumn" TEXT;',
        'INSERT INTO "NoSuchTable" ("id") VALUES (1);',
        '',
      ].join('\n'),
    });
    tempDirs.push(dir);

    await expect(migrate(db.url, () => {}, dir)).rejects.toThrow(
      new RegExp(`Migration ${BROKEN} could not apply \\(.*"NoSuchTable"`),
    );

    expect(await tableExists(db, 'BrokenPartial')).toBe(false);
    const storeColumns = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'Store'`,
    );
    expect(storeColumns.map((c) => c.column_name)).not.toContain('brokenColumn');
    const rows = await recorded(db);
    expect(rows.filter((row) => row.migration_name === BROKEN && row.finished_at !== null)).toEqual([]);
    // The migrations before it were applied and recorded.
    expect(rows.filter((row) => row.finished_at !== null).map((row) => row.migration_name)).toEqual(
      migrationNames,
    );

    // The lock was released and nothing is stuck: the failure repeats the same way, and the real
    // migrations directory finishes the job.
    await expect(migrate(db.url, () => {}, dir)).rejects.toThrow(`Migration ${BROKEN} could not apply`);
    await expect(migrate(db.url)).resolves.toEqual({ applied: [], alreadyApplied: migrationNames.length });
    expect(await addJobExists(db)).toBe(true);
  });

  test('a migration with a syntax error fails with its name and changes nothing', async () => {
    const db = await fresh();
    const dir = migrationsCopy({
      [BROKEN]: 'CREATE TABLE "BrokenPartial" ("id" TEXT PRIMARY KEY);\nTHIS IS NOT SQL;\n',
    });
    tempDirs.push(dir);

    await expect(migrate(db.url, () => {}, dir)).rejects.toThrow(
      new RegExp(`Migration ${BROKEN} could not apply \\(syntax error`),
    );

    expect(await tableExists(db, 'BrokenPartial')).toBe(false);
    expect((await recorded(db)).map((row) => row.migration_name)).toEqual(migrationNames);
  });

  test('warns when an applied migration was edited afterwards', async () => {
    const db = await fresh();
    const dir = migrationsCopy({});
    tempDirs.push(dir);
    await migrate(db.url, () => {}, dir);
    const file = path.join(dir, migrationNames[0]!, 'migration.sql');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n-- edited\n`);
    const lines: string[] = [];

    const result = await migrate(db.url, (line) => lines.push(line), dir);

    expect(result.applied).toEqual([]);
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`${migrationNames[0]} was edited after it was applied`)),
    ]);
  });
});
