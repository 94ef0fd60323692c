import type { Plan, StaffRole } from '../../prisma/generated/client/enums';
import { allScopes, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Signs a new staff member of a new store in through POST /auth/login and returns the bearer token. */
async function signedIn(role: StaffRole, plan: Plan = 'PRO') {
  const store = await makeStore(server.prisma, { plan });
  return { ...(await signInAs(server, store.id, role)), storeId: store.id };
}

const asSession = (token: string, init: RequestInit = {}) => ({
  ...init,
  headers: {
    ...(init.headers as Record<string, string>),
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  },
});

const newKey = { keyName: 'from the dashboard', environment: 'production', scopes: allScopes() };

describe('API keys through a dashboard session', () => {
  it.each(['OWNER', 'ADMIN'] as const)(
    'an %s may create a key with any scope, recorded as that staff user',
    async (role) => {
      const { token, staffId } = await signedIn(role);
      const res = await server.request(
        '/api/v1/api-key',
        asSession(token, { method: 'POST', body: JSON.stringify(newKey) }),
      );
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data.scopes).toHaveLength(21);
      const key = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: data.keyId } });
      expect(key.createdByStaffId).toBe(staffId);
      const audit = await server.prisma.auditEntry.findFirstOrThrow({ where: { targetId: data.keyId } });
      expect(audit).toEqual(
        expect.objectContaining({ actorType: 'staff', actorId: staffId, action: 'api_key.created' }),
      );
      expect((await server.request('/api/v1/api-key', asSession(token))).status).toBe(200);
    },
  );

  it('refuses a staff member with 403 FORBIDDEN naming the role and the right', async () => {
    const { token } = await signedIn('STAFF');
    const list = await server.request('/api/v1/api-key', asSession(token));
    const create = await server.request(
      '/api/v1/api-key',
      asSession(token, { method: 'POST', body: JSON.stringify(newKey) }),
    );
    for (const [res, right] of [
      [list, 'API_KEYS:READ'],
      [create, 'API_KEYS:WRITE'],
    ] as const) {
      const body = await res.json();
      expect({ status: res.status, code: body.code, message: body.message }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
        message: `The STAFF role may not ${right}`,
      });
    }
  });

  it.each(['FREE', 'STARTER'] as const)(
    'answers 403 PLAN_NOT_ELIGIBLE to an owner on the %s plan, which has no API access',
    async (plan) => {
      const { token } = await signedIn('OWNER', plan);
      for (const res of [
        await server.request('/api/v1/api-key', asSession(token)),
        await server.request(
          '/api/v1/api-key',
          asSession(token, { method: 'POST', body: JSON.stringify(newKey) }),
        ),
      ]) {
        expect(res.status).toBe(403);
        expect((await res.json()).code).toBe('PLAN_NOT_ELIGIBLE');
      }
      // The rest of the dashboard stays open (test/matrix/plans.test.ts tries every route).
      expect((await server.request('/api/v1/product', asSession(token))).status).toBe(200);
    },
  );

  it('does the same through GraphQL', async () => {
    const { token } = await signedIn('ADMIN');
    const res = await server.request(
      '/graphql',
      asSession(token, {
        method: 'POST',
        body: JSON.stringify({
          query: 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { keyId secret } }',
          variables: { input: newKey },
        }),
      }),
    );
    const body = await res.json();
    expect(body.data.createApiKey.secret).toMatch(/^tt_[0-9a-f]{64}$/);
  });
});
