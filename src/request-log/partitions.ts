import type { Db } from '../db/client';

/**
 * The request log's day partitions (prisma/migrations/20261126060000_request_log): one table per UTC
 * day in the `request_log` schema, `day_YYYYMMDD`, plus `day_default` for a day with none yet.
 */
const DAY_MS = 86_400_000;
const NAME = /^day_(\d{4})(\d{2})(\d{2})$/;

const dayStart = (date: Date) => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);
const dayName = (day: Date) => `day_${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
const sqlTimestamp = (day: Date) => day.toISOString().slice(0, 23).replace('T', ' ');

/** The days that have a partition, by name → first instant. */
export async function partitionDays(db: Db): Promise<Map<string, Date>> {
  const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = '"RequestLogEntry"'::regclass`,
  );
  const days = new Map<string, Date>();
  for (const { name } of rows) {
    const match = NAME.exec(name);
    if (match) days.set(name, new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`));
  }
  return days;
}

/**
 * Makes the partitions of `from`'s day and the `ahead` days after it that are missing. A day whose
 * rows already went to the default partition keeps them there (PostgreSQL refuses the new
 * partition); prune still deletes them by time. Returns the days made.
 */
export async function ensurePartitions(db: Db, from: Date, ahead: number): Promise<string[]> {
  const existing = await partitionDays(db);
  const made: string[] = [];
  for (let i = 0; i <= ahead; i++) {
    const day = new Date(dayStart(from).getTime() + i * DAY_MS);
    const name = dayName(day);
    if (existing.has(name)) continue;
    try {
      await db.$executeRawUnsafe(
        `CREATE TABLE request_log.${name} PARTITION OF "RequestLogEntry"
           FOR VALUES FROM ('${sqlTimestamp(day)}') TO ('${sqlTimestamp(new Date(day.getTime() + DAY_MS))}')`,
      );
      made.push(name);
    } catch (error) {
      // Another worker made it meanwhile, or the default partition holds rows of that day.
      if (!/already exists|would be violated/.test(String(error))) throw error;
    }
  }
  return made;
}

/**
 * Drops the partitions of days wholly before `cutoff` and deletes the default partition's rows
 * before it: an entry is kept at least until `cutoff`, at most a day longer. Returns the days dropped.
 */
export async function dropPartitionsBefore(
  db: Db,
  cutoff: Date,
): Promise<{ dropped: string[]; deleted: number }> {
  const dropped: string[] = [];
  for (const [name, day] of await partitionDays(db)) {
    if (day.getTime() + DAY_MS > cutoff.getTime()) continue;
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS request_log.${name}`);
    dropped.push(name);
  }
  const deleted = await db.$executeRawUnsafe(
    `DELETE FROM request_log.day_default WHERE "at" < $1::timestamp(3)`,
    sqlTimestamp(cutoff),
  );
  return { dropped, deleted };
}
