import { execute as executeWithGraphqlJs } from 'graphql';
import pino from 'pino';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { systemContext } from '../src/context';
import { connectDatabase } from '../src/db/client';
import { execute } from '../src/graphql/executor';
import { compileOperation } from '../src/graphql/operation';
import { schema } from '../src/schema';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 20: the pipeline's two executors on the REST product page's fixed document — 25 products with
 * their category, and the totals — in one process, in alternating rounds (8 in flight): graphql-js,
 * and graphql-jit as the pipeline runs a door's fixed document (src/graphql/executor.ts). CPU per page,
 * the resolvers' Prisma read included; beside them the read alone, the floor both stand on.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAGES = Number(process.env.BENCH_PAGES ?? 1600);
const IN_FLIGHT = 8;
const WAYS = ['graphql-jit', 'graphql-js', 'read alone'] as const;
type Way = (typeof WAYS)[number];

withBenchDatabase('executor', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  try {
    const { storeId } = await seedDemoStore(db.prisma, { now: new Date() });
    const ctx = systemContext(
      { prisma: db.prisma, now: () => new Date(), invalidateAuth: async () => {} },
      { id: storeId, plan: 'PRO' },
      pino({ level: 'silent' }),
    );
    const { document } = compileOperation(
      schema,
      'query ProductPage { products(limit: 25) { items { ...ProductFields } pagination { totalResults currentPage limit lastPage } } }',
      (message) => {
        throw new Error(message);
      },
    );
    const args = () => ({ schema, document, operationName: 'ProductPage', contextValue: { ...ctx } });
    const answered = (result: unknown) => {
      if ((result as { errors?: unknown }).errors) throw new Error(JSON.stringify(result));
    };
    const read: Record<Way, () => Promise<unknown>> = {
      'graphql-jit': async () => answered(await execute(args())),
      'graphql-js': async () => answered(await executeWithGraphqlJs(args())),
      'read alone': () =>
        db.prisma.store.findFirst({
          where: { id: storeId },
          select: {
            products: {
              where: { storeId },
              orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
              skip: 0,
              take: 25,
              include: { category: true },
            },
            _count: { select: { products: { where: { storeId } } } },
          },
        }),
    };
    const same = JSON.stringify(await execute(args())) === JSON.stringify(await executeWithGraphqlJs(args()));
    const measured = await alternatingRounds(read, { rounds: ROUNDS, calls: PAGES, inFlight: IN_FLIGHT });
    const rounds = Object.fromEntries(WAYS.map((way) => [way, measured[way].map((m) => m.cpu)])) as Record<
      Way,
      number[]
    >;
    console.log(
      `Executing the REST product page's document in process, ${ROUNDS} alternating rounds of ${PAGES} pages, ${IN_FLIGHT} in flight (same answer: ${same ? 'yes' : 'NO'})`,
    );
    for (const way of WAYS)
      console.log(
        `  ${way.padEnd(11)} CPU ${median(rounds[way]).toFixed(3)} ms/page  (rounds ${rounds[way].map((ms) => ms.toFixed(3)).join(', ')})`,
      );
    const jit = median(rounds['graphql-jit']);
    const js = median(rounds['graphql-js']);
    const floor = median(rounds['read alone']);
    console.log(
      `  graphql-jit / graphql-js: ${(jit / js).toFixed(2)} of the CPU; above the read alone: ${(jit - floor).toFixed(3)} vs ${(js - floor).toFixed(3)} ms`,
    );
  } finally {
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
