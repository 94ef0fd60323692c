import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, seedDemoStore } from '../../prisma/seed/demo-store';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { callRoute, doors } from './call';
import { type RouteUnderTest, routesUnderTest } from './routes';
import { type Sample, samplesFor } from './samples';

/**
 * Tenants never see each other: every route that takes an id answers 404 when the id belongs to
 * another store (and changes nothing there), and no list shows another store's rows — for an API key
 * and for a dashboard session (the store's OWNER), through REST and through GraphQL (the route's own
 * operation). MCP takes keys only; its tools run the same operations (test/mcp).
 */

let server: TestServer;
/** The seeded demo store: rows of every kind. */
let storeA: string;
/** A second store with a few rows of its own. */
let storeB: string;

/** Each kind of principal: store A's and store B's credential of that kind. */
const principals = ['API key', 'OWNER session'] as const;
type PrincipalKind = (typeof principals)[number];
const credentials = {} as Record<PrincipalKind, { a: string; b: string }>;

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
  wrc: 'WebhookRecovery',
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
  storeB = (await makeStore(server.prisma)).id;
  // Store A's session is the demo owner's own sign-in.
  const login = await server.send('POST', '/api/v1/auth/login', {
    email: DEMO_OWNER_EMAIL,
    password: DEMO_PASSWORD,
  });
  credentials['API key'] = {
    a: seeded.apiKey as string,
    b: (await makeKey(server.prisma, storeB)).secret,
  };
  credentials['OWNER session'] = {
    a: (await login.json()).data.token,
    b: (await signInAs(server, storeB, 'OWNER')).token,
  };
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

it('covers every route with an id and every list', () => {
  expect(withId.length).toBeGreaterThanOrEqual(15);
  expect(lists.length).toBeGreaterThanOrEqual(10);
});

describe.each(principals.flatMap((principal) => doors.map((door) => [principal, door] as const)))(
  'with an %s through %s',
  (principal, door) => {
    const call = (entry: RouteUnderTest, sample: Sample, store: 'a' | 'b') =>
      callRoute(server, door, entry, sample, credentials[principal][store]);

    describe('another store’s id is not found', () => {
      it.each(withId.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
        const make = samplesFor(server.prisma, storeA)[entry.name];
        if (!make) throw new Error(`no sample for ${entry.name}`);
        const sample = await make();
        const eventsBefore = await server.prisma.event.count({ where: { storeId: storeA } });

        const answer = await call(entry, sample, 'b');

        expect({ status: answer.status, code: answer.code }).toEqual({
          status: door === 'REST' ? 404 : 200,
          code: 'NOT_FOUND',
        });
        // Nothing happened in store A: no event, and the target is still there.
        expect(await server.prisma.event.count({ where: { storeId: storeA } })).toBe(eventsBefore);
        for (const id of Object.values(sample.params)) expect(await storeOfRow(id)).toBe(storeA);
        // The owner still reaches it.
        const own = await call(entry, sample, 'a');
        expect({ ok: own.status < 300, code: own.code }).toEqual({ ok: true, code: undefined });
      });
    });

    describe('no list shows another store’s rows', () => {
      it.each(lists.map((entry) => [entry.name, entry] as const))('%s', async (_name, entry) => {
        const owners = async (store: 'a' | 'b') => {
          const answer = await call(entry, { params: {} }, store);
          expect({ status: answer.status, code: answer.code }).toEqual({ status: 200, code: undefined });
          const results = answer.items ?? [];
          return Promise.all(results.map((item) => storeOfRow(itemId(item))));
        };
        // A row of A's own made just now (through the sample of the list's get-by-id route, where there is one).
        await samplesFor(server.prisma, storeA)[`GET ${entry.route.path}/{id}`]?.();
        const seenByA = await owners('a');
        expect(seenByA.length).toBeGreaterThan(0);
        expect(new Set(seenByA)).toEqual(new Set([storeA]));
        const seenByB = await owners('b');
        expect(seenByB.filter((owner) => owner !== storeB)).toEqual([]);
      });
    });
  },
);
