import fc from 'fast-check';
import type { StaffRole } from '../../prisma/generated/client/enums';
import { roleScopes } from '../../src/access/roles';
import { allScopePairs, toScopeObjects } from '../../src/access/scopes';
import { issueApiKey } from '../../src/modules/api-keys/issue';
import { makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { type Answer, callRoute, type Door, successStatus } from '../matrix/call';
import { type RouteUnderTest, routesUnderTest } from '../matrix/routes';
import type { Sample } from '../matrix/samples';

/**
 * Issue 28, item 2: no principal gains a right it does not hold. fast-check makes random principals —
 * API keys with random scope sets, owner rights and bounds (IP allowlist, expiry, usage limit), and
 * sessions of each role — in one of two stores, and has each try one random credential operation
 * (create, change, reactivate, rotate, revoke or delete a key; invite, change, reactivate, set the
 * password of or remove a staff member) on a random target, through REST or GraphQL. After each:
 * * a refusal changed nothing (keys, their secrets, staff, audit entries), and a 403 is
 *   INSUFFICIENT_SCOPE (or FORBIDDEN: a session lacking the operation's own pair), given only when the
 *   oracle below says the principal lacks the pair or a right of the credential;
 * * a success changed only its own store, and every credential it created, or changed in a way that
 *   could give its holder more, holds nothing the principal lacks, before or after.
 * The oracle is written here from the rule's words, not with the service's code (only the roles'
 * table is shared, tested on its own in roles.test.ts).
 */

const RUNS = Number(process.env.CREDENTIAL_RULE_RUNS ?? 300);
const ALL = allScopePairs();
const DAY = 86_400_000;

/** The allowlist entries the principals and targets draw from, and which of them each one admits. */
const ADMITS: Record<string, string[]> = {
  '127.0.0.0/8': ['127.0.0.0/8', '127.0.0.1'],
  '127.0.0.1': ['127.0.0.1'],
  '10.0.0.0/8': ['10.0.0.0/8', '10.1.2.3'],
  '10.1.2.3': ['10.1.2.3'],
  '192.0.2.0/24': ['192.0.2.0/24'],
};

interface OracleRights {
  pairs: ReadonlySet<string>;
  owner: boolean;
  allow: readonly string[] | null;
  expires: number | null;
  limit: number | null;
}

function covers(holder: OracleRights, target: OracleRights): boolean {
  if ([...target.pairs].some((pair) => !holder.pairs.has(pair))) return false;
  if (target.owner && !holder.owner) return false;
  if (holder.allow) {
    const allow = holder.allow;
    if (!target.allow) return false;
    if (!target.allow.every((entry) => allow.some((outer) => ADMITS[outer]?.includes(entry)))) return false;
  }
  if (holder.expires !== null && (target.expires === null || target.expires > holder.expires)) return false;
  if (holder.limit !== null && (target.limit === null || target.limit > holder.limit)) return false;
  return true;
}

interface KeyRow {
  scopes: string[];
  canChangeOwner: boolean;
  ipAllowlist: string[];
  expiresAt: Date | null;
  usageLimit: number | null;
}
const keyRights = (key: KeyRow): OracleRights => ({
  pairs: new Set(key.scopes),
  owner: key.canChangeOwner && ALL.every((pair) => key.scopes.includes(pair)),
  allow: key.ipAllowlist.length > 0 ? key.ipAllowlist : null,
  expires: key.expiresAt?.getTime() ?? null,
  limit: key.usageLimit,
});
const roleRights = (role: StaffRole): OracleRights => ({
  pairs: roleScopes(role),
  owner: role === 'OWNER',
  allow: null,
  expires: null,
  limit: null,
});

// ---- what fast-check draws ----------------------------------------------------------------------

const pick = <T>(values: readonly T[]) => fc.subarray([...values]);
/** Scope sets around the rights that matter here: keys, staff, the STAFF role's, a few others, or all. */
const pairsArb = fc.oneof(
  { weight: 2, arbitrary: fc.constant(ALL) },
  {
    weight: 5,
    arbitrary: fc
      .record({
        keys: pick(['API_KEYS:READ', 'API_KEYS:WRITE', 'API_KEYS:UPDATE', 'API_KEYS:DELETE']),
        staff: pick(['STAFF:READ', 'STAFF:WRITE', 'STAFF:UPDATE', 'STAFF:DELETE']),
        role: fc.boolean(),
        others: pick(['PRODUCTS:READ', 'ORDERS:READ', 'CUSTOMERS:READ', 'COUPONS:WRITE']),
      })
      .map(({ keys, staff, role, others }) => [
        ...new Set([...keys, ...staff, ...(role ? roleScopes('STAFF') : []), ...others]),
      ])
      .filter((pairs) => pairs.length > 0),
  },
);
/** A principal's allowlist must let the test's loopback requests in. */
const actorAllow = fc.constantFrom<string[] | null>(
  null,
  ['127.0.0.0/8'],
  ['127.0.0.1'],
  ['127.0.0.1', '10.0.0.0/8'],
);
const anyAllow = fc.constantFrom<string[] | null>(
  null,
  ['127.0.0.0/8'],
  ['127.0.0.1'],
  ['10.1.2.3'],
  ['10.0.0.0/8'],
  ['127.0.0.1', '192.0.2.0/24'],
);
const expiresArb = fc.constantFrom(null, 1, 30); // days from now
const limitArb = fc.constantFrom(null, 1000, 1_000_000);
const boundsArb = (allow: fc.Arbitrary<string[] | null>) =>
  fc.record({ ipAllowlist: allow, expiresInDays: expiresArb, usageLimit: limitArb });

const keySpec = (allow: fc.Arbitrary<string[] | null>) =>
  fc.record({ pairs: pairsArb, canChangeOwner: fc.boolean(), bounds: boundsArb(allow) });
type KeySpec = { pairs: string[]; canChangeOwner: boolean; bounds: Bounds };
type Bounds = { ipAllowlist: string[] | null; expiresInDays: number | null; usageLimit: number | null };

const storeArb = fc.constantFrom('A', 'A', 'A', 'B');
const roleArb = fc.constantFrom<StaffRole>('OWNER', 'ADMIN', 'STAFF');
const actorArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('key' as const), store: storeArb, key: keySpec(actorAllow) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('session' as const), store: storeArb, role: roleArb }),
  },
);
type Actor =
  | { kind: 'key'; store: string; key: KeySpec }
  | { kind: 'session'; store: string; role: StaffRole };

