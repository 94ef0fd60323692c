import { seedDemoStore } from '../../prisma/seed/demo-store';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { pathOf, type RouteUnderTest, routesUnderTest } from './routes';
import { samplesFor } from './samples';

/**
 * Tenants never see each other: every route that takes an id answers 404 when the id belongs to
 * another store (and changes nothing there), and no list shows another store's rows.
 */

let server: TestServer;
/** The seeded demo store: rows of every kind. */
let storeA: string;
let keyA: string;
/** A second store with a few rows of its own. */
let storeB: string;
let keyB: string;

/** Table of each id prefix, to find the store a returned row belongs to. */
const tableOfPrefix: Record<string, string> = {
  usr: 'StaffUser',
  key: 'ApiKey',
  cat: 'Category',
  prd: 'Product',
  cus: 'Customer',
  ord: 'Order',
  cpn: 'Coupon',
  rev: 'Review',
  whe: 'WebhookEndpoint',
  evt: 'Event',
  msg: 'WebhookDelivery',
  aud: 'AuditEntry',
};

async function storeOfRow(id: string): Promise<string> {
  const table = tableOfPrefix[id.split('_')[0] as string];
  if (!table) throw new Error(`unknown id prefix in ${id}`);
  const rows = await server.prisma.$queryRawUnsafe<Array<{ storeId: string }>>(
    `select "storeId" from "${table}" where id = $1`,
    id,
  );
  if (rows.length !== 1) throw new Error(`no ${table} row ${id}`);
  return (rows[0] as { storeId: string }).storeId;
}

const itemId = (item: { id?: string; keyId?: string }) => item.id ?? item.keyId ?? '';

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  const seeded = await seedDemoStore(server.prisma);
  storeA = seeded.storeId;
  keyA = seeded.apiKey as string;
  storeB = (await makeStore(server.prisma)).id;
  keyB = (await makeKey(server.prisma, storeB)).secret;
  // Store B gets rows of its own through its own samples, so its lists are not trivially empty.
  const samplesB = samplesFor(server.prisma, storeB);
  for (const name of ['GET /category/{id}', 'GET /product/{id}', 'GET /customer/{id}', 'GET /coupon/{id}']) {
    await samplesB[name]?.();
  }
});
afterAll(() => server.close());

const withId = routesUnderTest.filter((entry) => entry.pathParams.length > 0 && entry.scope !== null);
const lists = routesUnderTest.filter(
  (entry) => entry.route.result.kind === 'list' && entry.pathParams.length === 0,
);

async function send(entry: RouteUnderTest, params: Record<string, string>, key: string, body?: unknown) {
  const json = body === undefined ? undefined : JSON.stringify(body);
  const res = await server.request(pathOf(entry.route, params), {
    method: entry.route.method,
    key,
    ...(json ? { body: json, headers: { 'content-type': 'application/json' } } : {}),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

describe('another store’s id is not found', () => {
  it('covers every route with an id', () => expect(withId.length).toBeGreaterThanOrEqual(15));

  it.each(withId.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const sample = samplesFor(server.prisma, storeA)[entry.name];
    if (!sample) throw new Error(`no sample for ${entry.name}`);
    const { params, body } = await sample();
    const eventsBefore = await server.prisma.event.count({ where: { storeId: storeA } });

    const answer = await send(entry, params, keyB, body);

    expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    // Nothing happened in store A: no event, and the target is still there.
    expect(await server.prisma.event.count({ where: { storeId: storeA } })).toBe(eventsBefore);
    for (const id of Object.values(params)) expect(await storeOfRow(id)).toBe(storeA);
    // The owner still reaches it.
    const own = await send(entry, params, keyA, body);
    expect(own.status).toBeLessThan(300);
  });
});

describe('no list shows another store’s rows', () => {
  it.each(lists.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
    const owners = async (key: string) => {
      const answer = await send(entry, {}, key);
      expect(answer.status).toBe(200);
      const results = answer.body.data as Array<{ id?: string; keyId?: string }>;
      expect(answer.body.pagination.results).toEqual([]);
      return Promise.all(results.map((item) => storeOfRow(itemId(item))));
    };
    // A row of A's own made just now (through the sample of the list's get-by-id route, where there is one).
    await samplesFor(server.prisma, storeA)[`GET ${entry.route.path}/{id}`]?.();
    const seenByA = await owners(keyA);
    expect(seenByA.length).toBeGreaterThan(0);
    expect(new Set(seenByA)).toEqual(new Set([storeA]));
    const seenByB = await owners(keyB);
    expect(seenByB.filter((owner) => owner !== storeB)).toEqual([]);
  });
});
