import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { createAdmission } from '../../src/admission/admission';
import { createCostBudget } from '../../src/cost/budget';
import { DataVersions, versionKeyPrefix } from '../../src/read-cache/data-version';
import { connectRedis } from '../../src/redis';
import { STORE_SHARDS, storeShard } from '../../src/redis-keys';
import { createUsageMeter } from '../../src/usage/meter';
import { RedisUsageCounter } from '../../src/usage/redis-usage';
import { redisUrl } from '../helpers/databases';
import { captureLogs, commandsSent, deleteKeys, ready, testPrefix } from '../helpers/redis-prefix';

// The hash slot ioredis routes a key by (CRC16 of the key's hash tag, or of the whole key): the same
// library ioredis uses, so the test agrees with the client. It ships no types.
const keySlot: (key: string) => number = require('cluster-key-slot');

/**
 * README "Redis Cluster": a cluster runs a script only when all its KEYS hash to one slot. For random
 * stores, keys and staff members, every script the service sends — admission of a key and of a
 * session (with the data version and the cost budget), the budget alone, the data version alone, the
 * usage claim and restore — names keys of one slot. Checked on the commands actually sent.
 */

let redis: Redis;
const prefix = testPrefix('key-slots');
const { logger } = captureLogs();

beforeAll(async () => {
  redis = connectRedis(redisUrl, logger, { commandTimeoutMs: 2000 });
  await ready(redis);
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

/** The KEYS of every script sent while `body` runs (EVALSHA and EVAL: sha or body, numkeys, keys…). */
async function scriptKeys(body: () => Promise<unknown>): Promise<string[][]> {
  const sent = await commandsSent(redis, body);
  return sent
    .filter(({ name }) => name === 'evalsha' || name === 'eval')
    .map(({ args }) => {
      const flat = args.flat() as unknown[];
      return flat.slice(2, 2 + Number(flat[1])).map(String);
    });
}

const id = (kind: string) => fc.string({ minLength: 1, maxLength: 30 }).map((s) => `${kind}_${s}`);

it('every script names keys of a single hash slot, whoever calls', async () => {
  const versions = new DataVersions(redis, { keyPrefix: versionKeyPrefix(prefix), timeoutMs: 2000, logger });
  const usage = createUsageMeter({ redis, logger, keyPrefix: `${prefix}usage:` });
  const admission = createAdmission({
    redis,
    rateLimit: { max: 1000, windowSeconds: 60 },
    usage,
    dataVersions: versions,
    logger,
    keyPrefix: `${prefix}rl:`,
    redisTimeoutMs: 2000,
  });
  const budget = createCostBudget({
    redis,
    points: 1000,
    windowSeconds: 60,
    keyPrefix: `${prefix}cost:`,
    logger,
    redisTimeoutMs: 2000,
  })!;
  const counter = new RedisUsageCounter(redis, `${prefix}usage:`);
  let scripts = 0;
  await fc.assert(
    fc.asyncProperty(id('str'), id('key'), id('usr'), async (storeId, keyId, staffUserId) => {
      const now = new Date();
      const key = { id: keyId, storeId, usageLimit: 100, usageCount: 0n };
      const sent = await scriptKeys(async () => {
        await admission.admit(key, now, {
          withDataVersion: true,
          budget: budget.prepare({ storeId, name: keyId }, 1, now),
        });
        await admission.admitSession({ staffUserId, storeId }, now, {
          withDataVersion: true,
          budget: budget.prepare({ storeId, name: `staff:${staffUserId}` }, 1, now),
        });
        await budget.charge(budget.prepare({ storeId, name: keyId }, 1, now));
        await versions.current(storeId);
        const shard = storeShard(storeId);
        const claimed = await counter.claim(shard, await counter.dirtyKeyIds(shard));
        await counter.restore(shard, claimed);
      });
      // admit, admitSession, budget, version, claim, restore (one per claimed key: at least this one)
      expect(sent.length).toBeGreaterThanOrEqual(6);
      for (const keys of sent) {
        expect(keys.length).toBeGreaterThan(0);
        expect(new Set(keys.map(keySlot)).size).toBe(1);
      }
      scripts += sent.length;
    }),
    { numRuns: 40 },
  );
  expect(scripts).toBeGreaterThan(0);
});

it('stores spread over every shard, and shards over the slots', () => {
  const shards = new Set<number>();
  for (let i = 0; i < 20_000; i++) shards.add(storeShard(`str_${i.toString(36)}`));
  expect(shards.size).toBe(STORE_SHARDS);
  const slots = new Set([...shards].map((shard) => keySlot(`{s${shard}}`)));
  // Distinct shards land on (almost) distinct slots: a cluster can move each on its own.
  expect(slots.size).toBeGreaterThan(STORE_SHARDS * 0.95);
});
