import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { median } from './alternating';
import { withBenchDatabase } from './database';
import { issueKeys, startApp } from './processes';

/**
 * README "Query limits and cost": a document over a limit is refused before it runs, and refusing
 * it never stalls the server for the requests beside it (test/cost/limits.test.ts tests the
 * behaviour; the times are measured here, not in a timed test). One API process of its own; from
 * this process, alternating rounds of:
 *   refusal         one 1 MB document of 90,000 fields (QUERY_TOO_COMPLEX on its tokens), alone
 *   cheap alone     `{ categories(limit: 1) { items { id } } }`
 *   cheap beside 8  the cheap request sent while eight such refusals are in flight
 * Target: the cheap request, sent after the eight, is answered within 1.5 × the time the eight
 * refusals take one after another plus its own time alone (8 × a refusal + cheap alone): the server
 * does the work in turn and holds nothing much longer than that (the half is for nine connections at
 * once, whose bodies this one process sends too). A refusal that stalled the event loop — a parse
 * loop over the whole megabyte, as once (1.9 s in CI) — would show here. Options: BENCH_ROUNDS (15).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const HEAVY = JSON.stringify({ query: `{ ${'__typename '.repeat(90_000)}}` });
const CHEAP = JSON.stringify({ query: '{ categories(limit: 1) { items { id } } }' });

withBenchDatabase('refusals', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl, { max: 2 });
  const { storeId } = await seedDemoStore(db.prisma);
  const [key] = await issueKeys(db.prisma, storeId, 1);
  await db.close();
  const app = await startApp(path.join(__dirname, '..'), {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '1000000',
  });
  try {
    const post = async (body: string, status: number) => {
      const res = await fetch(`${app.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'tt-api-key': key as string },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}`);
    };
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const refusal: number[] = [];
    const alone: number[] = [];
    const beside: number[] = [];
    for (let warm = 0; warm < 3; warm++) await Promise.all([post(HEAVY, 400), post(CHEAP, 200)]);
    for (let round = 0; round < ROUNDS; round++) {
      refusal.push(await timed(() => post(HEAVY, 400)));
      alone.push(await timed(() => post(CHEAP, 200)));
      const refusals = Array.from({ length: 8 }, () => post(HEAVY, 400));
      beside.push(await timed(() => post(CHEAP, 200)));
      await Promise.all(refusals);
    }
    const bound = 1.5 * (8 * median(refusal) + median(alone));
    console.log(
      `Refusals beside a cheap request (${ROUNDS} rounds, medians): a 1 MB refusal ${median(refusal).toFixed(1)} ms; cheap alone ${median(alone).toFixed(1)} ms, beside 8 refusals ${median(beside).toFixed(1)} ms (rounds ${beside.map((ms) => ms.toFixed(0)).join(', ')}) — target ≤ 1.5 × (8 refusals' time + cheap alone), ${bound.toFixed(1)} ms: ${median(beside) <= bound ? 'met' : 'NOT met'}`,
    );
  } finally {
    app.stop();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
