import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { verifyPassword } from '../../src/auth/password';
import { runCli } from '../../src/cli/index';
import { connectDatabase, type Database } from '../../src/db/client';
import { createDatabaseFromTemplate } from '../helpers/databases';
import { makeStore, verifyKey } from '../helpers/factories';
import { root } from '../helpers/process';

const DAY = 86_400_000;
const now = new Date();
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

let database: Awaited<ReturnType<typeof createDatabaseFromTemplate>>;
let db: Database;

beforeAll(async () => {
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 3 });
});
afterAll(async () => {
  await db.close();
  await database.drop();
});

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    db: db.prisma,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    now,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Runs with --json, expects success, returns the parsed output. */
async function cliJson(...argv: string[]) {
  const result = await cli(...argv, '--json');
  expect({ code: result.code, err: result.err }).toEqual({ code: 0, err: '' });
  return JSON.parse(result.out);
}

/** Runs with --json, expects failure with `code`, returns the parsed error. */
async function cliJsonError(exitCode: number, ...argv: string[]) {
  const result = await cli(...argv, '--json');
  expect({ code: result.code, out: result.out }).toEqual({ code: exitCode, out: '' });
  return JSON.parse(result.err).error;
}

let counter = 0;
const email = (label: string) => `${label}-${Date.now().toString(36)}${counter++}@cli.test`;

describe('usage', () => {
  it('prints the usage and exits 2 without a command, and 0 for --help', async () => {
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^Usage: npm run cli -- <command>/);
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const name of [
      'store create',
      'store suspend',
      'store resume',
      'store plan',
      'staff create',
      'key create',
      'key list',
    ]) {
      expect(help.out).toContain(`  ${name} `);
    }
  });

  it('answers an unknown command with the usage and exit 2', async () => {
    for (const argv of [['frobnicate'], ['store', 'frobnicate', 'x'], ['key', 'delete', '--store', 's']]) {
      const result = await cli(...argv);
      expect(result.code).toBe(2);
      expect(result.err).toMatch(/^Error: unknown command "[^"]+"\n\nUsage: npm run cli -- <command>/);
      expect(result.out).toBe('');
    }
    expect(await cliJsonError(2, 'frobnicate')).toEqual({
      code: 'USAGE_ERROR',
      message: 'unknown command "frobnicate"',
    });
  });

  it('gives per-command help, and a usage error (exit 2) for a bad option or a missing argument', async () => {
    const help = await cli('key', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run cli -- key create --store <storeId> --name <name> --env/);
    expect(help.out).toContain('--usage-limit');
    const group = await cli('store', '--help');
    expect(group.code).toBe(0);
    expect(group.out).toContain('store suspend <storeId>');

    const unknown = await cli(
      'store',
      'create',
      '--name',
      'X',
      '--plan',
      'PRO',
      '--owner-email',
      'a@b.test',
      '--x',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^Error: unknown option --x\n\nUsage: npm run cli -- store create/);
    const missing = await cli('store', 'create', '--name', 'X', '--owner-email', 'a@b.test');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^Error: missing --plan/);
    const noValue = await cli('key', 'list', '--store');
    expect(noValue.code).toBe(2);
    expect(noValue.err).toMatch(/^Error: --store needs a value/);
    const noId = await cli('store', 'suspend');
    expect(noId.code).toBe(2);
    expect(noId.err).toMatch(/^Error: missing <storeId>/);
    const extra = await cli('store', 'resume', 'str_a', 'str_b');
    expect(extra.code).toBe(2);
    expect(extra.err).toMatch(/^Error: unexpected argument "str_b"/);
  });
});

