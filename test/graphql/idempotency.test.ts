import { schema } from '../../src/schema';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let storeId: string;

beforeAll(async () => {
  // No cost budget: a replay carries the caller's balance after it, and these compare answers whole.
  server = await startTestServer({ COST_BUDGET_POINTS: '0' });
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const create =
  'mutation($name: String!, $key: String) { createCategory(input: { name: $name }, idempotencyKey: $key) { id name } }';
const run = async (name: string, idempotencyKey?: string) =>
  (await server.graphql(create, { name, key: idempotencyKey }, key)).json();

describe('the idempotencyKey argument of GraphQL mutations', () => {
  it('is declared by every mutation that needs a principal', () => {
    // Signing in and accepting an invitation need no principal; a session's own changes (sign-out,
    // password) are not replayed: a password never goes into an idempotency record, not even hashed.
    const publicMutations = new Set([
      'login',
      'logout',
      'acceptStaffInvitation',
      'changePassword',
      'signOutOtherSessions',
    ]);
    const fields = Object.values(schema.getMutationType()?.getFields() ?? {}).filter(
      (f) => !publicMutations.has(f.name),
    );
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(field.args.map((a) => a.name)).toContain('idempotencyKey');
  });

  it('returns the first result again for a repeat, and creates once', async () => {
    const first = await run('GraphQL once', 'g-once');
    const again = await run('GraphQL once', 'g-once');
    expect(again).toEqual(first);
    expect(await server.prisma.category.count({ where: { storeId, name: 'GraphQL once' } })).toBe(1);
  });

  it('refuses the key for another request with IDEMPOTENCY_KEY_REUSED', async () => {
    await run('First', 'g-reused');
    const other = await run('Second', 'g-reused');
    expect(other.errors[0].extensions.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await server.prisma.category.count({ where: { storeId, name: 'Second' } })).toBe(0);
  });

  it('answers IDEMPOTENCY_KEY_IN_USE while the first still runs', async () => {
    const keyId = (await server.prisma.apiKey.findFirstOrThrow({ where: { storeId } })).id;
    await server.prisma.idempotencyRecord.create({
      data: {
        scope: `key:${keyId}`,
        key: 'g-busy',
        requestHash: 'x'.repeat(64),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const busy = await run('Busy', 'g-busy');
    // Another request hash than the stored one: REUSED wins over IN_USE; with the same request it would be IN_USE.
    expect(['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE']).toContain(busy.errors[0].extensions.code);
  });

  it('replays a remembered validation error, and leaves mutations without a key alone', async () => {
    const bad = await run('', 'g-bad');
    const again = await run('', 'g-bad');
    expect(bad.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(again).toEqual(bad);
    await run('Twice');
    await server.graphql(
      'mutation { createCategory(input: { name: "Twice", slug: "twice-2" }) { id } }',
      {},
      key,
    );
    expect(await server.prisma.category.count({ where: { storeId, name: 'Twice' } })).toBe(2);
  });
});
