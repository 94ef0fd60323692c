import { finished } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Logger } from 'pino';
import { type Db, poolOf } from '../db/client';
import { COLUMN_TYPES, loggedPrincipal, RequestLogBatch, type RequestLogRow, recordRequest } from './entry';

/**
 * The request log's writer (README "Request log"): each finished authenticated request becomes a
 * row in this process's buffer, and the buffer is written in batches — one COPY every `flushMs`,
 * or as soon as `batchSize` rows wait — never awaited by a request. The batch goes straight to the
 * API's pg pool as COPY text, and commits without waiting for its WAL flush (a crash may lose the
 * last second of entries). A full buffer (the database slow or away) drops the new row and counts
 * it (`request_log_dropped_total`), never blocks; a batch the database refused is dropped and
 * counted too. stop() writes what is left.
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

/**
 * Entries a COPY holds at most: a second of a busy process's requests. Against 1,000, two same-run
 * comparisons of 18 rounds kept 0.960 → 0.987 and 0.926 → 0.948 of a cached page's throughput
 * (bench/BASELINE.md, "The machine a quarter idle"); the cost bench's own runs do not resolve a
 * gain that small beyond their noise, and later A/A runs spread as far ("The cached page's bound"):
 * weak evidence for a harmless choice. 25,000 every 5 s gained nothing.
 */
const DEFAULT_BATCH_SIZE = 5000;

export interface RequestLogOptions {
  enabled: boolean;
  /** Rows held at most; past it new rows are dropped and counted. */
  bufferMax: number;
  flushMs: number;
  /** Rows per COPY; a buffer this full is written without waiting for the timer. */
  batchSize?: number;
  now: () => Date;
  logger: Logger;
}

/** The log's columns, quoted, in the batch's order. */
export const COLUMN_LIST = Object.keys(COLUMN_TYPES)
  .map((column) => `"${column}"`)
  .join(', ');

/** The COPY a batch is written with into `table` (a test or bench may name another of the same columns). */
export const copyInto = (table: string) => `COPY ${table} (${COLUMN_LIST}) FROM STDIN`;

/** A batch's transaction: its own, with synchronous_commit off; each text names the log (pg_stat_activity, tests). */
export const BATCH_BEGIN = 'BEGIN /* request log */; SET LOCAL synchronous_commit = off';
export const BATCH_COMMIT = 'COMMIT /* request log */';

/** Whether a statement is one of the request log's batch writes (which land in whichever request a test counts). */
export const isRequestLogWrite = (sql: string): boolean =>
  sql === BATCH_BEGIN || sql === BATCH_COMMIT || sql.startsWith('COPY "RequestLogEntry"');

/**
 * Writes one batch on a connection of `pool` (the API's own pool): COPY in a transaction of its own,
 * whose commit does not wait for its WAL to reach the disk (synchronous_commit off, for this
 * transaction only), so a crash of PostgreSQL may lose the last batches of entries, never the API's
 * own data (README "Request log", durability). Three round trips a batch; a connection whose COPY
 * failed is closed, not lent again mid-transaction.
 */
export async function writeBatch(
  pool: Pool,
  batch: RequestLogBatch | RequestLogRow[],
  table = '"RequestLogEntry"',
): Promise<void> {
  const text = (Array.isArray(batch) ? RequestLogBatch.of(batch) : batch).copyText();
  const client = await pool.connect();
  try {
    await client.query(BATCH_BEGIN);
    const copy = client.query(copyFrom(copyInto(table)));
    copy.end(text);
    await finished(copy);
    await client.query(BATCH_COMMIT);
    client.release();
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

export function createRequestLog(db: Db, options: RequestLogOptions): RequestLog {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  // Not through Prisma, which has no COPY (and whose handling of 13 arrays of 1,000 parameters cost
  // the API process more CPU than everything else of the write: bench/request-log-write.ts).
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
