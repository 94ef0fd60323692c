import type { RedisClient } from '../src/redis';

/** Deletes every key under a bench's Redis prefix (a bench shares the developer's Redis: it leaves nothing behind). */
export async function deleteKeysUnder(redis: RedisClient, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (found.length > 0) await redis.del(...found);
    cursor = next;
  } while (cursor !== '0');
}
