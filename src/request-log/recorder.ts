import type { Request, Response } from 'express';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { type Db, poolOf } from '../db/client';
import { COLUMN_TYPES, loggedPrincipal, RequestLogBatch, type RequestLogRow, recordRequest } from './entry';

/**
 * The request log's writer (README "Request log"): each finished authenticated request becomes a
 * row in this process's buffer, and the buffer is written in batches — one multi-row INSERT every
 * `flushMs`, or as soon as `batchSize` rows wait — never awaited by a request. The batch goes
 * straight to the API's pg pool, one array per column, and commits without waiting for its WAL
 * flush (a crash may lose the last second of entries). A full buffer (the
 * database slow or away) drops the new row and counts it (`request_log_dropped_total`), never
 * blocks; a batch the database refused is dropped and counted too. stop() writes what is left.
 */
export interface RequestLog {
  readonly enabled: boolean;
  record(req: Request, res: Response, durationMs: number): void;
  /** Writes what waits now (the timer does it otherwise); resolves with the rows written. */
  flush(): Promise<number>;
  /** Rows dropped since start: buffer full, or their batch refused. */
  dropped(): number;
  /** Rows waiting for their write. */
  waiting(): number;
  start(): void;
  stop(): Promise<void>;
}

export interface RequestLogOptions {
  enabled: boolean;
  /** Rows held at most; past it new rows are dropped and counted. */
  bufferMax: number;
  flushMs: number;
  /** Rows per INSERT; a buffer this full is written without waiting for the timer. */
  batchSize?: number;
  now: () => Date;
  logger: Logger;
}

/** The log's columns, quoted, in the batch's order. */
export const COLUMN_LIST = Object.keys(COLUMN_TYPES)
  .map((column) => `"${column}"`)
  .join(', ');

/** One INSERT of a batch into `table`, whatever its size: unnest of one typed array per column. */
export const unnestInsert = (table: string) =>
  `INSERT INTO ${table} (${COLUMN_LIST}) SELECT * FROM unnest(${Object.values(COLUMN_TYPES)
    .map((type, i) => `$${i + 1}::${type}[]`)
    .join(', ')})`;

// One statement whatever the batch's size, so PostgreSQL parses and plans it once per connection (a
// named statement: src/db/prepared-statements.ts). The one-time filter sets synchronous_commit off
// for this statement's own transaction only (an InitPlan runs once): the commit does not wait for
// its WAL to reach the disk, so a crash of PostgreSQL may lose the last batches of entries, never the
// API's own data (README "Request log", durability).
const INSERT = `${unnestInsert('"RequestLogEntry"')}
   WHERE (SELECT set_config('synchronous_commit', 'off', true)) = 'off'`;

/** Writes one batch: one statement on `pool` (a connection of the API's own pool). */
export async function writeBatch(pool: Pool, batch: RequestLogBatch | RequestLogRow[]): Promise<void> {
  const columns = Array.isArray(batch) ? RequestLogBatch.of(batch) : batch;
  await pool.query(INSERT, columns.parameters());
}

export function createRequestLog(db: Db, options: RequestLogOptions): RequestLog {
  const batchSize = options.batchSize ?? 1000;
  // Not Prisma's $executeRawUnsafe: its handling of 13 arrays of 1,000 parameters cost the API
  // process more CPU than everything else of the write (bench/request-log-write.ts).
  const pool = poolOf(db);
  const buffer = new RequestLogBatch();
  let dropped = 0;
  let droppedSinceWarning = 0;
  let writing: Promise<number> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let soon = false;

  const write = async (batch: RequestLogBatch): Promise<number> => {
    try {
      await writeBatch(pool, batch);
      return batch.length;
    } catch (error) {
      dropped += batch.length;
      options.logger.warn({ err: error, rows: batch.length }, 'request log batch not written; dropped');
      return 0;
    }
  };

  /**
   * Writes in batches of `batchSize`, one statement at a time; a call while one runs waits for it,
   * then writes. `all`: everything that waits when it starts (the timer, stop); either way, then
   * whole batches for as long as they fill. Entries that come in during a write wait for a whole
   * batch or the next tick: writing them as they came (draining to the last entry after every write)
   * made a busy process send a small statement after each one, some hundreds a second, each with its
   * own commit.
   */
  const drain = async (all: boolean): Promise<number> => {
    while (writing) await writing;
    let due = all ? buffer.length : 0;
    const next = () => (due > 0 ? Math.min(due, batchSize) : buffer.length >= batchSize ? batchSize : 0);
    if (next() === 0) return 0;
    const run = (async () => {
      let written = 0;
      for (let count = next(); count > 0; count = next()) {
        due = Math.max(0, due - count);
        written += await write(buffer.take(count));
      }
      return written;
    })();
    writing = run;
    try {
      return await run;
    } finally {
      writing = null;
      if (droppedSinceWarning > 0) {
        options.logger.warn(
          { dropped: droppedSinceWarning, bufferMax: options.bufferMax },
          'request log buffer full: entries dropped',
        );
        droppedSinceWarning = 0;
      }
    }
  };

  const flush = () => drain(true);

  const flushSoon = () => {
    if (soon) return;
    soon = true;
    setImmediate(() => {
      soon = false;
      // A write under way takes the next whole batch itself when it ends.
      if (!writing) void drain(false);
    });
  };

  return {
    enabled: options.enabled,
    record(req, res, durationMs) {
      if (!options.enabled) return;
      const principal = loggedPrincipal(req);
      if (!principal) return;
      if (buffer.length >= options.bufferMax) {
        dropped++;
        droppedSinceWarning++;
        return;
      }
      recordRequest(buffer, req, res, principal, durationMs, options.now().getTime());
      if (buffer.length >= batchSize) flushSoon();
    },
    flush,
    dropped: () => dropped,
    waiting: () => buffer.length,
    start() {
      if (!options.enabled || timer) return;
      timer = setInterval(() => {
        if (!writing && buffer.length > 0) void flush();
      }, options.flushMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      // Everything, even what a last request added during the write.
      while (buffer.length > 0) await flush();
    },
  };
}
