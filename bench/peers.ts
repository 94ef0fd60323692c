import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { seedDemoStore } from '../prisma/seed/demo-store';
import { connectDatabase } from '../src/db/client';
import { withBenchDatabase } from './database';
import { openLoop } from './open-loop';
import { ensurePeersInstalled, issueKeys, startApp, startServer } from './processes';
import { GRAPHQL_PAGE, type Medians, PAGE, postgraphilePage, serverRounds, type Target } from './rounds';

/**
 * Issue 20: the product page (25 products with their category) and order placement, side by side
 * with peers, in one run on the seeded demo store. Every server is a process of its own; the load
 * generator (bench/load-client.ts) too. Closed loop, keep-alive, 16 and 64 connections, alternating
 * rounds, medians (bench/rounds.ts); API and PostgreSQL CPU per request read from /proc. Then p50/p99 of our
 * uncached REST page, open loop at half the rate it reached. bench/BASELINE.md has the method and
 * the results; PostGraphile lives in bench/peers/ (its own node_modules: it needs graphql 15).
 */
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '16,64').split(',').map(Number);
const here = path.join(__dirname, '..');
const peersDir = path.join(__dirname, 'peers');

let database = '';
const compare = (targets: Target[], keys: string[], concurrency: number) =>
  serverRounds(targets, { keys, concurrency, durationMs: DURATION_MS, rounds: ROUNDS, database });

function table(title: string, medians: Medians, reference: string) {
  const ref = medians.get(reference)?.rps ?? 1;
  console.log(title);
  for (const [name, m] of medians) {
    console.log(
      `  ${name.padEnd(34)} ${m.rps.toFixed(0).padStart(6)} req/s  ${(m.rps / ref).toFixed(3).padStart(6)} of ${reference}  p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms  CPU ${m.cpuMs.toFixed(2)} ms/req  PostgreSQL ${m.pgCpuMs.toFixed(2)} ms/req  (rounds ${m.all.map((r) => r.toFixed(0)).join(', ')})`,
    );
  }
}

const verdict = (what: string, value: number, target: number, atLeast = true) =>
  console.log(
    `  ${what.padEnd(52)} ${value.toFixed(3).padStart(7)}  target ${atLeast ? '≥' : '≤'} ${target}: ${(atLeast ? value >= target : value <= target) ? 'met' : 'NOT MET'}`,
  );