describe('store create', () => {
  it('creates a store and its owner, who can sign in with the password', async () => {
    const owner = email('Owner');
    const result = await cli(
      'store',
      'create',
      '--name',
      'Acme Outdoors',
      '--plan',
      'PRO',
      '--owner-email',
      owner,
      '--owner-password',
      'correct horse',
    );
    expect(result.code).toBe(0);
    expect(result.out).toMatch(
      /^Created store str_[0-9a-f]{32} "Acme Outdoors" \(PRO, ACTIVE\)\n {2}Owner: usr_/,
    );
    expect(result.out).toContain('(password set)');
    const user = await db.prisma.staffUser.findFirstOrThrow({ where: { email: owner.toLowerCase() } });
    expect(user.role).toBe('OWNER');
    expect(await verifyPassword('correct horse', user.passwordHash as string)).toBe(true);
  });

  it('prints the store and owner as JSON, accepting the plan in any case', async () => {
    const owner = email('json');
    const body = await cliJson(
      'store',
      'create',
      '--name',
      'Json Co',
      '--plan',
      'scale',
      '--owner-email',
      owner,
      '--owner-name',
      'Jo',
    );
    expect(body).toEqual({
      store: {
        id: expect.stringMatching(/^str_/),
        name: 'Json Co',
        plan: 'SCALE',
        status: 'ACTIVE',
        currency: 'USD',
        suspendedAt: null,
        createdAt: iso,
        updatedAt: iso,
      },
      owner: { id: expect.stringMatching(/^usr_/), email: owner, name: 'Jo', role: 'OWNER' },
    });
    const store = await db.prisma.store.findUniqueOrThrow({ where: { id: body.store.id } });
    expect(store.ownerId).toBe(body.owner.id);
  });

  it('notes that a plan without API access cannot have keys', async () => {
    const result = await cli(
      'store',
      'create',
      '--name',
      'Tiny',
      '--plan',
      'free',
      '--owner-email',
      email('f'),
    );
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/\(FREE, ACTIVE\)/);
    expect(result.out).toContain('no password yet');
    expect(result.out).toContain('the FREE plan has no API access');
  });

  it('rejects invalid values with every problem named, exit 1, and writes nothing', async () => {
    const before = await db.prisma.store.count();
    const result = await cli(
      'store',
      'create',
      '--name',
      'Bad',
      '--plan',
      'GOLD',
      '--owner-email',
      'not-an-email',
      '--owner-password',
      'short',
    );
    expect(result.code).toBe(1);
    expect(result.err.split('\n')).toEqual([
      'Error: --plan: must be one of FREE, STARTER, PRO, SCALE',
      'Error: --owner-email: must be an e-mail address',
      'Error: --owner-password: must be at least 8 characters',
    ]);
    const error = await cliJsonError(
      1,
      'store',
      'create',
      '--name',
      'Bad',
      '--plan',
      'GOLD',
      '--owner-email',
      'x@y.test',
    );
    expect(error).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'plan: must be one of FREE, STARTER, PRO, SCALE',
      details: [{ path: 'plan', option: '--plan', message: 'must be one of FREE, STARTER, PRO, SCALE' }],
    });
    expect(await db.prisma.store.count()).toBe(before);
  });

  it('lets one person own two stores, and refuses a staff e-mail the store already has (CONFLICT, exit 1)', async () => {
    const owner = email('dup');
    const first = await cliJson('store', 'create', '--name', 'A', '--plan', 'PRO', '--owner-email', owner);
    const second = await cli(
      'store',
      'create',
      '--name',
      'B',
      '--plan',
      'PRO',
      '--owner-email',
      owner.toUpperCase(),
    );
    expect(second.code).toBe(0);
    const again = await cli(
      'staff',
      'create',
      '--store',
      first.store.id,
      '--email',
      owner,
      '--name',
      'Again',
      '--role',
      'STAFF',
      '--password',
      'long enough',
    );
    expect(again).toEqual(
      expect.objectContaining({
        code: 1,
        err: `Error: This store already has a staff member with e-mail ${owner}`,
      }),
    );
    expect(
      (
        await cliJsonError(
          1,
          'staff',
          'create',
          '--store',
          first.store.id,
          '--email',
          owner,
          '--name',
          'X',
          '--role',
          'STAFF',
          '--password',
          'long enough',
        )
      ).code,
    ).toBe('CONFLICT');
  });
});

