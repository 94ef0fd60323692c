import { queryFromInfo } from '@pothos/plugin-prisma';
import { type FieldNode, type GraphQLResolveInfo, Kind, type OperationDefinitionNode } from 'graphql';
import { buildExecutionContext, buildResolveInfo, type ExecutionContext } from 'graphql/execution/execute';
import pino from 'pino';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { systemContext } from '../src/context';
import { connectDatabase } from '../src/db/client';
import { execute } from '../src/graphql/executor';
import { compileOperation } from '../src/graphql/operation';
import { plannedSelection } from '../src/resources/selection-plans';
import { schema } from '../src/schema';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 33 item 1: the Prisma selection of the REST product page's `products` field (25 products,
 * every field of ProductFields, with the category), derived per call as plugin-prisma's
 * `queryFromInfo` does and kept per document as src/resources/selection-plans.ts does, in one
 * process, alternating rounds; beside them the whole page executed (graphql-jit, the Prisma read
 * included, the kept plan in it), so the saving is seen as a share of a page. Each call of a
 * selection way derives BATCH selections, each for a fresh context (as each request has its own).
 *
 *   NODE_ENV=production npx tsx bench/selection-plans.ts
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAGES = Number(process.env.BENCH_PAGES ?? 800);
const BATCH = 50;
const WAYS = ['per call (queryFromInfo)', 'kept (plannedSelection)', 'the whole page'] as const;
type Way = (typeof WAYS)[number];

withBenchDatabase('selection_plans', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  try {
    const { storeId } = await seedDemoStore(db.prisma, { now: new Date() });
    const ctx = systemContext(
      { prisma: db.prisma, now: () => new Date(), invalidateAuth: async () => {} },
      { id: storeId, plan: 'PRO' },
      pino({ level: 'silent' }),
    );
    const { document, operation } = compileOperation(
      schema,
      'query ProductPage { products(limit: 25) { items { ...ProductFields } pagination { totalResults currentPage limit lastPage } } }',
      (message) => {
        throw new Error(message);
      },
    );
    const info = productsInfo(document, operation);
    const perCall = () => queryFromInfo({ context: {}, info, path: ['items'] });
    const kept = () => plannedSelection({ context: {}, info, path: ['items'] });
    const same = JSON.stringify(perCall()) === JSON.stringify(kept());
    const batch = (derive: () => unknown) => async () => {
      for (let i = 0; i < BATCH; i++) derive();
    };
    const ways: Record<Way, () => Promise<unknown>> = {
      'per call (queryFromInfo)': batch(perCall),
      'kept (plannedSelection)': batch(kept),
      'the whole page': async () => {
        const result = await execute({
          schema,
          document,
          operationName: 'ProductPage',
          contextValue: { ...ctx },
        });
        if (result.errors) throw new Error(JSON.stringify(result.errors));
      },
    };
    const measured = await alternatingRounds(ways, { rounds: ROUNDS, calls: PAGES, inFlight: 8 });
    const perSelection = (way: Way) => measured[way].map((m) => (m.cpu / BATCH) * 1000);
    console.log(
      `The product page's Prisma selection, ${ROUNDS} alternating rounds of ${PAGES}×${BATCH} (same selection: ${same ? 'yes' : 'NO'})`,
    );
    for (const way of WAYS.slice(0, 2)) {
      const us = perSelection(way);
      console.log(
        `  ${way.padEnd(26)} ${median(us).toFixed(1)} µs CPU a selection  (rounds ${us.map((v) => v.toFixed(1)).join(', ')})`,
      );
    }
    const page = measured['the whole page'].map((m) => m.cpu);
    console.log(
      `  the whole page (executed, read included) ${median(page).toFixed(3)} ms CPU  (rounds ${page.map((v) => v.toFixed(3)).join(', ')})`,
    );
    const saved = median(perSelection(WAYS[0])) - median(perSelection(WAYS[1]));
    console.log(
      `  saved per page: ${saved.toFixed(1)} µs = ${((saved / 1000 / (median(page) + saved / 1000)) * 100).toFixed(1)} % of the executed page as it was`,
    );
  } finally {
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});

/** The resolve info graphql-js hands the `products` field of this document. */
function productsInfo(
  document: Parameters<typeof buildExecutionContext>[0]['document'],
  operation: OperationDefinitionNode,
): GraphQLResolveInfo {
  const context = buildExecutionContext({ schema, document, variableValues: {} }) as ExecutionContext;
  const field = operation.selectionSet.selections.find(
    (selection): selection is FieldNode => selection.kind === Kind.FIELD,
  ) as FieldNode;
  const query = schema.getQueryType()!;
  return buildResolveInfo(context, query.getFields()[field.name.value]!, [field], query, {
    prev: undefined,
    key: field.name.value,
    typename: query.name,
  });
}
