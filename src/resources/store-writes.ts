import type { Db, Tx } from '../db/client';

type TransactionOptions = Parameters<Db['$transaction']>[1];

/** What a store write needs: the database, and who to tell that the store's data changed. */
export interface StoreWriter {
  prisma: Db;
  /**
   * Replaces the store's read-cache data version (README "Read cache"). Absent where nothing can
   * cache (no Redis): then there is nothing to make stale.
   */
  storeChanged?: (storeId: string) => Promise<void>;
}

/**
 * Every write of a store's data passes through here, whichever door, job or command makes it: one
 * transaction (with the outbox event the change emits, src/events/outbox.ts), then the
 * store's data version is replaced — after the commit and before the caller is told, so no cached
 * read older than an acknowledged write is answered anywhere. A failed write replaces it too: a
 * commit whose acknowledgement was lost must not leave stale answers behind, and a spare version
 * costs one cache miss.
 */
export async function writeStore<T>(
  writer: StoreWriter,
  storeId: string,
  write: (tx: Tx) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  try {
    return await writer.prisma.$transaction(write, options);
  } finally {
    await writer.storeChanged?.(storeId);
  }
}
