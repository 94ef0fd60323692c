import { allScopePairs, toScopeObjects } from '../../src/access/scopes';
import { schema } from '../../src/schema';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { pathOf, type RouteUnderTest, routesUnderTest, scopeOf } from './routes';
import { type Sample, samplesFor } from './samples';

/**
 * docs/design.md "Scopes" as a matrix over the whole REST table: every route refuses a key that holds every
 * scope but its exact (resource, action) pair, and accepts a key that holds only that pair.
 */

let server: TestServer;
let storeId: string;
let samples: Record<string, () => Promise<Sample>>;

beforeAll(async () => {
  server = await startTestServer();
  storeId = (await makeStore(server.prisma)).id;
  samples = samplesFor(server.prisma, storeId);
});
afterAll(() => server.close());

const scoped = routesUnderTest.filter((entry) => entry.scope !== null);

const keyWith = async (pairs: string[]) =>
  (await makeKey(server.prisma, storeId, { scopes: toScopeObjects(pairs) })).secret;

async function sampleOf(entry: RouteUnderTest): Promise<Sample> {
  const make = samples[entry.name];
  if (!make) throw new Error(`no sample request for ${entry.name}: add one to test/matrix/samples.ts`);
  return make();
}

async function call(entry: RouteUnderTest, key: string, sample: Sample) {
  const body = sample.body === undefined ? undefined : JSON.stringify(sample.body);
  const res = await server.request(pathOf(entry.route, sample.params), {
    method: entry.route.method,
    key,
    ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
  });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

describe('REST scope matrix', () => {
  it('covers the route table, and only the session routes are public', () => {
    expect(scoped.length).toBeGreaterThan(30);
    expect(routesUnderTest.filter((entry) => entry.scope === null).map((entry) => entry.name)).toEqual([
      'POST /auth/login',
      'POST /auth/logout',
      'GET /auth/session',
      'POST /auth/password',
      'POST /auth/sessions/sign-out-others',
      'GET /auth/invitation',
      'POST /auth/accept-invite',
    ]);
  });

  it('has a sample request for every route', () => {
    expect(routesUnderTest.filter((entry) => entry.scope && !samples[entry.name]).map((e) => e.name)).toEqual(
      [],
    );
  });

  it.each(scoped.map((entry) => [entry.name, entry.scope, entry] as const))(
    '%s refuses a key without %s',
    async (_name, scope, entry) => {
      const key = await keyWith(allScopePairs().filter((pair) => pair !== scope));
      const { status, body } = await call(entry, key, await sampleOf(entry));
      expect({ status, code: body?.code }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    },
  );

  it.each(scoped.map((entry) => [entry.name, entry.scope, entry] as const))(
    '%s accepts a key holding only %s (and what the credential rule needs of that request)',
    async (_name, scope, entry) => {
      const sample = await sampleOf(entry);
      const { status, body } = await call(
        entry,
        await keyWith([scope as string, ...(sample.needs ?? [])]),
        sample,
      );
      expect({ status, code: body?.code }).toEqual({
        status: entry.route.status ?? (entry.route.result.kind === 'empty' ? 204 : 200),
        code: undefined,
      });
    },
  );
});

describe('GraphQL scope matrix for the Relay connections (fields REST does not reach)', () => {
  const connections = Object.values(schema.getQueryType()?.getFields() ?? {}).filter((field) =>
    field.name.endsWith('Connection'),
  );

  it('finds the connections', () => expect(connections.length).toBeGreaterThanOrEqual(4));

  it.each(connections.map((field) => [field.name, scopeOf(field.name)] as const))(
    '%s needs exactly %s',
    async (name, scope) => {
      const query = `{ ${name}(first: 2) { edges { cursor node { __typename } } pageInfo { hasNextPage } } }`;
      const refused = await (
        await server.graphql(query, {}, await keyWith(allScopePairs().filter((pair) => pair !== scope)))
      ).json();
      expect(refused.errors?.[0]?.extensions?.code).toBe('INSUFFICIENT_SCOPE');
      const accepted = await (await server.graphql(query, {}, await keyWith([scope as string]))).json();
      expect(accepted.errors).toBeUndefined();
      expect(accepted.data[name].edges).toEqual(expect.any(Array));
    },
  );
});
