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

  it('refuses a staff member with 403 FORBIDDEN', async () => {
    const { token } = await signedIn('STAFF');
    for (const res of [
      await server.request('/api/v1/api-key', asSession(token)),
      await server.request(
        '/api/v1/api-key',
        asSession(token, { method: 'POST', body: JSON.stringify(newKey) }),
      ),
    ]) {
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('FORBIDDEN');
    }
  });

  it('answers 403 PLAN_NOT_ELIGIBLE on a plan without API access', async () => {
    const { token } = await signedIn('OWNER', 'STARTER');
    const res = await server.request('/api/v1/api-key', asSession(token));
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('PLAN_NOT_ELIGIBLE');
  });

  it('does not open the store’s other resources to a session', async () => {
    const { token } = await signedIn('OWNER');
    const res = await server.request('/api/v1/category', asSession(token));
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('FORBIDDEN');
  });

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
