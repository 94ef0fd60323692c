import { randomBytes } from 'node:crypto';
import { createAdmission } from '../src/admission/admission';
import { createLogger } from '../src/logger';
import { connectRedis } from '../src/redis';
import { createUsageMeter } from '../src/usage/meter';
import type { MeteredKey } from '../src/usage/pending';
import { deleteKeysUnder } from './redis-keys';

/**
 * What admitting one API-key request costs against the local Redis: CALLS sequential admit() calls
 * (the rate limit's window and the usage count, one Lua script round trip each) spread over KEYS
 * keys, so every window holds up to ~100 entries and requests are allowed, as in normal traffic.
 * Prints the median and the tail.
 */
const CALLS = Number(process.env.BENCH_CALLS ?? 5000);
const KEYS = 50;
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

async function main() {
  const logger = createLogger('warn');
  const redis = connectRedis(redisUrl, logger);
  await new Promise((resolve) => redis.once('ready', resolve));
  const prefix = `bench:ratelimit:${randomBytes(6).toString('hex')}:`;
  const admission = createAdmission({
    redis,
    rateLimit: { max: 140, windowSeconds: 60 },
    usage: createUsageMeter({ redis, logger, keyPrefix: `${prefix}usage:` }),
    dataVersions: null,
    logger,
    keyPrefix: `${prefix}rl:`,
  });
  const meteredKey = (id: string): MeteredKey => ({
    id,
    storeId: 'str_bench',
    usageLimit: null,
    usageCount: 0n,
  });
  const keys = Array.from({ length: KEYS }, (_, i) => meteredKey(`key_${i}`));

  // Script loaded, JIT warm.
  for (let i = 0; i < 200; i++) await admission.admit(meteredKey(`warmup_${i % KEYS}`), new Date());
  const costs: number[] = [];
  const sources = { redis: 0, memory: 0 };
  const allowed = { yes: 0, no: 0 };
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    const { rateLimit: decision } = await admission.admit(keys[i % KEYS]!, new Date());
    costs.push(Number(process.hrtime.bigint() - started) / 1e6);
    sources[decision.source]++;
    allowed[decision.allowed ? 'yes' : 'no']++;
  }
  costs.sort((x, y) => x - y);
  console.log(
    `admission (rate limit + usage, one script), ${CALLS} sequential calls on ${KEYS} keys: median ${percentile(costs, 0.5).toFixed(3)} ms, ` +
      `p95 ${percentile(costs, 0.95).toFixed(3)} ms, p99 ${percentile(costs, 0.99).toFixed(3)} ms, max ${costs.at(-1)!.toFixed(3)} ms`,
  );
  console.log(
    `  answered from redis ${sources.redis}, memory ${sources.memory}; allowed ${allowed.yes}, rejected ${allowed.no}`,
  );

  await deleteKeysUnder(redis, prefix);
  await redis.quit();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
