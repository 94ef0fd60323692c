import type { ExecutionResult } from 'graphql';
import pino from 'pino';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { systemContext } from '../src/context';
import { connectDatabase } from '../src/db/client';
import { execute } from '../src/graphql/executor';
import { compileOperation } from '../src/graphql/operation';
import { withDataText } from '../src/read-cache/answer';
import { answerTag } from '../src/read-cache/etag';
import { schema } from '../src/schema';
import { alternatingRounds, median } from './alternating';
import { withBenchDatabase } from './database';

/**
 * Issue 33, item 3: what the tag of a GraphQL query's data (README "Conditional requests",
 * `answerTag`) adds to an answer no version vouches for — an order page of 25 orders with their lines
 * and customer, from the demo store (since orders are versioned reads, a stand-in for an answer of
 * its size that is not: API keys, webhooks, analytics; the tag's cost does not depend on the field) — beside the work it stands on, in one process, alternating
 * rounds: executing the page (its Prisma read included), writing the answer's JSON (what the door
 * does anyway), and the tag with that writing (the data's JSON, its SHA-1 digest, the answer written
 * around the data's JSON: src/read-cache/answer.ts `withDataText`).
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const PAGES = Number(process.env.BENCH_PAGES ?? 800);
const IN_FLIGHT = 8;
const WAYS = ['execute the page', 'write its JSON', 'tag, then write'] as const;
type Way = (typeof WAYS)[number];

withBenchDatabase('answer_tag', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl);
  try {
    const { storeId } = await seedDemoStore(db.prisma, { now: new Date() });
    const ctx = systemContext(
      { prisma: db.prisma, now: () => new Date(), invalidateAuth: async () => {} },
      { id: storeId, plan: 'PRO' },
      pino({ level: 'silent' }),
    );
    const text =
      'query OrderPage { orders(limit: 25) { items { id number status email totalAmount createdAt customer { email } items { name quantity totalAmount } } pagination { totalResults currentPage lastPage } } }';
    const { document } = compileOperation(schema, text, (message) => {
      throw new Error(message);
    });
    const args = () => ({ schema, document, operationName: 'OrderPage', contextValue: { ...ctx } });
    const result = (await execute(args())) as ExecutionResult;
    if ((result as { errors?: unknown }).errors) throw new Error(JSON.stringify(result));
    const data = result.data;
    const operation = { door: 'graphql', document, operationName: 'OrderPage', variables: '{}' };
    const principal = ctx.principal as NonNullable<typeof ctx.principal>;
    // The answer as the door writes it: a copy with the cost plugins' members (yoga's stringify when set).
    const write = (answer: ExecutionResult) => {
      const copy = { ...answer, extensions: { ...answer.extensions } } as ExecutionResult & {
        stringify?: (r: ExecutionResult) => string;
      };
      return (copy.stringify ?? JSON.stringify)(copy);
    };
    const ways: Record<Way, () => Promise<unknown>> = {
      'execute the page': () => Promise.resolve(execute(args())),
      'write its JSON': async () => write(result),
      'tag, then write': async () => {
        const text = JSON.stringify(data);
        answerTag(principal, operation, text);
        return write(withDataText(result, text));
      },
    };
    const same = (await ways['tag, then write']()) === write(result);
    const measured = await alternatingRounds(ways, { rounds: ROUNDS, calls: PAGES, inFlight: IN_FLIGHT });
    const cpu = Object.fromEntries(WAYS.map((way) => [way, measured[way].map((m) => m.cpu)])) as Record<
      Way,
      number[]
    >;
    console.log(
      `A GraphQL order page (25 orders, ${Buffer.byteLength(JSON.stringify(result))} bytes of JSON), ${ROUNDS} alternating rounds of ${PAGES}, ${IN_FLIGHT} in flight (same bytes: ${same ? 'yes' : 'NO'})`,
    );
    for (const way of WAYS)
      console.log(
        `  ${way.padEnd(16)} CPU ${median(cpu[way]).toFixed(4)} ms  (rounds ${cpu[way].map((ms) => ms.toFixed(4)).join(', ')})`,
      );
    const added = median(cpu['tag, then write']) - median(cpu['write its JSON']);
    console.log(
      `  the tag adds ${added.toFixed(4)} ms: ${(added / median(cpu['write its JSON'])).toFixed(2)} of writing the JSON, ${((100 * added) / median(cpu['execute the page'])).toFixed(1)} % of executing the page`,
    );
  } finally {
    await db.close();
  }
});
