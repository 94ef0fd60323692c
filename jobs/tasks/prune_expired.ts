import type { Task } from 'graphile-worker';
import type { PoolClient } from 'pg';

/** Deletes dashboard sessions and idempotency records whose time is up. Runs hourly from the crontab. */
export const pruneExpired: Task = async (_payload, helpers) => {
  await helpers.withPgClient(async (client: PoolClient) => {
    const sessions = await client.query(
      `DELETE FROM "Session" WHERE "expiresAt" < now() OR ("revokedAt" IS NOT NULL AND "revokedAt" < now() - interval '1 day')`,
    );
    const records = await client.query(`DELETE FROM "IdempotencyRecord" WHERE "expiresAt" < now()`);
    // Periodic: a line only when it did something.
    if (sessions.rowCount || records.rowCount)
      helpers.logger.info(`pruned ${sessions.rowCount} sessions and ${records.rowCount} idempotency records`);
  });
};
