import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { makeCategories, makeStore } from '../test/helpers/factories';
import { withBenchDatabase } from './database';
import { openLoop } from './open-loop';
import { type AppProcess, issueKeys, type LoadResult, runLoad, startApp } from './processes';

/**
 * Issue 19 item 5: while one store sends the most expensive documents its limits allow, from many
 * keys at once, another store's simple reads keep p99 under 250 ms. One API process (read cache off:
 * every request runs), the victim's reads open loop at a fixed rate (latency counted from when each
 * was due, so a stalled server cannot hide its queue), first alone, then under attack with the cost
 * budget on (the default 50,000 points a minute per key), then under the same attack with the budget
 * off — what the budget buys. Each phase in a fresh app process.
 */
const PHASE_MS = Number(process.env.BENCH_PHASE_MS ?? 15_000);
const VICTIM_RATE = Number(process.env.BENCH_VICTIM_RATE ?? 40); // requests per second
const ATTACK_KEYS = Number(process.env.BENCH_ATTACK_KEYS ?? 40);
const ATTACK_CONCURRENCY = Number(process.env.BENCH_ATTACK_CONCURRENCY ?? 16);
const TARGET_P99_MS = 250;
const here = path.join(__dirname, '..');

/** Two pages of 100 orders with their lines and customer: 20,404 points, within GRAPHQL_MAX_COST. */
const orders = (alias: string, sort: string) =>
  `${alias}: orders(limit: 100, sortBy: ${sort}) { items { id number status email currency subtotalAmount totalAmount discountAmount couponCode note createdAt customer { id email firstName lastName } items { id name sku quantity unitAmount totalAmount productId } } pagination { totalResults } }`;
const attackQuery = JSON.stringify({
  query: `{ ${orders('a', 'createdAt')} ${orders('b', 'totalAmount')} }`,
});

async function run(databaseUrl: string) {
  if (process.env.NODE_ENV !== 'production') throw new Error('run with NODE_ENV=production');
  const db = connectDatabase(databaseUrl, { max: 4 });
  const attacker = await seedDemoStore(db.prisma); // 240 orders with their lines and customers
  const attackKeys = await issueKeys(db.prisma, attacker.storeId, ATTACK_KEYS);
  const warmUpKeys = await issueKeys(db.prisma, attacker.storeId, 1);
  const victim = await makeStore(db.prisma);
  await makeCategories(
    db.prisma,
    victim.id,
    Array.from({ length: 25 }, (_, i) => `Category ${i}`),
  );
  // Enough keys that the victim's own rate limit (140 a minute each) is not what is measured.
  const victimKeys = await issueKeys(db.prisma, victim.id, 20);
  await db.close();
  const common = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    READ_CACHE_TTL_MS: '0',
  };
  const victimPath = '/api/v1/category?limit=25';

  const phase = async (name: string, env: Record<string, string>, attack: boolean) => {
    const app: AppProcess = await startApp(here, { ...common, ...env });
    try {
      // Warm up both paths (JIT, first statements, key cache entries), as a running server is: the
      // attack document with a key of its own, so the attackers' budgets are whole.
      await openLoop(app.base + victimPath, victimKeys, 20, 1000);
      await runLoad({
        url: `${app.base}/graphql`,
        method: 'POST',
        body: attackQuery,
        keys: warmUpKeys,
        durationMs: 1500,
        concurrency: 1,
      });
      const attacking: Promise<LoadResult> | undefined = attack
        ? runLoad({
            url: `${app.base}/graphql`,
            method: 'POST',
            body: attackQuery,
            keys: attackKeys,
            durationMs: PHASE_MS + 1000,
            concurrency: ATTACK_CONCURRENCY,
          })
        : undefined;
      if (attacking) await new Promise((resolve) => setTimeout(resolve, 500));
      const reads = await openLoop(app.base + victimPath, victimKeys, VICTIM_RATE, PHASE_MS);
      const load = await attacking;
      return { name, reads, load };
    } finally {
      app.stop();
    }
  };

  const phases = [
    await phase('victim alone', {}, false),
    await phase('under attack, defaults', {}, true),
    await phase('under attack, budget off', { COST_BUDGET_POINTS: '0' }, true),
    await phase(
      'under attack, budget and fair share off',
      { COST_BUDGET_POINTS: '0', STORE_MAX_COST_IN_FLIGHT: '0' },
      true,
    ),
  ];
  console.log(
    `Victim: GET ${victimPath} of another store, open loop ${VICTIM_RATE}/s for ${PHASE_MS / 1000} s. Attacker: ${ATTACK_CONCURRENCY} connections, ${ATTACK_KEYS} keys of one store, each request two pages of 100 orders with lines and customer (20,404 points). Read cache off.`,
  );
  for (const { name, reads, load } of phases) {
    const attack = load
      ? `   attacker: ${load.requests} requests, ${load.requests - load.errors} answered 200 (the rest 429)`
      : '';
    console.log(
      `  ${name.padEnd(40)} victim p50 ${reads.p50.toFixed(1)} ms  p99 ${reads.p99.toFixed(1)} ms  max ${reads.max.toFixed(0)} ms  (${reads.errors} not 200)${attack}`,
    );
  }
  const defended = phases[1]?.reads.p99 ?? Number.POSITIVE_INFINITY;
  console.log(
    `  target: victim p99 under attack with the budget < ${TARGET_P99_MS} ms: ${defended < TARGET_P99_MS ? 'met' : 'NOT MET'} (${defended.toFixed(1)} ms)`,
  );
}

withBenchDatabase('isolation', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
