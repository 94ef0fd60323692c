import { randomBytes } from 'node:crypto';
import { createLogger } from '../src/logger';
import { createRateLimiter } from '../src/ratelimit/limiter';
import { connectRedis } from '../src/redis';

/**
 * What one rate-limit decision costs against the local Redis: CALLS sequential consume() calls
 * (one Lua script round trip each) spread over KEYS keys, so every window holds up to ~100 entries
 * and requests are allowed, as in normal traffic. Prints the median and the tail.
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
  const limiter = createRateLimiter({ redis, max: 140, windowSeconds: 60, logger, keyPrefix: prefix });
  const keys = Array.from({ length: KEYS }, (_, i) => `key_${i}`);

  for (let i = 0; i < 200; i++) await limiter.consume(`warmup_${i % KEYS}`, Date.now()); // script loaded, JIT warm
  const costs: number[] = [];
  const sources = { redis: 0, memory: 0 };
  const allowed = { yes: 0, no: 0 };
  for (let i = 0; i < CALLS; i++) {
    const started = process.hrtime.bigint();
    const decision = await limiter.consume(keys[i % KEYS]!, Date.now());
    costs.push(Number(process.hrtime.bigint() - started) / 1e6);
    sources[decision.source]++;
    allowed[decision.allowed ? 'yes' : 'no']++;
  }
  costs.sort((x, y) => x - y);
  console.log(
    `rate limit consume(), ${CALLS} sequential calls on ${KEYS} keys: median ${percentile(costs, 0.5).toFixed(3)} ms, ` +
      `p95 ${percentile(costs, 0.95).toFixed(3)} ms, p99 ${percentile(costs, 0.99).toFixed(3)} ms, max ${costs.at(-1)!.toFixed(3)} ms`,
  );
  console.log(
    `  answered from redis ${sources.redis}, memory ${sources.memory}; allowed ${allowed.yes}, rejected ${allowed.no}`,
  );

  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    if (found.length > 0) await redis.del(...found);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
