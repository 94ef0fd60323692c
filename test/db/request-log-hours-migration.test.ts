import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { migrate, migrationsDir } from '../../src/db/migrate';
import { databaseUrl, runId, withAdmin } from '../helpers/databases';

/**
 * prisma/migrations/20261126150000_request_log_hours on a database that already holds entries in day
 * partitions (README "Request log", Storage): the days that hold entries stay, indexed per
 * partition; the empty days go; hours take over where the kept days end; no entry is lost.
 */
const HOURS = '20261126150000_request_log_hours';
const DAY = 86_400_000;

let name: string;
let client: Client;
let before: string;

beforeAll(async () => {
  name = `commerce_test_${runId()}_hours_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  // The migrations before the hour partitions, in a folder of their own.
  before = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  for (const migration of readdirSync(migrationsDir).filter((entry) => entry < HOURS && /^\d/.test(entry)))
    cpSync(path.join(migrationsDir, migration), path.join(before, migration), { recursive: true });
  await migrate(databaseUrl(name), () => {}, before);
  client = new Client({ connectionString: databaseUrl(name) });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  rmSync(before, { recursive: true, force: true });
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

const insert = (at: Date, requestId: string) =>
  client.query(
    `INSERT INTO "RequestLogEntry" ("at", "storeId", door, method, route, status, "durationMs", "requestId")
     VALUES ($1::timestamp, 'store_1', 'REST', 'GET', '/api/v1/category', 200, 1, $2)`,
    [at.toISOString().slice(0, 23), requestId],
  );

const partitionsOf = async () =>
  (
    await client.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = '"RequestLogEntry"'::regclass ORDER BY 1`,
    )
  ).rows.map((row) => row.name);

const indexesOf = async (table: string) =>
  (
    await client.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE tablename = $1 ORDER BY 1`,
      [table],
    )
  ).rows.map((row) => row.name);

const dayName = (date: Date) => `day_${date.toISOString().slice(0, 10).replaceAll('-', '')}`;

it('keeps the day partitions that hold entries, indexed, drops the empty ones and makes hours after them', async () => {
  const now = new Date();
  const yesterday = new Date(now.getTime() - DAY);
  await insert(now, 'req_today');
  await insert(yesterday, 'req_yesterday');
  const tomorrow = dayName(new Date(now.getTime() + DAY));
  expect(await partitionsOf()).toContain(tomorrow);

  await migrate(databaseUrl(name), () => {}, migrationsDir);

  const partitions = await partitionsOf();
  expect(partitions).toEqual(expect.arrayContaining([dayName(now), dayName(yesterday), 'day_default']));
  expect(partitions).not.toContain(tomorrow);
  expect(partitions.filter((partition) => partition.startsWith('day_2'))).toHaveLength(2);
  for (const day of [dayName(now), dayName(yesterday), 'day_default'])
    expect(await indexesOf(day)).toEqual([`${day}_key`, `${day}_pkey`, `${day}_request_id`, `${day}_status`]);
  expect(await indexesOf('RequestLogEntry')).toEqual(['RequestLogEntry_pkey']);

  // Hours take over where today ends, with their primary key alone; tomorrow's entries land in one.
  const firstHour = `hour_${new Date(Math.ceil(now.getTime() / DAY) * DAY).toISOString().slice(0, 13).replace(/\D/g, '')}`;
  expect(partitions).toContain(firstHour);
  expect(await indexesOf(firstHour)).toEqual([`${firstHour}_pkey`]);
  await insert(new Date(Math.ceil(now.getTime() / DAY) * DAY + 60_000), 'req_tomorrow');
  const { rows } = await client.query<{ requestId: string; partition: string }>(
    `SELECT "requestId", tableoid::regclass::text AS partition FROM "RequestLogEntry" ORDER BY "at"`,
  );
  expect(rows).toEqual([
    { requestId: 'req_yesterday', partition: `request_log.${dayName(yesterday)}` },
    { requestId: 'req_today', partition: `request_log.${dayName(now)}` },
    { requestId: 'req_tomorrow', partition: `request_log.${firstHour}` },
  ]);
});
