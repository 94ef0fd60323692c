import type { Plan } from '../../prisma/generated/client/enums';
import type { Principal } from '../../src/access/principal';
import { roleScopes } from '../../src/access/roles';
import { allScopePairs } from '../../src/access/scopes';
import { noSessionCookie } from '../../src/auth/session-cookie';
import type { Context } from '../../src/context';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/logger';
import { assertWebhookAccess } from '../../src/modules/webhooks/service';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { callRoute, type Door, doors, successStatus } from './call';
import { type RouteUnderTest, routesUnderTest } from './routes';
import { type Sample, samplesFor } from './samples';

/**
 * docs/design.md "Plans and stores": a plan without API access (FREE, STARTER) gates API keys only — a key is
 * refused at authentication, managing keys through a session is 403 PLAN_NOT_ELIGIBLE — and a plan
 * without `canAccessWebhooks` refuses webhook management (403 WEBHOOKS_NOT_AVAILABLE). Everything
 * else the owner runs with a dashboard session, through either door.
 */

const plansWithoutApi: Plan[] = ['FREE', 'STARTER'];

let server: TestServer;
const stores = {} as Record<Plan, { id: string; samples: Record<string, () => Promise<Sample>> }>;
/** An OWNER session per plan and door. */
const tokens = {} as Record<Plan, Record<Door, string>>;

beforeAll(async () => {
  server = await startTestServer();
  for (const plan of plansWithoutApi) {
    const id = (await makeStore(server.prisma, { plan })).id;
    stores[plan] = { id, samples: samplesFor(server.prisma, id) };
    tokens[plan] = {} as Record<Door, string>;
    for (const door of doors) tokens[plan][door] = (await signInAs(server, id, 'OWNER')).token;
  }
});
afterAll(() => server.close());

/** The plan gate a route is behind, by the part of the API it belongs to. */
const gateOf = (entry: RouteUnderTest) =>
  entry.route.path.startsWith('/api-key')
    ? 'PLAN_NOT_ELIGIBLE'
    : entry.route.path.startsWith('/store/webhooks')
      ? 'WEBHOOKS_NOT_AVAILABLE'
      : null;

const scoped = routesUnderTest.filter((entry) => entry.scope !== null);

describe.each(plansWithoutApi)('an OWNER session of a %s store', (plan) => {
  it('finds both gates and the rest of the store in the route table', () => {
    const gates = scoped.map(gateOf);
    expect(gates.filter((gate) => gate === 'PLAN_NOT_ELIGIBLE')).toHaveLength(8);
    expect(gates.filter((gate) => gate === 'WEBHOOKS_NOT_AVAILABLE')).toHaveLength(16);
    expect(gates.filter((gate) => gate === null).length).toBeGreaterThan(30);
  });

  describe.each(doors)('through %s', (door) => {
    it.each(scoped.map((entry) => [entry.name, gateOf(entry) ?? 'runs it', entry] as const))(
      '%s: %s',
      async (_name, _gate, entry) => {
        const sample = await stores[plan].samples[entry.name]?.();
        if (!sample) throw new Error(`no sample for ${entry.name}`);
        const answer = await callRoute(server, door, entry, sample, tokens[plan][door]);
        const gate = gateOf(entry);
        if (gate) {
          expect({ status: answer.status, code: answer.code }).toEqual({
            status: door === 'REST' ? 403 : 200,
            code: gate,
          });
        } else {
          expect({ status: answer.status, code: answer.code }).toEqual({
            status: door === 'REST' ? successStatus(entry) : 200,
            code: undefined,
          });
        }
      },
    );
  });

  it('refuses the store’s API keys at authentication, on every door: 403 PLAN_NOT_ELIGIBLE', async () => {
    const key = (await makeKey(server.prisma, stores[plan].id)).secret;
    const rest = await server.request('/api/v1/product', { key });
    expect({ status: rest.status, code: (await rest.json()).code }).toEqual({
      status: 403,
      code: 'PLAN_NOT_ELIGIBLE',
    });
    const graphql = await server.graphql('{ products { items { id } } }', {}, key);
    expect({ status: graphql.status, code: (await graphql.json()).errors[0].extensions.code }).toEqual({
      status: 403,
      code: 'PLAN_NOT_ELIGIBLE',
    });
  });
});

describe('the webhook gate reads the plan, whoever calls', () => {
  // No plan with API access lacks webhooks today, so a key never meets this gate over HTTP; the check
  // itself is the same for both kinds of principal.
  const contextOf = (principal: Principal): Context => ({
    prisma: server.prisma,
    now: () => new Date(),
    invalidateAuth: async () => {},
    loginThrottle: { attempt: async () => {}, succeed: async () => {}, giveBack: async () => {} },
    principal,
    requestId: 'req_test',
    clientAddress: undefined,
    userAgent: undefined,
    log: createLogger('silent'),
    sessionCookie: noSessionCookie,
  });
  const key = (plan: Plan): Principal => ({
    kind: 'apiKey',
    keyId: 'key_test',
    storeId: 'str_test',
    plan,
    environment: 'production',
    scopes: new Set(allScopePairs()),
    canChangeOwner: true,
    ipAllowlist: [],
    expiresAt: null,
    usageLimit: null,
  });
  const session = (plan: Plan): Principal => ({
    kind: 'session',
    sessionId: 'ses_test',
    staffUserId: 'usr_test',
    storeId: 'str_test',
    plan,
    role: 'OWNER',
    scopes: roleScopes('OWNER'),
  });
  const codeOf = (principal: Principal) => {
    try {
      assertWebhookAccess(contextOf(principal));
      return 'allowed';
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  };

  it.each([
    ['FREE', 'WEBHOOKS_NOT_AVAILABLE'],
    ['STARTER', 'WEBHOOKS_NOT_AVAILABLE'],
    ['PRO', 'allowed'],
    ['SCALE', 'allowed'],
  ] as const)('%s: %s for a key and for a session', (plan, verdict) => {
    expect([codeOf(key(plan)), codeOf(session(plan))]).toEqual([verdict, verdict]);
  });
});
