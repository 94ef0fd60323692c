import type { Logger } from 'pino';
import type { PrismaClient } from '../../prisma/generated/client/client';
import type { StorePositions } from './store-positions';
import { walPosition } from './wal-position';

/** Where a store's reads run (README "Deploying at scale"): the one place that decides it. */
export interface ReadRouting {
  /** The client a read of the store runs on: the replica when it is up, near and has the store's writes. */
  readerFor(storeId: string): Promise<PrismaClient>;
  /** After a write of the store commits on the primary (before its read-cache version is replaced). */
  written(storeId: string): Promise<void>;
  /** A read on the replica failed for want of a connection: the replica is down until a poll reaches it. */
  replicaFailed(error: unknown): void;
  readonly primary: PrismaClient;
  start(): Promise<void>;
  stop(): void;
}

/** How often the replica's replay position and the primary's WAL position are read. */
const POLL_MS = 200;

/**
 * Reads go to the replica unless it is down, lags past `maxLagMs`, or has not replayed the store's
 * last write (the primary's WAL position after it, kept in StorePositions) — then to the primary, with
 * one warning when the replica leaves and one line when it comes back; never an error.
 *
 * Lag is measured in time from WAL positions: every poll notes the primary's position and when; the
 * replica's lag is the age of the newest noted position it has replayed.
 */
export function createReadRouting(options: {
  primary: PrismaClient;
  replica: PrismaClient;
  positions: StorePositions;
  maxLagMs: number;
  logger: Logger;
  pollMs?: number;
}): ReadRouting {
  const { primary, replica, positions, maxLagMs, logger } = options;
  const pollMs = options.pollMs ?? POLL_MS;
  /** The primary's positions noted at each poll, oldest first, back to the last the replica replayed. */
  let notes: Array<{ at: number; position: number }> = [];
  let replayed = -1;
  let caughtUpAt = 0;
  let reachable = false;
  let usable = false;
  /** Whether the last judgement was announced as "in use" (null: nothing said yet). */
  let announced: boolean | null = null;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const judge = (reason: string | null) => {
    usable = reason === null;
    if (announced !== false && !usable)
      logger.warn(`read replica not used: ${reason}; reads go to the primary`);
    if (announced === false && usable) logger.info('read replica in use again');
    announced = usable;
  };

  const poll = async () => {
    try {
      const [{ lsn: primaryLsn }] = await primary.$queryRaw<
        [{ lsn: string }]
      >`SELECT pg_current_wal_lsn()::text AS lsn`;
      notes.push({ at: Date.now(), position: walPosition(primaryLsn) });
    } catch {
      // The primary's own outage is watched elsewhere (src/db/availability.ts); reads fail there anyway.
    }
    try {
      const [{ lsn }] = await replica.$queryRaw<
        [{ lsn: string | null }]
      >`SELECT pg_last_wal_replay_lsn()::text AS lsn`;
      reachable = true;
      replayed = walPosition(lsn);
      const behind = notes.findIndex((note) => note.position > replayed);
      const caughtUp = behind === -1 ? notes.at(-1) : notes[behind - 1];
      if (caughtUp) caughtUpAt = caughtUp.at;
      notes = behind === -1 ? notes.slice(-1) : notes.slice(Math.max(0, behind - 1));
      positions.replayed(replayed);
      const lag = Date.now() - caughtUpAt;
      judge(lag > maxLagMs ? `it lags ${lag} ms behind the primary (REPLICA_MAX_LAG_MS ${maxLagMs})` : null);
    } catch (error) {
      reachable = false;
      judge(`unreachable (${reasonOf(error)})`);
    }
  };

  const loop = () => {
    if (stopped) return;
    timer = setTimeout(() => void poll().finally(loop), pollMs);
    timer.unref();
  };

  return {
    primary,
    async readerFor(storeId) {
      if (!usable) return primary;
      const needed = await positions.of(storeId);
      return needed !== null && needed <= replayed ? replica : primary;
    },
    async written(storeId) {
      try {
        const [{ lsn }] = await primary.$queryRaw<
          [{ lsn: string }]
        >`SELECT pg_current_wal_lsn()::text AS lsn`;
        await positions.written(storeId, walPosition(lsn));
      } catch (error) {
        logger.warn({ err: error, storeId }, 'WAL position after a write not read');
      }
    },
    replicaFailed(error) {
      if (!reachable) return;
      reachable = false;
      judge(`a read failed (${reasonOf(error)})`);
    },
    async start() {
      await poll();
      loop();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** One line for the log: a connection refused comes as an AggregateError with no message, only a code. */
function reasonOf(error: unknown): string {
  const { message, code } = (error ?? {}) as { message?: string; code?: string };
  return message?.split('\n')[0] || code || String(error);
}
