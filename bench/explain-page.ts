import { Client } from 'pg';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { withBenchDatabase } from './database';

/**
 * Issue 33: what PostgreSQL does for the product page's two statements (the page with its categories,
 * the count), on the demo store: EXPLAIN (ANALYZE, BUFFERS) with planning time, as an unnamed statement
 * (custom plan, planned on every execution) and prepared under `plan_cache_mode = force_generic_plan`
 * (the plan a named statement keeps after its fifth execution).
 */
withBenchDatabase('explain_page', async (databaseUrl) => {
  const db = connectDatabase(databaseUrl, { max: 1 });
  const admin = new Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    const { storeId } = await seedDemoStore(db.prisma, { now: new Date() });
    await admin.query('ANALYZE');
    const sent: Array<{ text: string; values: unknown[] }> = [];
    const query = Client.prototype.query;
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const config = args[0] as { text?: string; values?: unknown[] };
      if (config?.text?.includes('"Product"')) sent.push({ text: config.text, values: config.values ?? [] });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    const where = { storeId };
    await Promise.all([
      db.prisma.product.findMany({
        where,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 25,
        include: { category: { select: { id: true, name: true } } },
      }),
      db.prisma.product.count({ where }),
    ]);
    Client.prototype.query = query;
    const products = await db.prisma.product.count({ where });
    console.log(`Demo store: ${products} products`);
    for (const [i, { text, values }] of sent.entries()) {
      console.log(`\n-- ${text}\n-- values ${JSON.stringify(values)}`);
      const unnamed = await admin.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${text}`, values });
      console.log('unnamed (custom plan):');
      for (const row of unnamed.rows) console.log(`  ${row['QUERY PLAN']}`);
      await admin.query('SET plan_cache_mode = force_generic_plan');
      await admin.query(`PREPARE explained_${i} AS ${text}`);
      const literal = values.map((v) => (typeof v === 'number' ? String(v) : `'${String(v)}'`)).join(', ');
      const generic = await admin.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE explained_${i}(${literal})`);
      await admin.query('RESET plan_cache_mode');
      console.log('prepared (generic plan):');
      for (const row of generic.rows) console.log(`  ${row['QUERY PLAN']}`);
    }
  } finally {
    await admin.end();
    await db.close();
  }
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
