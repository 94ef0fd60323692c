import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * What the product page's statements — 25 products with their category (one LATERAL-joined statement,
 * Prisma's relationJoins), and the count — cost, in one process, the ways in alternating rounds of the
 * same page (8 in flight, as on a loaded server): the API process's CPU per page (Prisma and pg
 * included), PostgreSQL's (the backends of this benchmark's database only, from /proc), and the wall time.
 *   unnamed          page + count as unnamed statements: parsed and planned on every page (before issue 33)
 *   named            page + count as named statements (src/db/prepared-statements.ts): planned once per
 *                    connection, then a generic plan
 *   unnamed, no count  the page alone, unnamed: what a GraphQL page without its totals costs (issue 33)
 *   named, no count  the page alone, named
 * Issue 20 measured three other ways (the categories by `IN`: three statements; the page and the count
 * as one statement through the store's relation): BASELINE "Relation joins" and issue 20's sections.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAGES = Number(process.env.BENCH_PAGES ?? 1600);
const IN_FLIGHT = 8;
const WAYS = ['unnamed', 'named', 'unnamed, no count', 'named, no count'] as const;
type Way = (typeof WAYS)[number];

withBenchDatabase('page_statement', async (databaseUrl) => {
  const named = connectDatabase(databaseUrl);
  const unnamed = connectDatabase(databaseUrl, { preparedStatements: false });
  try {
    const { storeId } = await seedDemoStore(named.prisma, { now: new Date() });
    const where = { storeId };
    const page = { orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], skip: 0, take: 25 };
    const include = { category: { select: { id: true, name: true } } };
    const rows = (db: typeof named) => db.prisma.product.findMany({ where, ...page, include });
    const read: Record<Way, () => Promise<unknown>> = {
      unnamed: () => Promise.all([rows(unnamed), unnamed.prisma.product.count({ where })]),
      named: () => Promise.all([rows(named), named.prisma.product.count({ where })]),
      'unnamed, no count': () => rows(unnamed),
      'named, no count': () => rows(named),
    };
    const database = new URL(databaseUrl).pathname.slice(1);
    const rounds = await alternatingRounds(read, {
      rounds: ROUNDS,
      calls: PAGES,
      inFlight: IN_FLIGHT,
      database,
    });
    const of = (way: Way, key: 'cpu' | 'db' | 'wall') => median(rounds[way].map((r) => r[key]));
    console.log(
      `Product page read (25 with category, and the total), ${ROUNDS} alternating rounds of ${PAGES} pages, ${IN_FLIGHT} in flight`,
    );
    for (const way of WAYS)
      console.log(
        `  ${way.padEnd(17)} API CPU ${of(way, 'cpu').toFixed(3)} ms/page  PostgreSQL CPU ${of(way, 'db').toFixed(3)} ms/page  wall ${of(way, 'wall').toFixed(3)} ms/page  (PostgreSQL rounds ${rounds[way].map((r) => r.db.toFixed(3)).join(', ')})`,
      );
    const ratio = (a: Way, b: Way, key: 'cpu' | 'db') => (of(a, key) / of(b, key)).toFixed(2);
    console.log(
      `  named / unnamed: API CPU ${ratio('named', 'unnamed', 'cpu')}, PostgreSQL CPU ${ratio('named', 'unnamed', 'db')}; ` +
        `named, no count / named: API CPU ${ratio('named, no count', 'named', 'cpu')}, PostgreSQL CPU ${ratio('named, no count', 'named', 'db')}`,
    );
  } finally {
    await named.close();
    await unnamed.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
