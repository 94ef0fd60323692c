import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db';
import { withBenchDatabase } from './database';

/**
 * Issue 20: what Prisma's `relationJoins` (prisma/schema.prisma) saves on the product page's read —
 * 25 products with their category — in one process, the two strategies in alternating rounds of the
 * same query (8 in flight, as on a loaded server): API-process CPU per page, Prisma and pg included.
 * `join` is one statement with a LATERAL join; `query` is the page, then the categories by `IN`.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAGES = Number(process.env.BENCH_PAGES ?? 1600);
const IN_FLIGHT = 8;

type Strategy = 'join' | 'query';

withBenchDatabase('relation_joins', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  try {
    const { storeId } = await seedDemoStore(db.prisma, { now: new Date() });
    const page = (strategy: Strategy) =>
      db.prisma.product.findMany({
        relationLoadStrategy: strategy,
        where: { storeId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 25,
        include: { category: { select: { id: true, name: true } } },
      });
    const cpuPerPage = async (strategy: Strategy, pages: number) => {
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          for (let i = 0; i < pages / IN_FLIGHT; i++) await page(strategy);
        }),
      );
      const used = process.cpuUsage(before);
      return (used.user + used.system) / 1000 / pages;
    };
    for (const strategy of ['join', 'query', 'join', 'query'] as const) await cpuPerPage(strategy, 400);
    const rounds: Record<Strategy, number[]> = { join: [], query: [] };
    for (let round = 0; round < ROUNDS; round++)
      for (const strategy of ['join', 'query'] as const)
        rounds[strategy].push(await cpuPerPage(strategy, PAGES));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `Product page read (25 with category), ${ROUNDS} alternating rounds of ${PAGES} pages, ${IN_FLIGHT} in flight`,
    );
    for (const strategy of ['join', 'query'] as const)
      console.log(
        `  ${strategy.padEnd(5)} CPU ${median(rounds[strategy]).toFixed(3)} ms/page  (rounds ${rounds[strategy].map((ms) => ms.toFixed(3)).join(', ')})`,
      );
    console.log(`  join / query: ${(median(rounds.join) / median(rounds.query)).toFixed(2)} of the CPU`);
  } finally {
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
