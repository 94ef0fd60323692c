import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 20: what each way of reading the product page — 25 products with their category, and the total —
 * costs, in one process, the ways in alternating rounds of the same page (8 in flight, as on a loaded
 * server): the API process's CPU per page (Prisma and pg included), PostgreSQL's, and the wall time.
 *   three      findMany (the page, then the categories by `IN`) and a count: three statements
 *   two        findMany with the category LATERAL-joined (Prisma's relationJoins) and a count: what runs
 *   one        the store's `products` relation with its `_count` beside it: one statement. Tried and
 *              not taken: it saves the API process a little and costs PostgreSQL more than that
 *              (planning and building the page as one JSONB value), and here both share two cores.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAGES = Number(process.env.BENCH_PAGES ?? 1600);
const IN_FLIGHT = 8;
const WAYS = ['one', 'two', 'three'] as const;
type Way = (typeof WAYS)[number];

withBenchDatabase('page_statement', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  try {
    const { storeId } = await seedDemoStore(db.prisma, { now: new Date() });
    const where = { storeId };
    const page = { orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], skip: 0, take: 25 };
    const include = { category: { select: { id: true, name: true } } };
    const read: Record<Way, () => Promise<unknown>> = {
      three: () =>
        Promise.all([
          db.prisma.product.findMany({ relationLoadStrategy: 'query', where, ...page, include }),
          db.prisma.product.count({ where }),
        ]),
      two: () =>
        Promise.all([
          db.prisma.product.findMany({ relationLoadStrategy: 'join', where, ...page, include }),
          db.prisma.product.count({ where }),
        ]),
      one: () =>
        db.prisma.store.findFirst({
          where: { id: storeId },
          select: { products: { where, ...page, include }, _count: { select: { products: { where } } } },
        }),
    };
    const rounds = await alternatingRounds(read, { rounds: ROUNDS, calls: PAGES, inFlight: IN_FLIGHT });
    const cpu = (way: Way) => median(rounds[way].map((r) => r.cpu));
    console.log(
      `Product page read (25 with category, and the total), ${ROUNDS} alternating rounds of ${PAGES} pages, ${IN_FLIGHT} in flight`,
    );
    for (const way of WAYS)
      console.log(
        `  ${way.padEnd(5)} CPU ${cpu(way).toFixed(3)} ms/page  PostgreSQL CPU ${median(rounds[way].map((r) => r.db)).toFixed(3)} ms/page  wall ${median(rounds[way].map((r) => r.wall)).toFixed(3)} ms/page  (CPU rounds ${rounds[way].map((r) => r.cpu.toFixed(3)).join(', ')})`,
      );
    const both = (way: Way) => cpu(way) + median(rounds[way].map((r) => r.db));
    console.log(
      `  API + PostgreSQL CPU per page: one ${both('one').toFixed(3)}, two ${both('two').toFixed(3)}, three ${both('three').toFixed(3)} ms; two / three ${(both('two') / both('three')).toFixed(2)}`,
    );
  } finally {
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
