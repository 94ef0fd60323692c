import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { admissionLua, sessionAdmissionLua } from '../../src/admission/admission.lua';
import { costBudgetLua, costRefundLua } from '../../src/cost/budget.lua';
import { createLogger } from '../../src/logger';
import { dataVersionLua } from '../../src/read-cache/data-version';
import { connectRedis } from '../../src/redis';
import { redisUrl } from '../helpers/databases';
import { makeCategories, makeKey, makeStore } from '../helpers/factories';
import { commandsSent, deleteKeys, ready } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { rpc } from '../mcp/client';

/**
 * README "Query limits and cost": the Redis round trips of one request, door by door, with the read
 * cache and the cost budget on. A read — /graphql or REST, answered from the cache or not, by a key or
 * a session — is admitted in one script: rate limit, usage, the store's data version and the budget's
 * charge together. A REST write and an MCP tool call have their cost only in the pipeline, and their
 * charge is a script of its own. After execution, an answer that held less than it asked for gives
 * the difference back in one more script (issue 32); one that held all of it sends nothing more.
 */
const scripts = new Map(
  [
    ['admission', admissionLua],
    ['session admission', sessionAdmissionLua],
    ['cost budget', costBudgetLua],
    ['cost refund', costRefundLua],
    ['data version', dataVersionLua],
  ].map(([name, lua]) => [
    createHash('sha1')
      .update(lua as string)
      .digest('hex'),
    name as string,
  ]),
);

let redis: Redis;
let server: TestServer;
let key: string;
let storeId: string;

beforeAll(async () => {
  redis = connectRedis(redisUrl, createLogger('silent'), { commandTimeoutMs: 2000 });
  await ready(redis);
  server = await startTestServer({ READ_CACHE_TTL_MS: '60000', REDIS_TIMEOUT_MS: '2000' }, { redis });
  storeId = (await makeStore(server.prisma)).id;
  key = (await makeKey(server.prisma, storeId)).secret;
});
afterAll(async () => {
  await server.close();
  await deleteKeys(redis, server.redisKeyPrefix);
  await redis.quit();
});

/** The commands the request sends to Redis, a script by its name. */
async function roundTrips(request: () => Promise<Response>, status: number): Promise<string[]> {
  let answered: Response | undefined;
  const sent = await commandsSent(redis, async () => {
    answered = await request();
    await answered.arrayBuffer();
  });
  expect(answered?.status).toBe(status);
  return sent.map(({ name, args }) =>
    name === 'evalsha' ? (scripts.get(String(args[0])) ?? `evalsha ${args[0]}`) : name,
  );
}

const page = '{ products(limit: 25) { items { id name } } }';
const listProducts = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'list_products', arguments: { limit: 25 } },
};

/** A category written behind the API's back: an answer from the read cache does not show it. */
const addCategoryBehindTheCache = (name: string) =>
  server.prisma.category.create({ data: { storeId, name, slug: `${name}-${Date.now()}` } });

it('admits a /graphql read, answered by the cache or not, in one script, then refunds what its answer did not use', async () => {
  const query = '{ categories(limit: 5) { items { id } } }';
  await server.graphql(page, {}, key); // the scripts are loaded on this connection (EVALSHA, then EVAL)
  expect(await roundTrips(() => server.graphql(query, {}, key), 200)).toEqual(['admission', 'cost refund']);
  await addCategoryBehindTheCache('graphql');
  let cached: unknown;
  const fromCache = async () => {
    const res = await server.graphql(query, {}, key);
    cached = await res.clone().json();
    return res;
  };
  expect(await roundTrips(fromCache, 200)).toEqual(['admission', 'cost refund']);
  expect(cached).toMatchObject({ data: { categories: { items: [] } } });
});

it('admits a signed-in staff member’s /graphql read in one script, then refunds', async () => {
  const { token } = await signInAs(server, storeId, 'OWNER');
  const asStaff = () =>
    server.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: page }),
    });
  await asStaff();
  expect(await roundTrips(asStaff, 200)).toEqual(['session admission', 'cost refund']);
});

it('admits a REST read, answered by the cache or not, in one script, then refunds what its answer did not use', async () => {
  const read = () => server.request('/api/v1/product?limit=3', { key });
  expect(await roundTrips(read, 200)).toEqual(['admission', 'cost refund']);
  await server.prisma.product.create({
    data: {
      storeId,
      name: 'Behind',
      slug: `behind-${Date.now()}`,
      sku: `B-${Date.now()}`,
      priceAmount: 100,
      currency: 'USD',
    },
  });
  let cached: unknown;
  const fromCache = async () => {
    const res = await read();
    cached = await res.clone().json();
    return res;
  };
  expect(await roundTrips(fromCache, 200)).toEqual(['admission', 'cost refund']);
  expect(cached).toMatchObject({ data: [] });
});

it('charges a REST write in a script of its own, after admission', async () => {
  const write = () => server.send('POST', '/api/v1/category', { name: `Coats ${Date.now()}` }, key);
  await write();
  // ... and replaces the store's data version once the write is made (README "Read cache")
  expect(await roundTrips(write, 201)).toEqual(['admission', 'cost budget', 'set', 'cost refund']);
});

it('charges an MCP tool call in a script of its own, after the request’s admission', async () => {
  const call = () => rpc(server, listProducts, { key });
  await call();
  // ... and reads the store's data version on its own: its door does not know the call is a read
  expect(await roundTrips(call, 200)).toEqual(['admission', 'cost budget', 'data version', 'cost refund']);
});

it('sends no refund for an answer that held all it asked for', async () => {
  const full = await makeStore(server.prisma);
  await makeCategories(server.prisma, full.id, ['One', 'Two', 'Three']);
  const fullKey = (await makeKey(server.prisma, full.id)).secret;
  const query = '{ categories(limit: 3) { items { id } } }';
  const read = () => server.graphql(query, {}, fullKey);
  await read();
  expect(await roundTrips(read, 200)).toEqual(['admission']);
});