async function run(databaseUrl: string) {
  if (process.env.NODE_ENV !== 'production')
    throw new Error('run with NODE_ENV=production (npm run bench does)');
  ensurePeersInstalled();
  database = new URL(databaseUrl).pathname.slice(1);
  const db = connectDatabase(databaseUrl, { max: 4 });
  const seeded = await seedDemoStore(db.prisma);
  const storeId = seeded.storeId;
  const keys = await issueKeys(db.prisma, storeId, 200);
  const common = {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
    RATE_LIMIT_MAX: '100000000',
    COST_BUDGET_POINTS: '1000000000',
  };
  const uncached = await startApp(here, { ...common, READ_CACHE_TTL_MS: '0' });
  const cached = await startApp(here, common);
  const pageBody = await (
    await fetch(cached.base + PAGE, { headers: { 'tt-api-key': keys[0] as string } })
  ).text();
  const peer = (name: string) =>
    startServer(path.join(__dirname, 'peer-servers.ts'), {
      BENCH_PEER: name,
      BENCH_BODY: pageBody,
      DATABASE_URL: databaseUrl,
      BENCH_STORE_ID: storeId,
    });
  const bare = await peer('bare');
  const pgPage = await peer('page');
  const postgraphile = await startServer(path.join(peersDir, 'postgraphile-server.cjs'), {
    DATABASE_URL: databaseUrl,
  });
  const servers = [uncached, cached, bare, pgPage, postgraphile];
  try {
    // Each answers the same 25 products.
    const pg = (await (await fetch(pgPage.base)).json()) as { data: unknown[] };
    const pgl = (await (
      await fetch(`${postgraphile.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: postgraphilePage(storeId),
      })
    ).json()) as { data?: { allProducts: { nodes: unknown[] } }; errors?: unknown };
    if (pg.data.length !== 25 || pgl.data?.allProducts.nodes.length !== 25)
      throw new Error(`a peer did not answer 25 products: ${JSON.stringify(pgl.errors ?? pg).slice(0, 500)}`);

    const pageTargets: Target[] = [
      { name: 'bare node:http, fixed bytes', server: bare, url: bare.base, method: 'GET' },
      { name: 'node:http + pg, one statement', server: pgPage, url: pgPage.base, method: 'GET' },
      {
        name: 'PostGraphile 4.14',
        server: postgraphile,
        url: `${postgraphile.base}/graphql`,
        method: 'POST',
        body: postgraphilePage(storeId),
      },
      { name: 'ours REST, read cache off', server: uncached, url: uncached.base + PAGE, method: 'GET' },
      {
        name: 'ours GraphQL, read cache off',
        server: uncached,
        url: `${uncached.base}/graphql`,
        method: 'POST',
        body: GRAPHQL_PAGE,
      },
      { name: 'ours REST, cached', server: cached, url: cached.base + PAGE, method: 'GET' },
      {
        name: 'ours GraphQL, cached',
        server: cached,
        url: `${cached.base}/graphql`,
        method: 'POST',
        body: GRAPHQL_PAGE,
      },
    ];
    const pages = new Map<number, Awaited<ReturnType<typeof compare>>>();
    for (const connections of CONNECTIONS) {
      const medians = await compare(pageTargets, keys, connections);
      pages.set(connections, medians);
      table(
        `Product page, 25 with category: ${connections} connections, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, medians`,
        medians,
        'bare node:http, fixed bytes',
      );
    }

    // Open loop at half the rate our uncached REST page reached at 16 connections, before the orders:
    // after ~10,000 orders the two products they all take hold as many dead row versions, and the
    // page read (and autovacuum) would be measuring that.
    const restRate = pages.get(16)?.get('ours REST, read cache off')?.rps ?? 100;
    const half = Math.max(1, Math.floor(restRate / 2));
    const latency = await openLoop(uncached.base + PAGE, keys, half, 10_000);
    console.log(
      `Uncached REST page, open loop at half its rate (${half}/s) for 10 s: p50 ${latency.p50.toFixed(1)} ms  p99 ${latency.p99.toFixed(1)} ms  (${latency.errors} not 200)`,
    );

    // Order placement: two lines of the same two products every time (the hot rows of a sale).
    const products = await db.prisma.product.findMany({
      where: { storeId, status: 'active' },
      orderBy: { id: 'asc' },
      take: 2,
      select: { id: true },
    });
    await db.prisma.product.updateMany({
      where: { id: { in: products.map((p) => p.id) } },
      data: { stock: 100_000_000 },
    });
    const orderInput = {
      email: 'bench@example.test',
      items: products.map((p) => ({ productId: p.id, quantity: 1 })),
    };
    const sqlOrder = await peer('order');
    servers.push(sqlOrder);
    const ordersBefore = await db.prisma.order.count({ where: { storeId } });
    const orderTargets: Target[] = [
      {
        name: 'SQL stand-in, one transaction',
        server: sqlOrder,
        url: sqlOrder.base,
        method: 'POST',
        body: JSON.stringify(orderInput),
        okStatus: 201,
      },
      {
        name: 'ours REST POST /order',
        server: uncached,
        url: `${uncached.base}/api/v1/order`,
        method: 'POST',
        body: JSON.stringify(orderInput),
        okStatus: 201,
      },
      {
        name: 'ours GraphQL placeOrder',
        server: uncached,
        url: `${uncached.base}/graphql`,
        method: 'POST',
        body: JSON.stringify({
          query:
            'mutation Place($input: PlaceOrderInput!) { placeOrder(input: $input) { id number status totalAmount items { id name quantity } } }',
          variables: { input: orderInput },
        }),
      },
    ];
    const orders = await compare(orderTargets, keys, 16);
    table(
      `Placing an order: 16 connections, ${ROUNDS} alternating rounds of ${DURATION_MS / 1000} s, medians`,
      orders,
      'SQL stand-in, one transaction',
    );
    const placed = (await db.prisma.order.count({ where: { storeId } })) - ordersBefore;
    const stock = await db.prisma.product.findMany({
      where: { id: { in: products.map((p) => p.id) } },
      select: { stock: true },
    });
    const oversold = stock.some((p) => p.stock !== 100_000_000 - placed);
    console.log(
      `  ${placed} orders placed; stock of both products down by exactly that: ${oversold ? 'NO (oversold or lost)' : 'yes'}`,
    );

    const at16 = pages.get(16);
    const rps = (name: string) => at16?.get(name)?.rps ?? Number.NaN;
    console.log('Targets (16 connections):');
    verdict(
      'uncached REST page / bare',
      rps('ours REST, read cache off') / rps('bare node:http, fixed bytes'),
      0.1,
    );
    verdict(
      'uncached REST page / PostGraphile (aim 1.5)',
      rps('ours REST, read cache off') / rps('PostGraphile 4.14'),
      1,
    );
    verdict(
      'uncached GraphQL / uncached REST',
      rps('ours GraphQL, read cache off') / rps('ours REST, read cache off'),
      0.9,
    );
    verdict('cached REST page / bare', rps('ours REST, cached') / rps('bare node:http, fixed bytes'), 0.5);
    const sql = orders.get('SQL stand-in, one transaction')?.rps ?? Number.NaN;
    verdict(
      'order placement REST / SQL stand-in',
      (orders.get('ours REST POST /order')?.rps ?? 0) / sql,
      0.5,
    );
    verdict(
      'order placement GraphQL / SQL stand-in',
      (orders.get('ours GraphQL placeOrder')?.rps ?? 0) / sql,
      0.5,
    );
    verdict('p99 / p50 at half load', latency.p99 / latency.p50, 3, false);
    // Issue 33's targets, on the same medians (CPU per page: the API process's, and every PostgreSQL
    // process's over the round — meaningful on a quiet machine only).
    const of = (name: string) => at16?.get(name);
    const ours = of('ours REST, read cache off');
    const theirs = of('PostGraphile 4.14');
    console.log('Issue 33 targets (16 connections):');
    verdict(
      'uncached REST page / PostGraphile (aim 1.0)',
      rps('ours REST, read cache off') / rps('PostGraphile 4.14'),
      0.7,
    );
    verdict(
      'API CPU per page, uncached REST / PostGraphile',
      (ours?.cpuMs ?? Number.NaN) / (theirs?.cpuMs ?? Number.NaN),
      1.3,
      false,
    );
    verdict(
      'PostgreSQL CPU per page, uncached REST / PostGraphile',
      (ours?.pgCpuMs ?? Number.NaN) / (theirs?.pgCpuMs ?? Number.NaN),
      1.3,
      false,
    );
    verdict(
      'cached GraphQL page / cached REST page',
      rps('ours GraphQL, cached') / rps('ours REST, cached'),
      0.9,
    );
    verdict(
      'cached REST page / bare node:http',
      rps('ours REST, cached') / rps('bare node:http, fixed bytes'),
      0.5,
    );
  } finally {
    await db.close();
    for (const server of servers) server.stop();
  }
}

withBenchDatabase('peers', run)
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
