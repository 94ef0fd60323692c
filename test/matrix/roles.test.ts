import type { StaffRole } from '../../prisma/generated/client/enums';
import { roleScopes } from '../../src/access/roles';
import { declaredScope } from '../../src/field-extensions';
import { schema } from '../../src/schema';
import { makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { type Answer, callGraphql, callRoute, type Door, doors, successStatus } from './call';
import { type RouteUnderTest, routesUnderTest } from './routes';
import {
  connectionSample,
  type GraphqlSample,
  graphqlOnlySamplesFor,
  type Sample,
  samplesFor,
} from './samples';

/**
 * docs/design.md "Who may do what" as a matrix over the route table and the schema: every role ×
 * every REST route, and every role × every scoped GraphQL root field. A role holding the field's
 * pair (src/access/roles.ts) gets the route's own success — so an OWNER session does everything a key
 * with every scope does; a role lacking it is refused with 403 FORBIDDEN naming the role and the
 * missing right.
 */

const roles: StaffRole[] = ['OWNER', 'ADMIN', 'STAFF'];

let server: TestServer;
let storeId: string;
let samples: Record<string, () => Promise<Sample>>;
let graphqlSamples: Record<string, () => Promise<GraphqlSample>>;
/** A signed-in staff member per door and role, so no one session carries the whole matrix. */
const tokens = {} as Record<Door, Record<StaffRole, string>>;

beforeAll(async () => {
  server = await startTestServer();
  storeId = (await makeStore(server.prisma)).id;
  samples = samplesFor(server.prisma, storeId);
  graphqlSamples = graphqlOnlySamplesFor(server.prisma, storeId);
  for (const door of doors) {
    tokens[door] = {} as Record<StaffRole, string>;
    for (const role of roles) tokens[door][role] = (await signInAs(server, storeId, role)).token;
  }
});
afterAll(() => server.close());

const scoped = routesUnderTest.filter((entry) => entry.scope !== null);
const may = (role: StaffRole, scope: string) => roleScopes(role).has(scope);

/**
 * What the role must get: the door's success, or FORBIDDEN naming role and right (HTTP 403 through
 * REST; through GraphQL an error inside execution, so HTTP 200).
 */
function expectVerdict(answer: Answer, door: Door, role: StaffRole, scope: string, success: number) {
  if (may(role, scope)) {
    expect({ status: answer.status, code: answer.code }).toEqual({ status: success, code: undefined });
  } else {
    expect({ status: answer.status, code: answer.code, message: answer.message }).toEqual({
      status: door === 'REST' ? 403 : 200,
      code: 'FORBIDDEN',
      message: `The ${role} role may not ${scope}`,
    });
  }
}

const cases = (entries: RouteUnderTest[]) =>
  roles.flatMap((role) =>
    entries.map((entry) => {
      const scope = entry.scope as string;
      return [role, may(role, scope) ? 'may' : 'may not', entry.name, scope, entry] as const;
    }),
  );

async function sampleOf(entry: RouteUnderTest) {
  const make = samples[entry.name];
  if (!make) throw new Error(`no sample request for ${entry.name}: add one to test/matrix/samples.ts`);
  return make();
}

describe.each(doors)('the role matrix through %s', (door) => {
  it.each(cases(scoped))('%s %s %s (%s)', async (role, _verdict, _name, scope, entry) => {
    const answer = await callRoute(server, door, entry, await sampleOf(entry), tokens[door][role]);
    expectVerdict(answer, door, role, scope, door === 'REST' ? successStatus(entry) : 200);
    if (door === 'GraphQL' && may(role, scope)) expect(answer.data).toEqual(expect.anything());
  });
});

describe('the role matrix for root fields only GraphQL has', () => {
  /** Scoped root fields that no REST route runs: the Relay connections and a few single reads. */
  const reached = new Set(routesUnderTest.map((entry) => entry.rootField));
  const graphqlOnly = [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
    Object.values(type?.getFields() ?? {})
      .filter((field) => declaredScope(field) !== null && !reached.has(field.name))
      .map((field) => ({ name: field.name, scope: declaredScope(field) as string })),
  );
  const sampleFor = async (field: string) =>
    field.endsWith('Connection') ? connectionSample(field) : graphqlSamples[field]?.();

  it('reaches every scoped root field, through a route or a sample of its own', async () => {
    expect(graphqlOnly.length).toBeGreaterThanOrEqual(7);
    const missing = [];
    for (const { name } of graphqlOnly) if (!(await sampleFor(name))) missing.push(name);
    expect(missing).toEqual([]);
  });

  it.each(
    roles.flatMap((role) =>
      graphqlOnly.map(
        ({ name, scope }) => [role, may(role, scope) ? 'may' : 'may not', name, scope] as const,
      ),
    ),
  )('%s %s query %s (%s)', async (role, _verdict, name, scope) => {
    const answer = await callGraphql(server, (await sampleFor(name)) as GraphqlSample, tokens.GraphQL[role]);
    expectVerdict(answer, 'GraphQL', role, scope, 200);
    if (may(role, scope)) expect((answer.data as Record<string, unknown>)[name]).toEqual(expect.anything());
  });
});

it('lets STAFF place an order with the coupon code a customer gives, though coupons are not theirs to read', async () => {
  const product = await server.prisma.product.create({
    data: { storeId, name: 'Mug', slug: 'mug-coupon', priceAmount: 2000, currency: 'USD', stock: 3 },
  });
  await server.prisma.coupon.create({ data: { storeId, code: 'FRIEND10', type: 'percent', value: 10 } });
  const staff = { authorization: `Bearer ${tokens.REST.STAFF}`, 'content-type': 'application/json' };
  const res = await server.request('/api/v1/order', {
    method: 'POST',
    headers: staff,
    body: JSON.stringify({
      email: 'buyer@example.test',
      items: [{ productId: product.id, quantity: 1 }],
      couponCode: 'FRIEND10',
    }),
  });
  expect(res.status).toBe(201);
  expect((await res.json()).data).toEqual(
    expect.objectContaining({ discountAmount: 200, totalAmount: 1800 }),
  );
  const coupons = await server.request('/api/v1/coupon', { headers: staff });
  expect({ status: coupons.status, code: (await coupons.json()).code }).toEqual({
    status: 403,
    code: 'FORBIDDEN',
  });
});
