import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/cli/run';
import { type Context, systemContext } from '../../src/context';
import { createLogger } from '../../src/logger';
import { updateProduct } from '../../src/modules/products/service';
import { writeStore } from '../../src/resources/store-writes';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * README "Read cache": the data version is replaced where a store write commits, whatever made the
 * write — a door, a job, the CLI or a service call outside any door — so a cached read never
 * answers with data older than a write that has returned.
 */

let server: TestServer;
let store: { id: string; key: string };
let productId: string;
const statements: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ READ_CACHE_TTL_MS: '60000' }, { onQuery: (sql) => statements.push(sql) });
  store = await makeStoreWithKey(server.prisma);
  const res = await server.send('POST', '/api/v1/product', { name: 'Original', priceAmount: 100 }, store.key);
  productId = (await res.json()).data.id;
});
afterAll(() => server.close());

const restNames = async () =>
  (
    (await (await server.request('/api/v1/product', { key: store.key })).json()).data as Array<{
      name: string;
    }>
  )
    .map((p) => p.name)
    .sort();
const graphqlNames = async () =>
  (
    (await (await server.graphql('{ products { items { name } } }', {}, store.key)).json()).data.products
      .items as Array<{ name: string }>
  )
    .map((p) => p.name)
    .sort();

/** Both reads, asked twice: the second of each must come from the cache (no SQL). */
async function cachedReads() {
  await restNames();
  await graphqlNames();
  statements.length = 0;
  const names = { rest: await restNames(), graphql: await graphqlNames() };
  expect(statements).toEqual([]);
  return names;
}

/** A context as a job or script builds it: the process's services, acting for the store, no HTTP. */
const outsideAnyDoor = (): Context =>
  systemContext(server.runtime.services, { id: store.id, plan: 'PRO' }, createLogger('silent'));

it('a service call outside any door is seen at once by cached REST and GraphQL reads', async () => {
  expect(await cachedReads()).toEqual({ rest: ['Original'], graphql: ['Original'] });
  await updateProduct(outsideAnyDoor(), productId, { name: 'Renamed by a job' });
  expect({ rest: await restNames(), graphql: await graphqlNames() }).toEqual({
    rest: ['Renamed by a job'],
    graphql: ['Renamed by a job'],
  });
});

it('a raw write through writeStore (the helper every store write passes through) is seen at once', async () => {
  await cachedReads();
  await writeStore(server.runtime.services, store.id, (tx) =>
    tx.product.update({ where: { id: productId }, data: { name: 'Written by SQL in a store write' } }),
  );
  expect(await restNames()).toEqual(['Written by SQL in a store write']);
  expect(await graphqlNames()).toEqual(['Written by SQL in a store write']);
});

it('a write that fails still replaces the version: a lost acknowledgement leaves nothing stale', async () => {
  await cachedReads();
  await expect(
    writeStore(server.runtime.services, store.id, async (tx) => {
      await tx.product.update({ where: { id: productId }, data: { name: 'Rolled back' } });
      throw new Error('the write fails after its statement');
    }),
  ).rejects.toThrow('the write fails');
  statements.length = 0;
  expect(await restNames()).toEqual(['Written by SQL in a store write']);
  expect(statements.length).toBeGreaterThan(0);
});

it('a product imported with the admin CLI is seen at once by cached REST and GraphQL reads', async () => {
  const before = await cachedReads();
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'import-')), 'products.json');
  await writeFile(file, JSON.stringify([{ name: 'Imported', priceAmount: 250 }, { name: '' }]));
  const out: string[] = [];
  const status = await runCli(['product', 'import', '--store', store.id, '--file', file], {
    db: server.prisma,
    storeChanged: server.runtime.services.storeChanged,
    out: (text) => out.push(text),
    err: (text) => out.push(text),
  });
  // One product refused (no name) makes the exit status 1; the other was made.
  expect(status).toBe(1);
  expect(out.join('\n')).toMatch(/Created 1 of 2 products/);
  expect(out.join('\n')).toMatch(/<product 1>: VALIDATION_ERROR input\.name: is required/);
  expect(await restNames()).toEqual([...before.rest, 'Imported'].sort());
  expect(await graphqlNames()).toEqual([...before.graphql, 'Imported'].sort());
});
