import type { Db } from '../db/client';

/**
 * The request log's partitions (README "Request log", prisma/migrations/…_request_log_hours): one
 * table per UTC hour in the `request_log` schema, `hour_YYYYMMDDHH`, plus `day_default` for an hour
 * with none yet (and the `day_YYYYMMDD` tables of the days before partitions were hourly, until
 * retention drops them).
 *
 * An hour's partition is written with its primary key (storeId, at, id) alone; when the hour has
 * ended, `sealPartitions` builds the three secondary indexes on it in one sorted pass each. An entry
 * written thus maintains one B-tree instead of four — what the log costs each request — and a
 * store's current hour is read through the primary key (its time range, filtered). The parent table
 * has no secondary index: PostgreSQL gives a new partition every index of its parent, even one
 * created `ON ONLY` the parent.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const HOUR = /^hour_(\d{4})(\d{2})(\d{2})(\d{2})$/;
const DAY = /^day_(\d{4})(\d{2})(\d{2})$/;
export const DEFAULT_PARTITION = 'day_default';

/** What a sealed partition has beside its primary key, by the suffix of the index's name. */
export const SEALED_INDEXES = {
  key: '("storeId", "keyId", "at" DESC, "id" DESC)',
  request_id: '("storeId", "requestId")',
  status: '("storeId", "status", "at" DESC)',
} as const;

export interface Partition {
  name: string;
  /** Its first instant and the first after it. */
  from: Date;
  to: Date;
}

export const hourStart = (date: Date) => new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS);
const hourName = (hour: Date) => `hour_${hour.toISOString().slice(0, 13).replace(/\D/g, '')}`;
const sqlTimestamp = (date: Date) => date.toISOString().slice(0, 23).replace('T', ' ');

function rangeOf(name: string): { from: Date; to: Date } | null {
  const hour = HOUR.exec(name);
  if (hour) {
    const from = new Date(`${hour[1]}-${hour[2]}-${hour[3]}T${hour[4]}:00:00Z`);
    return { from, to: new Date(from.getTime() + HOUR_MS) };
  }
  const day = DAY.exec(name);
  if (day) {
    const from = new Date(`${day[1]}-${day[2]}-${day[3]}T00:00:00Z`);
    return { from, to: new Date(from.getTime() + DAY_MS) };
  }
  return null;
}

/** The partitions of a time range, oldest first (the default partition is not among them). */
export async function listPartitions(db: Db): Promise<Partition[]> {
  const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = '"RequestLogEntry"'::regclass`,
  );
  return rows
    .flatMap(({ name }) => {
      const range = rangeOf(name);
      return range ? [{ name, ...range }] : [];
    })
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Makes the partitions of `from`'s hour and the `ahead` hours after it that no partition covers yet.
 * An hour whose rows already went to the default partition keeps them there (PostgreSQL refuses the
 * new partition); retention still deletes them by time. Returns the partitions made.
 */
export async function ensurePartitions(db: Db, from: Date, ahead: number): Promise<string[]> {
  const existing = await listPartitions(db);
  const covered = (hour: Date) =>
    existing.some((p) => p.from.getTime() <= hour.getTime() && hour.getTime() < p.to.getTime());
  const made: string[] = [];
  for (let i = 0; i <= ahead; i++) {
    const hour = new Date(hourStart(from).getTime() + i * HOUR_MS);
    if (covered(hour)) continue;
    const name = hourName(hour);
    try {
      await db.$executeRawUnsafe(
        `CREATE TABLE request_log.${name} PARTITION OF "RequestLogEntry"
           FOR VALUES FROM ('${sqlTimestamp(hour)}') TO ('${sqlTimestamp(new Date(hour.getTime() + HOUR_MS))}')`,
      );
      made.push(name);
    } catch (error) {
      // Another worker made it meanwhile, or the default partition holds rows of that hour.
      if (!/already exists|would be violated/.test(String(error))) throw error;
    }
  }
  return made;
}

/**
 * Builds the secondary indexes (SEALED_INDEXES) that the partitions ended by `before`, and the
 * default partition, do not have yet. A plain CREATE INDEX: it blocks writes to that one partition
 * while it runs, and nothing writes to an hour that has ended (the job leaves a few minutes for the
 * last batches). Returns the partitions sealed.
 */
export async function sealPartitions(db: Db, before: Date): Promise<string[]> {
  const names = [
    DEFAULT_PARTITION,
    ...(await listPartitions(db)).filter((p) => p.to.getTime() <= before.getTime()).map((p) => p.name),
  ];
  const rows = await db.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'request_log'`,
  );
  const built = new Set(rows.map((row) => row.name));
  const sealed: string[] = [];
  for (const name of names) {
    const missing = Object.entries(SEALED_INDEXES).filter(([suffix]) => !built.has(`${name}_${suffix}`));
    for (const [suffix, columns] of missing)
      await db.$executeRawUnsafe(
        `CREATE INDEX IF NOT EXISTS ${name}_${suffix} ON request_log.${name} ${columns}`,
      );
    if (missing.length > 0) sealed.push(name);
  }
  return sealed;
}

/**
 * Drops the partitions wholly before `cutoff` and deletes the default partition's rows before it:
 * an entry is kept at least until `cutoff`, at most an hour longer. Returns the partitions dropped.
 */
export async function dropPartitionsBefore(
  db: Db,
  cutoff: Date,
): Promise<{ dropped: string[]; deleted: number }> {
  const dropped: string[] = [];
  for (const { name, to } of await listPartitions(db)) {
    if (to.getTime() > cutoff.getTime()) continue;
    await db.$executeRawUnsafe(`DROP TABLE IF EXISTS request_log.${name}`);
    dropped.push(name);
  }
  const deleted = await db.$executeRawUnsafe(
    `DELETE FROM request_log.${DEFAULT_PARTITION} WHERE "at" < $1::timestamp(3)`,
    sqlTimestamp(cutoff),
  );
  return { dropped, deleted };
}
