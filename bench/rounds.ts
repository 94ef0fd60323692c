// What bench/peers.ts and bench/cluster.ts share: the product page as each server is asked for it,
// and alternating rounds over server targets with CPU per request (each server's process tree, and
// PostgreSQL's), reported as the median round of each.
import { cpuSince, postgresCpuMs } from './alternating';
import { type AppProcess, type LoadResult, runLoad, treeCpuMsOf } from './processes';

export const PAGE = '/api/v1/product?limit=25';
const FIELDS = 'id name slug sku priceAmount compareAtAmount currency stock status categoryId';
/** The same 25 products with their category, by our /graphql. */
export const GRAPHQL_PAGE = JSON.stringify({
  query: `{ products(limit: 25) { items { ${FIELDS} category { id name } createdAt updatedAt } pagination { totalResults currentPage limit lastPage } } }`,
});
/** The same 25 products with their category, by PostGraphile's schema over our tables. */
export const postgraphilePage = (storeId: string) =>
  JSON.stringify({
    query: `query Page($storeId: String!) { allProducts(first: 25, condition: { storeId: $storeId }, orderBy: [CREATED_AT_DESC, ID_DESC]) { totalCount nodes { ${FIELDS} categoryByCategoryId { id name } createdAt updatedAt } } }`,
    variables: { storeId },
  });

export interface Target {
  name: string;
  server: AppProcess;
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  okStatus?: number;
}
/** A round's result with CPU ms per request: the server's process tree's, and the bench database's PostgreSQL backends'. */
export type Measured = LoadResult & { cpuMs: number; pgCpuMs: number };
export type Medians = Map<string, Measured & { all: number[] }>;

/**
 * A warm-up of each target, then `rounds` rounds in which every target is loaded in turn (so a slow
 * spell of the machine falls on all of them), and the median round of each by throughput.
 */
export async function serverRounds(
  targets: Target[],
  options: { keys: string[]; concurrency: number; durationMs: number; rounds: number; database: string },
): Promise<Medians> {
  const load = (target: Target, durationMs: number) =>
    runLoad({
      url: target.url,
      method: target.method,
      body: target.body,
      okStatus: target.okStatus,
      keys: options.keys,
      durationMs,
      concurrency: options.concurrency,
    });
  for (const target of targets) await load(target, 1500);
  const rounds = new Map<string, Measured[]>();
  for (let round = 0; round < options.rounds; round++) {
    for (const target of targets) {
      const pid = target.server.child.pid as number;
      const cpuBefore = treeCpuMsOf(pid);
      const pgBefore = postgresCpuMs(options.database);
      const result = await load(target, options.durationMs);
      if (result.errors > 0)
        throw new Error(
          `${target.name}: ${result.errors} answers were not ${target.okStatus ?? 200}: ${JSON.stringify(result.unexpected)}`,
        );
      const measured = {
        ...result,
        cpuMs: (treeCpuMsOf(pid) - cpuBefore) / result.requests,
        pgCpuMs: cpuSince(pgBefore, postgresCpuMs(options.database)) / result.requests,
      };
      rounds.set(target.name, [...(rounds.get(target.name) ?? []), measured]);
    }
  }
  const medians: Medians = new Map();
  for (const [name, results] of rounds) {
    const sorted = [...results].sort((a, b) => a.rps - b.rps);
    medians.set(name, {
      ...(sorted[Math.floor(sorted.length / 2)] as Measured),
      all: results.map((r) => r.rps),
    });
  }
  return medians;
}