describe('store suspend, resume and plan', () => {
  it('suspends (key requests then get STORE_SUSPENDED) and resumes, idempotently, with audit entries', async () => {
    const store = await makeStore(db.prisma);
    const key = await cliJson(
      'key',
      'create',
      '--store',
      store.id,
      '--name',
      'k',
      '--env',
      'production',
      '--all-scopes',
    );

    const suspended = await cliJson('store', 'suspend', store.id);
    expect(suspended).toEqual({
      changed: true,
      store: expect.objectContaining({ id: store.id, status: 'SUSPENDED', suspendedAt: now.toISOString() }),
    });
    await expect(verifyKey(db.prisma, key.secret, undefined, new Date())).rejects.toMatchObject({
      code: 'STORE_SUSPENDED',
    });
    const again = await cli('store', 'suspend', store.id);
    expect(again).toEqual({ code: 0, out: expect.stringMatching(/was already suspended/), err: '' });
    const row = await db.prisma.store.findUniqueOrThrow({ where: { id: store.id } });
    expect(row.suspendedAt?.toISOString()).toBe(now.toISOString());

    const resumed = await cli('store', 'resume', store.id);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toMatch(new RegExp(`^Resumed store ${store.id} ".*" \\(PRO, ACTIVE\\)$`));
    expect(await db.prisma.store.findUniqueOrThrow({ where: { id: store.id } })).toMatchObject({
      status: 'ACTIVE',
      suspendedAt: null,
    });
    expect((await cliJson('store', 'resume', store.id)).changed).toBe(false);
    await expect(verifyKey(db.prisma, key.secret, undefined, new Date())).resolves.toMatchObject({
      storeId: store.id,
    });

    const audit = await db.prisma.auditEntry.findMany({
      where: { storeId: store.id },
      orderBy: { createdAt: 'asc' },
    });
    expect(audit.map((entry) => entry.action)).toEqual(['store.suspended', 'store.resumed']);
  });

  it('moves a store to another plan and warns when API access goes away', async () => {
    const store = await makeStore(db.prisma);
    const down = await cli('store', 'plan', store.id, '--plan', 'starter');
    expect(down.code).toBe(0);
    expect(down.out).toBe(
      `Store ${store.id} moved from PRO to STARTER\n  Note: STARTER has no API access; this store's API keys now get 403 PLAN_NOT_ELIGIBLE.`,
    );
    const up = await cliJson('store', 'plan', store.id, '--plan', 'SCALE');
    expect(up).toEqual({
      previousPlan: 'STARTER',
      changed: true,
      store: expect.objectContaining({ id: store.id, plan: 'SCALE' }),
    });
    expect((await cli('store', 'plan', store.id, '--plan', 'SCALE')).out).toBe(
      `Store ${store.id} is already on SCALE`,
    );
    const bad = await cli('store', 'plan', store.id, '--plan', 'ENTERPRISE');
    expect(bad).toEqual({ code: 1, out: '', err: 'Error: --plan: must be one of FREE, STARTER, PRO, SCALE' });
  });

  it('answers an unknown store with NOT_FOUND, exit 1', async () => {
    for (const argv of [
      ['store', 'suspend', 'str_missing'],
      ['store', 'resume', 'str_missing'],
      ['store', 'plan', 'str_missing', '--plan', 'PRO'],
    ]) {
      expect(await cli(...argv)).toEqual({ code: 1, out: '', err: 'Error: Store not found' });
      expect(await cliJsonError(1, ...argv)).toEqual({ code: 'NOT_FOUND', message: 'Store not found' });
    }
  });
});

describe('staff create', () => {
  it('adds a staff user with a password, in text and JSON', async () => {
    const store = await makeStore(db.prisma);
    const admin = email('admin');
    const text = await cli(
      'staff',
      'create',
      '--store',
      store.id,
      '--email',
      admin,
      '--name',
      'Ada Admin',
      '--role',
      'admin',
      '--password',
      'password-1',
    );
    expect(text.code).toBe(0);
    expect(text.out).toMatch(
      new RegExp(`^Created ADMIN usr_[0-9a-f]{32} ${admin} \\("Ada Admin"\\) in store ${store.id}$`),
    );

    const staff = email('staff');
    const body = await cliJson(
      'staff',
      'create',
      '--store',
      store.id,
      '--email',
      staff,
      '--name',
      'Sam',
      '--role',
      'STAFF',
      '--password',
      'password-2',
    );
    expect(body).toEqual({
      staffUser: {
        id: expect.stringMatching(/^usr_/),
        storeId: store.id,
        email: staff,
        name: 'Sam',
        role: 'STAFF',
        createdAt: iso,
      },
    });
    const user = await db.prisma.staffUser.findUniqueOrThrow({ where: { id: body.staffUser.id } });
    expect(await verifyPassword('password-2', user.passwordHash as string)).toBe(true);
  });

  it('rejects a bad role, an unknown store, a taken e-mail (exit 1) and a missing password (exit 2)', async () => {
    const store = await makeStore(db.prisma);
    const base = ['staff', 'create', '--store', store.id, '--name', 'N', '--password', 'password-1'];
    expect(await cli(...base, '--email', email('r'), '--role', 'BOSS')).toEqual({
      code: 1,
      out: '',
      err: 'Error: --role: must be one of OWNER, ADMIN, STAFF',
    });
    const unknownStore = [
      'staff',
      'create',
      '--store',
      'str_missing',
      '--name',
      'N',
      '--password',
      'password-1',
    ];
    expect((await cliJsonError(1, ...unknownStore, '--email', email('s'), '--role', 'STAFF')).code).toBe(
      'NOT_FOUND',
    );
    const taken = email('t');
    expect((await cli(...base, '--email', taken, '--role', 'STAFF')).code).toBe(0);
    expect((await cliJsonError(1, ...base, '--email', taken, '--role', 'STAFF')).code).toBe('CONFLICT');
    const noPassword = await cli(
      'staff',
      'create',
      '--store',
      store.id,
      '--name',
      'N',
      '--email',
      email('p'),
      '--role',
      'STAFF',
    );
    expect(noPassword.code).toBe(2);
    expect(noPassword.err).toMatch(/^Error: missing --password/);
  });
});

