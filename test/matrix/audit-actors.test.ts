import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { callRoute } from './call';
import { routesUnderTest } from './routes';
import { type Sample, samplesFor } from './samples';

/**
 * Audit entries name who acted: every write route, run with an owner's session and with a key, adds
 * exactly the entry its table row names (or none), and that entry names the staff member or the key.
 * Sign-in and sign-out are recorded by src/auth/sessions.ts (test/auth/sessions.test.ts).
 */

/** The audited writes: route → the action its entry records. Every other write records none. */
const auditedAction: Record<string, string> = {
  'POST /api-key': 'api_key.created',
  'PATCH /api-key/{keyId}': 'api_key.updated',
  'POST /api-key/{keyId}/revoke': 'api_key.revoked',
  'POST /api-key/{keyId}/rotate': 'api_key.rotated',
  'DELETE /api-key/{keyId}': 'api_key.deleted',
  'POST /staff': 'staff.invited',
  'PATCH /staff/{id}': 'staff.updated',
  'DELETE /staff/{id}': 'staff.removed',
  'POST /staff/{id}/invitation/resend': 'staff.invitation_resent',
  'DELETE /staff/{id}/invitation': 'staff.invitation_revoked',
  'PATCH /store/settings': 'store.settings_updated',
  'POST /store/webhooks/endpoints': 'webhook_endpoint.created',
  'PATCH /store/webhooks/endpoints/{id}': 'webhook_endpoint.updated',
  'DELETE /store/webhooks/endpoints/{id}': 'webhook_endpoint.deleted',
  'POST /store/webhooks/endpoints/{id}/rotate-secret': 'webhook_endpoint.secret_rotated',
  'POST /store/webhooks/endpoints/{id}/recover': 'webhook_endpoint.recover_queued',
};

let server: TestServer;
let storeId: string;
let samples: Record<string, () => Promise<Sample>>;
const actors = {} as Record<'session' | 'key', { credential: string; actorType: string; actorId: string }>;

beforeAll(async () => {
  server = await startTestServer();
  storeId = (await makeStore(server.prisma)).id;
  samples = samplesFor(server.prisma, storeId);
  const { token, staffId } = await signInAs(server, storeId, 'OWNER');
  actors.session = { credential: token, actorType: 'staff', actorId: staffId };
  const key = await makeKey(server.prisma, storeId);
  actors.key = { credential: key.secret, actorType: 'api_key', actorId: key.keyId };
});
afterAll(() => server.close());

const writes = routesUnderTest.filter((entry) => entry.scope !== null && entry.route.method !== 'GET');

const entriesOfStore = () =>
  server.prisma.auditEntry.findMany({
    where: { storeId },
    select: { id: true, actorType: true, actorId: true, action: true },
  });

it('knows every audited route', () => {
  const names = new Set(writes.map((entry) => entry.name));
  expect(Object.keys(auditedAction).filter((name) => !names.has(name))).toEqual([]);
});

describe.each(['session', 'key'] as const)('a write made with an owner’s %s', (kind) => {
  it.each(writes.map((entry) => [entry.name, auditedAction[entry.name] ?? 'no entry', entry] as const))(
    '%s records %s',
    async (name, _action, entry) => {
      const make = samples[name];
      if (!make) throw new Error(`no sample for ${name}`);
      const sample = await make();
      const before = new Set((await entriesOfStore()).map((entry) => entry.id));

      const answer = await callRoute(server, 'REST', entry, sample, actors[kind].credential);

      expect(answer.status).toBeLessThan(300);
      const added = (await entriesOfStore()).filter((entry) => !before.has(entry.id));
      const { actorType, actorId } = actors[kind];
      const action = auditedAction[name];
      expect(added.map(({ id: _id, ...rest }) => rest)).toEqual(
        action ? [{ actorType, actorId, action }] : [],
      );
    },
  );
});