/** Targets live in the principal's store, now and then in the other one. */
const whereArb = fc.constantFrom('own', 'own', 'own', 'own', 'other');
const keyTarget = fc.record({
  where: whereArb,
  key: keySpec(anyAllow),
  status: fc.constantFrom('active', 'active', 'inactive'),
});
const staffTarget = fc.record({ where: whereArb, role: roleArb, isActive: fc.boolean() });
const keyPatch = fc
  .record(
    {
      keyName: fc.constant('renamed'),
      scopes: pairsArb,
      ipAllowlist: anyAllow,
      expiresInDays: expiresArb,
      usageLimit: limitArb,
      isActive: fc.boolean(),
    },
    { requiredKeys: [] },
  )
  .filter((patch) => Object.keys(patch).length > 0);
const staffPatch = fc
  .record(
    { name: fc.constant('Renamed'), role: roleArb, isActive: fc.boolean(), password: fc.constant(true) },
    { requiredKeys: [] },
  )
  .filter((patch) => Object.keys(patch).length > 0);

const opArb = fc.oneof(
  fc.record({ op: fc.constant('createKey' as const), key: keySpec(anyAllow) }),
  fc.record({ op: fc.constant('updateKey' as const), target: keyTarget, patch: keyPatch }),
  fc.record({ op: fc.constant('rotateKey' as const), target: keyTarget, grace: fc.constantFrom(0, 604_800) }),
  fc.record({ op: fc.constant('revokeKey' as const), target: keyTarget }),
  fc.record({ op: fc.constant('deleteKey' as const), target: keyTarget }),
  fc.record({ op: fc.constant('inviteStaff' as const), role: roleArb, password: fc.boolean() }),
  fc.record({ op: fc.constant('updateStaff' as const), target: staffTarget, patch: staffPatch }),
  fc.record({ op: fc.constant('removeStaff' as const), target: staffTarget }),
);
type Op = typeof opArb extends fc.Arbitrary<infer T> ? T : never;

// ---- the service under test ---------------------------------------------------------------------