describe('key create', () => {
  let storeId: string;
  beforeAll(async () => {
    storeId = (await makeStore(db.prisma)).id;
  });

  it('issues a key and prints its secret once, with its settings', async () => {
    const expires = new Date(now.getTime() + 30 * DAY).toISOString();
    const result = await cli(
      'key',
      'create',
      '--store',
      storeId,
      '--name',
      'Warehouse sync',
      '--env',
      'staging',
      '--scope',
      'products:read',
      '--scope',
      'PRODUCTS:write,DELETE',
      '--scope',
      'orders:*',
      '--ip',
      '10.0.0.0/8',
      '--ip',
      '203.0.113.5',
      '--expires',
      expires,
      '--usage-limit',
      '5000',
    );
    expect(result.code).toBe(0);
    const secrets = result.out.match(/tt_[0-9a-f]{64}/g) ?? [];
    expect(secrets).toHaveLength(1);
    expect(result.out.split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^Created API key key_[0-9a-f]{32} "Warehouse sync" \\(staging\\) for store ${storeId}$`),
      ),
      '  Scopes:       ORDERS:READ,WRITE,UPDATE,DELETE PRODUCTS:READ,WRITE,DELETE',
      '  IP allowlist: 10.0.0.0/8, 203.0.113.5',
      `  Expires:      ${expires}`,
      '  Usage limit:  5000',
      'Secret (shown once; only its hash is stored, so save it now):',
      `  ${secrets[0]}`,
    ]);
    const principal = await verifyKey(db.prisma, secrets[0], '10.1.2.3', new Date());
    expect([...principal.scopes].sort()).toEqual([
      'ORDERS:DELETE',
      'ORDERS:READ',
      'ORDERS:UPDATE',
      'ORDERS:WRITE',
      'PRODUCTS:DELETE',
      'PRODUCTS:READ',
      'PRODUCTS:WRITE',
    ]);
    await expect(verifyKey(db.prisma, secrets[0], '192.0.2.1', new Date())).rejects.toMatchObject({
      code: 'IP_NOT_WHITELISTED',
    });
  });

  it('prints the key as JSON, secret included, and grants all 84 pairs with --all-scopes', async () => {
    const body = await cliJson(
      'key',
      'create',
      '--store',
      storeId,
      '--name',
      'Everything',
      '--env',
      'development',
      '--all-scopes',
    );
    expect(body).toEqual({
      storeId,
      keyId: expect.stringMatching(/^key_/),
      keyName: 'Everything',
      environment: 'development',
      status: 'active',
      expired: false,
      lastFour: body.secret.slice(-4),
      scopes: expect.any(Array),
      ipAllowlist: [],
      expiresAt: null,
      usageLimit: null,
      usageCount: 0,
      lastUsedAt: null,
      createdAt: iso,
      secret: expect.stringMatching(/^tt_[0-9a-f]{64}$/),
    });
    expect(body.scopes).toHaveLength(21);
    const principal = await verifyKey(db.prisma, body.secret, undefined, new Date());
    expect(principal.scopes.size).toBe(84);
  });

  it('names every invalid value (scope, IP, past expiry, env, usage limit), exits 1 and issues nothing', async () => {
    const before = await db.prisma.apiKey.count();
    const result = await cli(
      'key',
      'create',
      '--store',
      storeId,
      '--name',
      'Bad',
      '--env',
      'prod',
      '--scope',
      'WIDGETS:READ',
      '--scope',
      'PRODUCTS:FLY',
      '--scope',
      'PRODUCTS',
      '--ip',
      '300.1.1.1',
      '--expires',
      '2020-01-01T00:00:00Z',
      '--usage-limit',
      '0',
    );
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    expect(result.err.split('\n')).toEqual([
      expect.stringMatching(
        /^Error: --scope: "WIDGETS:READ": unknown resource WIDGETS; one of ANALYTICS, .*, API_KEYS$/,
      ),
      'Error: --scope: "PRODUCTS:FLY": unknown action FLY; one of READ, WRITE, UPDATE, DELETE or *',
      'Error: --scope: "PRODUCTS" is not RESOURCE:ACTION[,ACTION], e.g. PRODUCTS:READ,WRITE',
      'Error: --usage-limit: must be a whole number from 1 to 2147483647, got "0"',
      'Error: --env: Invalid option: expected one of "production"|"staging"|"development"',
      'Error: --ip: "300.1.1.1" is not an IPv4/IPv6 address or CIDR range',
      'Error: --expires: must be in the future',
    ]);
    expect(await db.prisma.apiKey.count()).toBe(before);
  });

  it('reports a bad scope, a bad IP and a past --expires in JSON with the option named', async () => {
    const base = ['key', 'create', '--store', storeId, '--name', 'x', '--env', 'production'];
    expect(await cliJsonError(1, ...base, '--scope', 'NOPE:READ')).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('unknown resource NOPE'),
      details: [
        {
          path: 'scope.0',
          option: '--scope',
          message: expect.stringContaining('"NOPE:READ": unknown resource'),
        },
      ],
    });
    expect(await cliJsonError(1, ...base, '--all-scopes', '--ip', '10.0.0.1', '--ip', 'example.com')).toEqual(
      {
        code: 'VALIDATION_ERROR',
        message: 'ipAllowlist.1: "example.com" is not an IPv4/IPv6 address or CIDR range',
        details: [
          {
            path: 'ipAllowlist.1',
            option: '--ip',
            message: '"example.com" is not an IPv4/IPv6 address or CIDR range',
          },
        ],
      },
    );
    const yesterday = new Date(now.getTime() - DAY).toISOString();
    expect(await cliJsonError(1, ...base, '--all-scopes', '--expires', yesterday)).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'expiresAt: must be in the future',
      details: [{ path: 'expiresAt', option: '--expires', message: 'must be in the future' }],
    });
    for (const bad of ['tomorrow', '2027-02-30', '2027-13-01', '1767225600']) {
      const error = await cliJsonError(1, ...base, '--all-scopes', '--expires', bad);
      expect(error.details).toEqual([
        { path: 'expires', option: '--expires', message: expect.stringContaining('ISO 8601') },
      ]);
    }
  });

  it('takes a date or a date-time without offset as UTC', async () => {
    const base = ['key', 'create', '--store', storeId, '--name', 'x', '--env', 'production', '--all-scopes'];
    expect((await cliJson(...base, '--expires', '2099-01-31')).expiresAt).toBe('2099-01-31T00:00:00.000Z');
    expect((await cliJson(...base, '--expires', '2099-01-31T12:30')).expiresAt).toBe(
      '2099-01-31T12:30:00.000Z',
    );
    expect((await cliJson(...base, '--expires', '2099-01-31T12:30:00+02:00')).expiresAt).toBe(
      '2099-01-31T10:30:00.000Z',
    );
  });

  it('needs exactly one of --scope and --all-scopes (exit 2)', async () => {
    const base = ['key', 'create', '--store', storeId, '--name', 'x', '--env', 'production'];
    const neither = await cli(...base);
    expect(neither.code).toBe(2);
    expect(neither.err).toMatch(
      /^Error: missing --scope \(or --all-scopes\)\n\nUsage: npm run cli -- key create/,
    );
    const both = await cli(...base, '--all-scopes', '--scope', 'ORDERS:READ');
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/^Error: give either --scope or --all-scopes, not both/);
  });

  it('refuses an unknown store (NOT_FOUND) and a plan without API access (PLAN_NOT_ELIGIBLE)', async () => {
    const base = ['key', 'create', '--name', 'x', '--env', 'production', '--all-scopes'];
    expect(await cli(...base, '--store', 'str_missing')).toEqual({
      code: 1,
      out: '',
      err: 'Error: Store not found',
    });
    const free = await makeStore(db.prisma, { plan: 'FREE' });
    const error = await cliJsonError(1, ...base, '--store', free.id);
    expect(error).toEqual({
      code: 'PLAN_NOT_ELIGIBLE',
      message: expect.stringContaining('FREE plan, which has no API access'),
    });
    expect(await db.prisma.apiKey.count({ where: { storeId: free.id } })).toBe(0);
  });
});

describe('key list', () => {
  it('lists keys without secrets, as a table and as JSON', async () => {
    const store = await makeStore(db.prisma);
    const first = await cliJson(
      'key',
      'create',
      '--store',
      store.id,
      '--name',
      'Reader',
      '--env',
      'production',
      '--scope',
      'PRODUCTS:READ',
      '--usage-limit',
      '10',
    );
    const second = await cliJson(
      'key',
      'create',
      '--store',
      store.id,
      '--name',
      'Admin',
      '--env',
      'development',
      '--all-scopes',
      '--expires',
      '2099-01-01',
    );
    await db.prisma.apiKey.update({ where: { id: first.keyId }, data: { usageCount: 7n } });

    const text = await cli('key', 'list', '--store', store.id);
    expect(text.code).toBe(0);
    const lines = text.out.split('\n');
    expect(lines[0]).toMatch(/^KEY ID +NAME +ENV +STATUS +LAST 4 +SCOPES +EXPIRES +USAGE +CREATED$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${first.keyId} +Reader +production +active +…${first.lastFour} +PRODUCTS:READ +never +7/10 +\\d{4}-`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^${second.keyId} +Admin +development +active +…${second.lastFour} +all 84 +2099-01-01T00:00:00.000Z +0 +`,
      ),
    );
    expect(text.out).not.toContain(first.secret);
    expect(text.out).not.toContain(second.secret);

    const body = await cliJson('key', 'list', '--store', store.id);
    expect(body.storeId).toBe(store.id);
    expect(body.keys).toEqual([
      {
        keyId: first.keyId,
        keyName: 'Reader',
        environment: 'production',
        status: 'active',
        expired: false,
        lastFour: first.lastFour,
        scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
        ipAllowlist: [],
        expiresAt: null,
        usageLimit: 10,
        usageCount: 7,
        lastUsedAt: null,
        createdAt: first.createdAt,
      },
      expect.objectContaining({
        keyId: second.keyId,
        keyName: 'Admin',
        expiresAt: '2099-01-01T00:00:00.000Z',
      }),
    ]);
    const raw = JSON.stringify(body);
    expect(raw).not.toContain(first.secret);
    expect(raw).not.toMatch(/tt_[0-9a-f]{64}|"secret"|"hash"/);
  });

  it('says so when a store has no keys, and answers an unknown store with NOT_FOUND', async () => {
    const store = await makeStore(db.prisma);
    expect(await cli('key', 'list', '--store', store.id)).toEqual({
      code: 0,
      out: `Store ${store.id} has no API keys.`,
      err: '',
    });
    expect(await cliJson('key', 'list', '--store', store.id)).toEqual({ storeId: store.id, keys: [] });
    expect(await cliJsonError(1, 'key', 'list', '--store', 'str_missing')).toEqual({
      code: 'NOT_FOUND',
      message: 'Store not found',
    });
  });
});

describe('npm run cli (src/cli/index.ts)', () => {
  const run = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );

  it('connects to DATABASE_URL, runs the command and exits with its status', async () => {
    const owner = email('process');
    const result = await run(
      ['store', 'create', '--name', 'Proc', '--plan', 'PRO', '--owner-email', owner, '--json'],
      {
        DATABASE_URL: database.url,
      },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).owner.email).toBe(owner);
    expect(await db.prisma.staffUser.count({ where: { email: owner } })).toBe(1);
  });

  it('says clearly that there is no database to reach (exit 1), while help needs no database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-cli-'));
    const missing = await run(['key', 'list', '--store', 'str_x'], { DATA_DIR: dataDir });
    await rm(dataDir, { recursive: true });
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: No database under ${dataDir}: run \`npm start\` once (it creates the embedded one there), or set DATABASE_URL\n`,
    });
    const help = await run(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run cli/);
    expect((await run(['nope'], {})).code).toBe(2);
  });

  it('runs through scripts/cli.mjs (`npm run cli`), passing arguments and the exit status on', async () => {
    const script = (args: string[]) =>
      promisify(execFile)(process.execPath, ['scripts/cli.mjs', ...args], { cwd: root }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    expect(await script(['--help'])).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Usage: npm run cli/),
    });
    expect((await script(['nope'])).code).toBe(2);
  });
});