let server: TestServer;
const stores: Record<string, string> = {};
const sessions: Record<string, Record<StaffRole, string>> = {};
let counter = 0;
const seen = { runs: 0, successes: 0, refusals: new Map<string, number>() };

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000', SESSION_RATE_LIMIT_MAX: '1000000' });
  for (const name of ['A', 'B']) {
    const id = (await makeStore(server.prisma)).id;
    stores[name] = id;
    sessions[name] = {
      OWNER: (await signInAs(server, id, 'OWNER')).token,
      ADMIN: (await signInAs(server, id, 'ADMIN')).token,
      STAFF: (await signInAs(server, id, 'STAFF')).token,
    };
  }
});
afterAll(() => server.close());

const route = (name: string): RouteUnderTest => {
  const found = routesUnderTest.find((entry) => entry.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};
const inDays = (days: number | null) =>
  days === null ? null : new Date(server.clock.now.getTime() + days * DAY).toISOString();
const boundsInput = (bounds: Bounds) => ({
  ipAllowlist: bounds.ipAllowlist,
  expiresAt: inDays(bounds.expiresInDays),
  usageLimit: bounds.usageLimit,
});

async function makeKeyRow(storeId: string, spec: KeySpec, status = 'active') {
  const issued = await issueApiKey(
    server.prisma,
    storeId,
    {
      keyName: `k${counter++}`,
      environment: 'production',
      scopes: toScopeObjects(spec.pairs),
      ipAllowlist: spec.bounds.ipAllowlist,
      expiresAt:
        spec.bounds.expiresInDays === null ? null : new Date(inDays(spec.bounds.expiresInDays) as string),
      usageLimit: spec.bounds.usageLimit,
    },
    { now: server.clock.now, canChangeOwner: spec.canChangeOwner },
  );
  if (status !== 'active')
    await server.prisma.apiKey.update({ where: { id: issued.keyId }, data: { status: 'inactive' } });
  return issued;
}

/** Every credential of both stores, as far as a right could hide in it, and the audit trail's length. */
async function snapshot() {
  const [keys, secrets, staff, audit] = await Promise.all([
    server.prisma.apiKey.findMany({ orderBy: { id: 'asc' } }),
    server.prisma.apiKeySecret.findMany({ orderBy: { id: 'asc' } }),
    server.prisma.staffUser.findMany({ orderBy: { id: 'asc' } }),
    server.prisma.auditEntry.count(),
  ]);
  return {
    keys: new Map(keys.map((key) => [key.id, key])),
    secrets: new Map(secrets.map((secret) => [secret.id, secret])),
    staff: new Map(staff.map((member) => [member.id, member])),
    audit,
  };
}
type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** Sets up the operation's target and request: the route, its sample, and the pair it needs. */
async function prepare(actor: Actor, op: Op): Promise<{ route: RouteUnderTest; sample: Sample }> {
  const own = stores[actor.store] as string;
  const storeOf = (where: string) =>
    where === 'own' ? own : (stores[actor.store === 'A' ? 'B' : 'A'] as string);
  switch (op.op) {
    case 'createKey':
      return {
        route: route('POST /api-key'),
        sample: {
          params: {},
          body: {
            keyName: `new${counter++}`,
            environment: 'production',
            scopes: toScopeObjects(op.key.pairs),
            ...boundsInput(op.key.bounds),
          },
        },
      };
    case 'updateKey':
    case 'rotateKey':
    case 'revokeKey':
    case 'deleteKey': {
      const target = await makeKeyRow(storeOf(op.target.where), op.target.key, op.target.status);
      const params = { keyId: target.keyId };
      if (op.op === 'updateKey') {
        const { expiresInDays, ...patch } = op.patch;
        const body = {
          ...patch,
          ...(expiresInDays !== undefined ? { expiresAt: inDays(expiresInDays) } : {}),
        };
        if (patch.scopes) body.scopes = toScopeObjects(patch.scopes) as never;
        return { route: route('PATCH /api-key/{keyId}'), sample: { params, body } };
      }
      if (op.op === 'rotateKey')
        return {
          route: route('POST /api-key/{keyId}/rotate'),
          sample: { params, body: { gracePeriodSeconds: op.grace } },
        };
      if (op.op === 'revokeKey')
        return { route: route('POST /api-key/{keyId}/revoke'), sample: { params, body: {} } };
      return { route: route('DELETE /api-key/{keyId}'), sample: { params } };
    }
    case 'inviteStaff':
      return {
        route: route('POST /staff'),
        sample: {
          params: {},
          body: {
            email: `invited-${counter++}@rule.test`,
            name: 'Invited',
            role: op.role,
            ...(op.password ? { password: 'a long password 1' } : {}),
          },
        },
      };
    case 'updateStaff':
    case 'removeStaff': {
      const member = await server.prisma.staffUser.create({
        data: {
          storeId: storeOf(op.target.where),
          email: `target-${counter++}@rule.test`,
          name: 'Target',
          role: op.target.role,
          isActive: op.target.isActive,
        },
      });
      if (op.op === 'removeStaff')
        return { route: route('DELETE /staff/{id}'), sample: { params: { id: member.id } } };
      const { password, ...patch } = op.patch;
      return {
        route: route('PATCH /staff/{id}'),
        sample: {
          params: { id: member.id },
          body: { ...patch, ...(password ? { password: 'a new password 1' } : {}) },
        },
      };
    }
  }
}

async function credentialOf(actor: Actor): Promise<{ credential: string; rights: OracleRights }> {
  if (actor.kind === 'session')
    return { credential: sessions[actor.store]?.[actor.role] as string, rights: roleRights(actor.role) };
  const issued = await makeKeyRow(stores[actor.store] as string, actor.key);
  const row = await server.prisma.apiKey.findUniqueOrThrow({ where: { id: issued.keyId } });
  return { credential: issued.secret, rights: keyRights(row) };
}

/** The credentials the operation created or changed in a way that could give their holder more. */
function empowered(before: Snapshot, after: Snapshot) {
  const found: Array<{ what: string; storeId: string; rights: OracleRights[] }> = [];
  for (const [id, key] of after.keys) {
    const was = before.keys.get(id);
    const newSecret = [...after.secrets.values()].some((s) => s.apiKeyId === id && !before.secrets.has(s.id));
    if (!was) {
      found.push({ what: `new key ${id}`, storeId: key.storeId, rights: [keyRights(key)] });
      continue;
    }
    const widened =
      JSON.stringify(keyRights(key)) !== JSON.stringify(keyRights(was)) ||
      key.canChangeOwner !== was.canChangeOwner ||
      (was.status !== 'active' && key.status === 'active');
    if (widened || newSecret)
      found.push({ what: `key ${id}`, storeId: key.storeId, rights: [keyRights(was), keyRights(key)] });
  }
  for (const [id, member] of after.staff) {
    const was = before.staff.get(id);
    if (!was) {
      found.push({ what: `new staff ${id}`, storeId: member.storeId, rights: [roleRights(member.role)] });
      continue;
    }
    const changedOwner = was.role === 'OWNER' && JSON.stringify(was) !== JSON.stringify(member);
    const gains =
      was.role !== member.role ||
      (!was.isActive && member.isActive) ||
      was.passwordHash !== member.passwordHash;
    if (gains || changedOwner)
      found.push({
        what: `staff ${id}`,
        storeId: member.storeId,
        rights: [roleRights(was.role), roleRights(member.role)],
      });
  }
  return found;
}

const REFUSALS = new Set([
  'INSUFFICIENT_SCOPE',
  'FORBIDDEN',
  'NOT_FOUND',
  'API_KEY_STATE_CONFLICT',
  'STAFF_STATE_CONFLICT',
  'LAST_OWNER',
]);

describe('no principal gains a right it does not hold (property)', () => {
  // Setting a password hashes it (scrypt): a run takes ~0.1 s.
  jest.setTimeout(RUNS * 500);
  it(`holds for ${RUNS} random principals, operations and doors`, async () => {
    await fc.assert(
      fc.asyncProperty(actorArb, opArb, fc.constantFrom<Door>('REST', 'GraphQL'), async (actor, op, door) => {
        const { credential, rights: holder } = await credentialOf(actor);
        const { route: entry, sample } = await prepare(actor, op);
        const before = await snapshot();
        const answer: Answer = await callRoute(server, door, entry, sample, credential);
        const after = await snapshot();
        seen.runs++;
        const lacksPair = !holder.pairs.has(entry.scope as string);
        const succeeded =
          answer.code === undefined && (door === 'GraphQL' || answer.status === successStatus(entry));

        if (!succeeded) {
          const label = answer.code ?? String(answer.status);
          seen.refusals.set(label, (seen.refusals.get(label) ?? 0) + 1);
          if (!REFUSALS.has(label))
            throw new Error(
              `unexpected answer ${answer.status} ${label}: ${answer.message} (${JSON.stringify({ actor, op })})`,
            );
          if (door === 'REST' && (label === 'INSUFFICIENT_SCOPE' || label === 'FORBIDDEN'))
            expect(answer.status).toBe(403);
          if (label === 'FORBIDDEN') expect(actor.kind === 'session' && lacksPair).toBe(true);
          if (label === 'INSUFFICIENT_SCOPE' && !lacksPair) {
            // Refused by the credential rule: the rule's words must refuse it too.
            expect(answer.message).toMatch(/ cannot .*: it lacks /);
            expect(oracleRefuses(holder, op, actor)).toBe(true);
          }
          expect(after).toEqual(before);
          return;
        }
        seen.successes++;
        expect(lacksPair).toBe(false);
        for (const change of empowered(before, after)) {
          expect({ change: change.what, storeId: change.storeId }).toEqual({
            change: change.what,
            storeId: stores[actor.store],
          });
          for (const rights of change.rights) {
            if (!covers(holder, rights))
              throw new Error(
                `${change.what} holds a right its maker lacks (${JSON.stringify({ actor, op })})`,
              );
          }
        }
      }),
      { numRuns: RUNS },
    );
    // The runs reached both outcomes, and the rule itself refused some of them.
    expect(seen.successes).toBeGreaterThan(RUNS / 10);
    expect(seen.refusals.get('INSUFFICIENT_SCOPE') ?? 0).toBeGreaterThan(RUNS / 10);
  });
});

/**
 * Whether the rule's words refuse this operation to this holder (assuming it holds the operation's
 * pair and the target is its store's): the rights the credential holds or would hold, not covered.
 */
function oracleRefuses(holder: OracleRights, op: Op, actor: Actor): boolean {
  const spec = (key: KeySpec): OracleRights =>
    keyRights({
      scopes: key.pairs,
      canChangeOwner: key.canChangeOwner,
      ipAllowlist: key.bounds.ipAllowlist ?? [],
      expiresAt:
        key.bounds.expiresInDays === null ? null : new Date(inDays(key.bounds.expiresInDays) as string),
      usageLimit: key.bounds.usageLimit,
    });
  const lacks = (rights: OracleRights) => !covers(holder, rights);
  switch (op.op) {
    case 'createKey': {
      // A new key may change the owner when its maker may: an owner's session, or a key that could.
      const makerMay = actor.kind === 'session' ? actor.role === 'OWNER' : actor.key.canChangeOwner;
      return lacks(spec({ ...op.key, canChangeOwner: makerMay }));
    }
    case 'rotateKey':
      return lacks(spec(op.target.key));
    case 'updateKey': {
      const { patch, target } = op;
      // Deactivating alone takes rights away.
      if (Object.keys(patch).length === 1 && patch.isActive === false) return false;
      const after: KeySpec = {
        pairs: patch.scopes ?? target.key.pairs,
        canChangeOwner: target.key.canChangeOwner,
        bounds: {
          ipAllowlist: patch.ipAllowlist !== undefined ? patch.ipAllowlist : target.key.bounds.ipAllowlist,
          expiresInDays:
            patch.expiresInDays !== undefined ? patch.expiresInDays : target.key.bounds.expiresInDays,
          usageLimit: patch.usageLimit !== undefined ? patch.usageLimit : target.key.bounds.usageLimit,
        },
      };
      return lacks(spec(target.key)) || lacks(spec(after));
    }
    case 'inviteStaff':
      return lacks(roleRights(op.role));
    case 'updateStaff': {
      const { patch, target } = op;
      const role = patch.role ?? target.role;
      return (
        // Changing an owner in any way is the owner's.
        (target.role === 'OWNER' && lacks(roleRights('OWNER'))) ||
        (patch.role !== undefined &&
          patch.role !== target.role &&
          (lacks(roleRights(target.role)) || lacks(roleRights(patch.role)))) ||
        (patch.isActive === true && !target.isActive && lacks(roleRights(role))) ||
        (patch.password === true && lacks(roleRights(role)))
      );
    }
    case 'removeStaff':
      return op.target.role === 'OWNER' && lacks(roleRights('OWNER'));
    default:
      return false;
  }
}
