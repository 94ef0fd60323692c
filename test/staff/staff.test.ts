import { OWNER_RIGHT } from '../../src/access/credential-rights';
import { roleScopes } from '../../src/access/roles';
import { toScopeObjects } from '../../src/access/scopes';
import { allScopes, makeKey, makeStore } from '../helpers/factories';
import { detailPaths } from '../helpers/responses';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A store of its own (with its OWNER) and a full-scope key. */
async function freshStore() {
  const store = await makeStore(server.prisma);
  return {
    id: store.id,
    ownerId: store.ownerId as string,
    key: (await makeKey(server.prisma, store.id)).secret,
  };
}

const send = (key: string, method: string, path: string, body?: unknown) =>
  server.request(path, {
    method,
    key,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

/** Another owner who can sign in (one invited without a password is not one until they accept). */
const SECOND_OWNER_PASSWORD = 'second owner password';
const email = (name: string) => `${name}-${counter++}-${Date.now()}@staff.test`;

async function invite(key: string, body: Record<string, unknown>) {
  const res = await send(key, 'POST', '/api/v1/staff', body);
  expect(res.status).toBe(201);
  return (await res.json()).data as { id: string; email: string; role: string; isActive: boolean };
}

const login = (address: string, password: string) =>
  server.request('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: address, password }),
  });

describe('inviting staff', () => {
  it('invites with a role and a lower-cased e-mail, never showing a password hash, and records it', async () => {
    const store = await freshStore();
    const address = email('Ann');
    const res = await send(store.key, 'POST', '/api/v1/staff', {
      email: `  ${address.toUpperCase()} `,
      name: ' Ann ',
      role: 'ADMIN',
      password: 'correct horse',
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: address.toLowerCase(),
      name: 'Ann',
      role: 'ADMIN',
      isActive: true,
      lastLoginAt: null,
      invitation: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect((await (await send(store.key, 'GET', `/api/v1/staff/${data.id}`)).json()).data).toEqual(data);
    expect((await login(address, 'correct horse')).status).toBe(200);
    const audit = await server.prisma.auditEntry.findFirstOrThrow({
      where: { storeId: store.id, action: 'staff.invited', targetId: data.id },
    });
    expect(audit.details).toEqual({ email: data.email, role: 'ADMIN', passwordSet: true });
  });

  it('invites without a password: the user cannot sign in yet', async () => {
    const store = await freshStore();
    const member = await invite(store.key, { email: email('nopw'), name: 'No Password', role: 'STAFF' });
    expect(member.role).toBe('STAFF');
    const stored = await server.prisma.staffUser.findUniqueOrThrow({ where: { id: member.id } });
    expect(stored.passwordHash).toBeNull();
  });

  it('refuses invalid input with field paths and a taken e-mail with 409, writing nothing', async () => {
    const store = await freshStore();
    const other = await freshStore();
    const before = await server.prisma.staffUser.count();
    for (const [body, path] of [
      [{ name: 'X', role: 'STAFF' }, 'input.email'],
      [{ email: 'nope', name: 'X', role: 'STAFF' }, 'input.email'],
      [{ email: email('x'), name: '  ', role: 'STAFF' }, 'input.name'],
      [{ email: email('x'), name: 'X', role: 'KING' }, 'input.role'],
      [{ email: email('x'), name: 'X' }, 'input.role'],
      [{ email: email('x'), name: 'X', role: 'STAFF', password: 'short' }, 'input.password'],
      [{ email: email('x'), name: 'X', role: 'STAFF', isActive: false }, 'input.isActive'],
      [{ email: email('x'), name: 'X', role: 'STAFF', passwordHash: 'x' }, 'input.passwordHash'],
    ] as const) {
      const res = await send(store.key, 'POST', '/api/v1/staff', body);
      expect(res.status).toBe(400);
      expect(await detailPaths(res)).toContain(path);
    }
    const taken = email('taken');
    await invite(store.key, { email: taken, name: 'First', role: 'STAFF' });
    // Unique in the store; another store's staff say nothing about it (one person may work for both).
    const clash = await send(store.key, 'POST', '/api/v1/staff', {
      email: taken.toUpperCase(),
      name: 'Second',
      role: 'STAFF',
    });
    expect(clash.status).toBe(409);
    expect(await clash.json()).toEqual(
      expect.objectContaining({
        code: 'CONFLICT',
        message: `This store already has a staff member with e-mail ${taken}`,
      }),
    );
    await invite(other.key, { email: taken.toUpperCase(), name: 'Elsewhere', role: 'STAFF' });
    expect(await server.prisma.staffUser.count()).toBe(before + 2);
  });
});

describe('one person in two stores', () => {
  const signedInStore = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { store: { id: string } } }).data.store.id;
  };
  const loginTo = (address: string, password: string, storeId: string) =>
    server.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: address, password, storeId }),
    });

  it('signs in to the store whose account the password opens, or the one storeId names', async () => {
    const [a, b] = [await freshStore(), await freshStore()];
    const person = email('both');
    await invite(a.key, { email: person, name: 'Pat', role: 'STAFF', password: 'password for a' });
    await invite(b.key, { email: person, name: 'Pat', role: 'ADMIN', password: 'password for b' });
    expect(await signedInStore(await login(person, 'password for a'))).toBe(a.id);
    expect(await signedInStore(await login(person, 'password for b'))).toBe(b.id);
    expect((await login(person, 'neither')).status).toBe(401);
    expect((await loginTo(person, 'password for a', b.id)).status).toBe(401);
    // A store where the person has no account answers as a wrong password does
    const c = await freshStore();
    expect((await loginTo(person, 'password for a', c.id)).status).toBe(401);
  });

  it('with the same password in both, uses the account signed in to most recently unless storeId says', async () => {
    const [a, b] = [await freshStore(), await freshStore()];
    const person = email('same');
    await invite(a.key, { email: person, name: 'Sam', role: 'STAFF', password: 'one password' });
    await invite(b.key, { email: person, name: 'Sam', role: 'STAFF', password: 'one password' });
    expect(await signedInStore(await loginTo(person, 'one password', b.id))).toBe(b.id);
    expect(await signedInStore(await login(person, 'one password'))).toBe(b.id);
    expect(await signedInStore(await loginTo(person, 'one password', a.id))).toBe(a.id);
    expect(await signedInStore(await login(person, 'one password'))).toBe(a.id);
  });
});

describe('updating and removing staff', () => {
  it('changes role, name and password, ends the old sessions, and records what changed', async () => {
    const store = await freshStore();
    const member = await invite(store.key, {
      email: email('bob'),
      name: 'Bob',
      role: 'STAFF',
      password: 'first password',
    });
    const token = (await (await login(member.email, 'first password')).json()).data.token;
    const res = await send(store.key, 'PATCH', `/api/v1/staff/${member.id}`, {
      role: 'ADMIN',
      name: 'Robert',
      password: 'a new password',
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(expect.objectContaining({ role: 'ADMIN', name: 'Robert' }));
    expect((await login(member.email, 'a new password')).status).toBe(200);
    expect((await login(member.email, 'first password')).status).toBe(401);
    const session = await server.request('/api/v1/auth/session', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(session.status).toBe(401);
    const audit = await server.prisma.auditEntry.findFirstOrThrow({
      where: { action: 'staff.updated', targetId: member.id },
    });
    expect(audit.details).toEqual({
      changes: { role: { from: 'STAFF', to: 'ADMIN' }, name: { from: 'Bob', to: 'Robert' } },
      passwordChanged: true,
      sessionsRevoked: 1,
    });
    for (const [body, path] of [
      [{ role: 'KING' }, 'input.role'],
      [{ email: 'new@staff.test' }, 'input.email'],
      [{ name: null }, 'input.name'],
      [{ password: 'short' }, 'input.password'],
    ] as const) {
      const bad = await send(store.key, 'PATCH', `/api/v1/staff/${member.id}`, body);
      expect(bad.status).toBe(400);
      expect(await detailPaths(bad)).toContain(path);
    }
  });

  it('deactivating ends the user’s sessions', async () => {
    const store = await freshStore();
    const member = await invite(store.key, {
      email: email('carl'),
      name: 'Carl',
      role: 'ADMIN',
      password: 'correct horse',
    });
    const token = (await (await login(member.email, 'correct horse')).json()).data.token;
    const session = () =>
      server.request('/api/v1/auth/session', { headers: { authorization: `Bearer ${token}` } });
    expect((await session()).status).toBe(200);
    const res = await send(store.key, 'PATCH', `/api/v1/staff/${member.id}`, { isActive: false });
    expect((await res.json()).data.isActive).toBe(false);
    expect((await session()).status).toBe(401);
  });

  it('removes a staff member; then 404 on every id route', async () => {
    const store = await freshStore();
    const member = await invite(store.key, { email: email('dora'), name: 'Dora', role: 'STAFF' });
    expect((await send(store.key, 'DELETE', `/api/v1/staff/${member.id}`)).status).toBe(204);
    expect(await server.prisma.staffUser.findUnique({ where: { id: member.id } })).toBeNull();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Ghost' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(store.key, method, `/api/v1/staff/${member.id}`, body);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('NOT_FOUND');
    }
    expect(
      await server.prisma.auditEntry.count({ where: { action: 'staff.removed', targetId: member.id } }),
    ).toBe(1);
  });

  it('treats another store’s staff member as missing', async () => {
    const store = await freshStore();
    const other = await freshStore();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { role: 'STAFF' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await send(store.key, method, `/api/v1/staff/${other.ownerId}`, body)).status).toBe(404);
    }
    expect(await server.prisma.staffUser.findUniqueOrThrow({ where: { id: other.ownerId } })).toEqual(
      expect.objectContaining({ role: 'OWNER', isActive: true }),
    );
  });
});

describe('the last active owner', () => {
  it('cannot be removed, demoted or deactivated: 409 LAST_OWNER, nothing changed', async () => {
    const store = await freshStore();
    for (const [method, body, what] of [
      ['DELETE', undefined, 'removed'],
      ['PATCH', { role: 'ADMIN' }, 'demoted'],
      ['PATCH', { role: 'STAFF', name: 'Still Owner' }, 'demoted'],
      ['PATCH', { isActive: false }, 'deactivated'],
    ] as const) {
      const res = await send(store.key, method, `/api/v1/staff/${store.ownerId}`, body);
      expect(res.status).toBe(409);
      const json = await res.json();
      expect(json.code).toBe('LAST_OWNER');
      expect(json.message).toContain(`cannot be ${what}`);
    }
    expect(await server.prisma.staffUser.findUniqueOrThrow({ where: { id: store.ownerId } })).toEqual(
      expect.objectContaining({
        role: 'OWNER',
        isActive: true,
        name: expect.not.stringMatching('Still Owner'),
      }),
    );
    // Renaming the last owner, or re-stating the role, is fine.
    const ok = await send(store.key, 'PATCH', `/api/v1/staff/${store.ownerId}`, {
      role: 'OWNER',
      name: 'Boss',
    });
    expect(ok.status).toBe(200);
  });

  it('an inactive owner does not count; another active owner lets the first go and takes over the store', async () => {
    const store = await freshStore();
    const dormant = await invite(store.key, { email: email('dormant'), name: 'Dormant', role: 'OWNER' });
    await send(store.key, 'PATCH', `/api/v1/staff/${dormant.id}`, { isActive: false });
    const blocked = await send(store.key, 'PATCH', `/api/v1/staff/${store.ownerId}`, { role: 'STAFF' });
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).code).toBe('LAST_OWNER');

    const second = await invite(store.key, {
      email: email('second'),
      name: 'Second',
      role: 'OWNER',
      password: SECOND_OWNER_PASSWORD,
    });
    const demoted = await send(store.key, 'PATCH', `/api/v1/staff/${store.ownerId}`, { role: 'ADMIN' });
    expect(demoted.status).toBe(200);
    expect((await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } })).ownerId).toBe(
      second.id,
    );
    // Now the second owner is the last active one.
    const removeLast = await send(store.key, 'DELETE', `/api/v1/staff/${second.id}`);
    expect(removeLast.status).toBe(409);
    expect((await removeLast.json()).code).toBe('LAST_OWNER');
    // The inactive owner can be removed at any time.
    expect((await send(store.key, 'DELETE', `/api/v1/staff/${dormant.id}`)).status).toBe(204);
  });

  it('two concurrent demotions of two owners leave one owner', async () => {
    const store = await freshStore();
    const second = await invite(store.key, {
      email: email('race'),
      name: 'Race',
      role: 'OWNER',
      password: SECOND_OWNER_PASSWORD,
    });
    const results = await Promise.all(
      [store.ownerId, second.id].map((id) =>
        send(store.key, 'PATCH', `/api/v1/staff/${id}`, { role: 'STAFF' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(
      await server.prisma.staffUser.count({ where: { storeId: store.id, role: 'OWNER', isActive: true } }),
    ).toBe(1);
  });
});

describe('staff list', () => {
  let store: Awaited<ReturnType<typeof freshStore>>;
  let ownerEmail: string;
  const names = ['Alice', 'Bruno', 'Chen', 'Dana', 'Emil'];

  beforeAll(async () => {
    store = await freshStore();
    ownerEmail = (await server.prisma.staffUser.findUniqueOrThrow({ where: { id: store.ownerId } })).email;
    await server.prisma.staffUser.update({ where: { id: store.ownerId }, data: { name: 'Owner' } });
    for (const [i, name] of names.entries()) {
      await invite(store.key, {
        email: `${name.toLowerCase()}-${store.id}@list.test`,
        name,
        role: i % 2 === 0 ? 'STAFF' : 'ADMIN',
      });
    }
  });

  const namesOf = async (query: string) => {
    const res = await send(store.key, 'GET', `/api/v1/staff${query}`);
    expect(res.status).toBe(200);
    return (await res.json()).data.map((m: { name: string }) => m.name);
  };

  it('pages through the staff in the list envelope', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const json = await (
        await send(store.key, 'GET', `/api/v1/staff?limit=2&page=${page}&sortBy=name&sortDirection=asc`)
      ).json();
      expect(json.success).toBe(true);
      expect(json.pagination).toEqual({
        results: [],
        totalResults: 6,
        currentPage: page,
        page,
        limit: 2,
        lastPage: 3,
      });
      seen.push(...json.data.map((m: { name: string }) => m.name));
    }
    expect(seen).toEqual([...names, 'Owner']);
    expect((await (await send(store.key, 'GET', '/api/v1/staff?limit=2&page=4')).json()).data).toEqual([]);
  });

  it('sorts by name and email both ways, and filters by role and q', async () => {
    expect(await namesOf('?sortBy=name&sortDirection=desc')).toEqual([...names, 'Owner'].reverse());
    const byEmail = [
      ...names.map((name) => [`${name.toLowerCase()}-${store.id}@list.test`, name]),
      [ownerEmail, 'Owner'],
    ]
      .sort((a, b) => (a[0]! < b[0]! ? -1 : 1))
      .map((pair) => pair[1]);
    expect(await namesOf('?sortBy=email&sortDirection=asc')).toEqual(byEmail);
    expect(await namesOf('?sortBy=email&sortDirection=desc')).toEqual([...byEmail].reverse());
    expect(await namesOf('?role=ADMIN&sortBy=name&sortDirection=asc')).toEqual(['Bruno', 'Dana']);
    expect(await namesOf('?role=OWNER')).toEqual(['Owner']);
    expect(await namesOf('?q=CHEN')).toEqual(['Chen']);
    expect(await namesOf('?q=list.test&role=STAFF&sortBy=name&sortDirection=asc')).toEqual([
      'Alice',
      'Chen',
      'Emil',
    ]);
    for (const query of ['?role=KING', '?sortBy=role', '?limit=500', '?page=-1']) {
      expect((await send(store.key, 'GET', `/api/v1/staff${query}`)).status).toBe(400);
    }
  });

  it('never lists another store’s staff, and needs STAFF with the exact action', async () => {
    const other = await freshStore();
    expect(await namesOf(`?q=${other.id}`)).toEqual([]);
    const readOnly = (
      await makeKey(server.prisma, store.id, { scopes: [{ resource: 'STAFF', actions: ['READ'] }] })
    ).secret;
    expect((await send(readOnly, 'GET', '/api/v1/staff')).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v1/staff', { email: email('no'), name: 'No', role: 'STAFF' }],
      ['PATCH', `/api/v1/staff/${store.ownerId}`, { name: 'No' }],
      ['DELETE', `/api/v1/staff/${store.ownerId}`, undefined],
    ] as const) {
      const res = await send(readOnly, method, path, body);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    }
  });

  it('offers the same through GraphQL', async () => {
    const json = await (
      await server.graphql(
        '{ staffMembers(role: ADMIN, sortBy: name, sortDirection: asc) { items { name role } pagination { totalResults } } staffMembersConnection(first: 10, role: ADMIN) { edges { node { name } } } }',
        {},
        store.key,
      )
    ).json();
    expect(json.data.staffMembers).toEqual({
      items: [
        { name: 'Bruno', role: 'ADMIN' },
        { name: 'Dana', role: 'ADMIN' },
      ],
      pagination: { totalResults: 2 },
    });
    expect(json.data.staffMembersConnection.edges).toHaveLength(2);
  });
});

describe('the credential rule: a caller empowers a staff member only with every right of their role', () => {
  let store: Awaited<ReturnType<typeof freshStore>>;
  let staffKey: string;
  beforeAll(async () => {
    store = await freshStore();
    staffKey = (
      await makeKey(server.prisma, store.id, {
        scopes: [{ resource: 'STAFF', actions: ['READ', 'WRITE', 'UPDATE', 'DELETE'] }],
      })
    ).secret;
  });
  const staffOf = () =>
    server.prisma.staffUser.findMany({ where: { storeId: store.id }, orderBy: { id: 'asc' } });

  it('refuses a key with only the staff scopes to invite a STAFF member or set one’s password: the role reads orders and customers, which the key cannot', async () => {
    const member = await invite(store.key, { email: email('plain'), name: 'Plain', role: 'STAFF' });
    const before = await staffOf();
    for (const [method, path, body] of [
      [
        'POST',
        '/api/v1/staff',
        { email: email('mine'), name: 'Mine', role: 'STAFF', password: 'a long password 1' },
      ],
      ['POST', '/api/v1/staff', { email: email('mine'), name: 'Mine', role: 'STAFF' }],
      ['PATCH', `/api/v1/staff/${member.id}`, { password: 'another long password' }],
    ] as const) {
      const res = await send(staffKey, method, path, body);
      const json = await res.json();
      expect({ status: res.status, code: json.code }).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE' });
      expect(json.message).toMatch(
        /^This API key cannot (invite a STAFF member|set the password of a STAFF member): it lacks /,
      );
      expect(json.message).toContain('ORDERS:READ');
      expect(json.details).toContainEqual({ path: 'rights', message: 'CUSTOMERS:READ' });
    }
    expect(await staffOf()).toEqual(before);
    expect(
      await server.prisma.auditEntry.count({
        where: { storeId: store.id, action: { startsWith: 'staff.' } },
      }),
    ).toBe(1);
  });

  it('lets a key holding the STAFF role’s rights invite and manage STAFF members, and renaming or deactivating needs no more', async () => {
    const keyWithRole = (
      await makeKey(server.prisma, store.id, {
        scopes: toScopeObjects([...roleScopes('STAFF'), 'STAFF:WRITE', 'STAFF:UPDATE']),
      })
    ).secret;
    const member = await invite(keyWithRole, {
      email: email('plain'),
      name: 'Plain',
      role: 'STAFF',
      password: 'a long password 1',
    });
    const res = await send(keyWithRole, 'PATCH', `/api/v1/staff/${member.id}`, {
      password: 'another long password',
    });
    expect(res.status).toBe(200);
    const admin = await invite(store.key, { email: email('adm'), name: 'Adm', role: 'ADMIN' });
    for (const body of [{ name: 'Renamed' }, { isActive: false }]) {
      expect((await send(staffKey, 'PATCH', `/api/v1/staff/${admin.id}`, body)).status).toBe(200);
    }
    // Reactivating gives the ADMIN's rights back: only a caller holding them may.
    const back = await send(keyWithRole, 'PATCH', `/api/v1/staff/${admin.id}`, { isActive: true });
    expect(back.status).toBe(403);
    expect((await back.json()).message).toMatch(/^This API key cannot reactivate an ADMIN: it lacks /);
    expect((await send(store.key, 'PATCH', `/api/v1/staff/${admin.id}`, { isActive: true })).status).toBe(
      200,
    );
  });

  it.each([
    [
      'invite an ADMIN',
      'POST',
      () => '/api/v1/staff',
      () => ({ email: email('adm'), name: 'A', role: 'ADMIN', password: 'a long password 1' }),
    ],
    [
      'invite an OWNER',
      'POST',
      () => '/api/v1/staff',
      () => ({ email: email('own'), name: 'O', role: 'OWNER' }),
    ],
    [
      'set the owner’s password',
      'PATCH',
      () => `/api/v1/staff/${store.ownerId}`,
      () => ({ password: 'taken over now!' }),
    ],
  ])('refuses to %s: 403 INSUFFICIENT_SCOPE, nothing written', async (_what, method, path, body) => {
    const before = await server.prisma.staffUser.findMany({
      where: { storeId: store.id },
      orderBy: { id: 'asc' },
    });
    const res = await send(staffKey, method, path(), body());
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    expect(
      await server.prisma.staffUser.findMany({ where: { storeId: store.id }, orderBy: { id: 'asc' } }),
    ).toEqual(before);
  });

  it('refuses to promote a member to ADMIN, and a key with every scope may', async () => {
    const member = await invite(store.key, { email: email('promo'), name: 'Promo', role: 'STAFF' });
    const refused = await send(staffKey, 'PATCH', `/api/v1/staff/${member.id}`, { role: 'ADMIN' });
    expect(refused.status).toBe(403);
    const allowed = await send(store.key, 'PATCH', `/api/v1/staff/${member.id}`, { role: 'ADMIN' });
    expect(allowed.status).toBe(200);
  });
});

describe('only an owner changes the owner (dashboard sessions)', () => {
  const asSession = (token: string, method: string, path: string, body?: unknown) =>
    server.request(path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const staffOf = (storeId: string) =>
    server.prisma.staffUser.findMany({ where: { storeId }, orderBy: { id: 'asc' } });

  const ownerPath = (owner: string) => `/api/v1/staff/${owner}`;
  it.each([
    [
      'invite an OWNER',
      'POST',
      { email: 'would-be-owner@staff.test', name: 'O', role: 'OWNER' },
      () => '/api/v1/staff',
    ],
    ['change an OWNER', 'PATCH', { role: 'ADMIN' }, ownerPath],
    ['change an OWNER', 'PATCH', { isActive: false }, ownerPath],
    ['change an OWNER', 'PATCH', { name: 'Renamed' }, ownerPath],
    ['change an OWNER', 'PATCH', { password: 'taken over now!' }, ownerPath],
    ['remove an OWNER', 'DELETE', undefined, ownerPath],
  ] as const)(
    'an ADMIN may not %s (%s %j): 403 INSUFFICIENT_SCOPE naming the owner’s right, nothing written',
    async (what, method, body, path) => {
      const store = await freshStore();
      // A second owner, so that only the role rule (not the last-owner rule) can refuse.
      await invite(store.key, {
        email: email('second'),
        name: 'Second',
        role: 'OWNER',
        password: SECOND_OWNER_PASSWORD,
      });
      const { token } = await signInAs(server, store.id, 'ADMIN');
      const before = await staffOf(store.id);
      const res = await asSession(token, method, path(store.ownerId), body);
      const json = await res.json();
      expect({ status: res.status, code: json.code, message: json.message }).toEqual({
        status: 403,
        code: 'INSUFFICIENT_SCOPE',
        message: `The ADMIN role cannot ${what}: it lacks ${OWNER_RIGHT}`,
      });
      expect(await staffOf(store.id)).toEqual(before);
    },
  );

  it('an ADMIN may not make someone OWNER, but runs the other staff, admins included', async () => {
    const store = await freshStore();
    const { token } = await signInAs(server, store.id, 'ADMIN');
    const member = await invite(store.key, { email: email('m'), name: 'M', role: 'STAFF' });
    const promote = await asSession(token, 'PATCH', `/api/v1/staff/${member.id}`, { role: 'OWNER' });
    expect(promote.status).toBe(403);
    expect((await promote.json()).message).toBe(
      `The ADMIN role cannot make a staff member OWNER: it lacks ${OWNER_RIGHT}`,
    );

    const admin = await asSession(token, 'POST', '/api/v1/staff', {
      email: email('adm'),
      name: 'New Admin',
      role: 'ADMIN',
      password: 'a long password 1',
    });
    expect(admin.status).toBe(201);
    const adminId = (await admin.json()).data.id;
    for (const body of [{ password: 'another long password' }, { role: 'STAFF' }, { isActive: false }]) {
      expect((await asSession(token, 'PATCH', `/api/v1/staff/${adminId}`, body)).status).toBe(200);
    }
    expect((await asSession(token, 'PATCH', `/api/v1/staff/${member.id}`, { role: 'ADMIN' })).status).toBe(
      200,
    );
    expect((await asSession(token, 'DELETE', `/api/v1/staff/${adminId}`)).status).toBe(204);
  });

  it('an OWNER makes, changes and removes owners (the last one stays)', async () => {
    const store = await freshStore();
    const { token, staffId } = await signInAs(server, store.id, 'OWNER');
    const made = await asSession(token, 'POST', '/api/v1/staff', {
      email: email('own'),
      name: 'Co-owner',
      role: 'OWNER',
      password: 'a long password 1',
    });
    expect(made.status).toBe(201);
    const coOwner = (await made.json()).data.id;
    for (const body of [{ password: 'another long password' }, { name: 'Renamed' }, { role: 'ADMIN' }]) {
      expect((await asSession(token, 'PATCH', `/api/v1/staff/${store.ownerId}`, body)).status).toBe(200);
    }
    expect((await asSession(token, 'DELETE', `/api/v1/staff/${coOwner}`)).status).toBe(204);
    // Now the signed-in owner is the last active one.
    const last = await asSession(token, 'PATCH', `/api/v1/staff/${staffId}`, { role: 'ADMIN' });
    expect(last.status).toBe(409);
    expect((await last.json()).code).toBe('LAST_OWNER');
  });

  it('a key without every scope may not change or remove an owner either; a key with every scope may', async () => {
    const store = await freshStore();
    await invite(store.key, {
      email: email('second'),
      name: 'Second',
      role: 'OWNER',
      password: SECOND_OWNER_PASSWORD,
    });
    const staffKey = (
      await makeKey(server.prisma, store.id, {
        scopes: [{ resource: 'STAFF', actions: ['READ', 'WRITE', 'UPDATE', 'DELETE'] }],
      })
    ).secret;
    for (const [method, body] of [
      ['PATCH', { role: 'STAFF' }],
      ['PATCH', { isActive: false }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(staffKey, method, `/api/v1/staff/${store.ownerId}`, body);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await send(store.key, 'DELETE', `/api/v1/staff/${store.ownerId}`)).status).toBe(204);
  });

  it("a key with every scope made by an ADMIN may not change an owner, nor may the keys it makes; an OWNER's may", async () => {
    const store = await freshStore();
    await invite(store.key, {
      email: email('second'),
      name: 'Second',
      role: 'OWNER',
      password: SECOND_OWNER_PASSWORD,
    });
    const fullKey = (session: string) =>
      asSession(session, 'POST', '/api/v1/api-key', {
        keyName: 'every scope',
        environment: 'production',
        scopes: allScopes(),
      });
    const admin = await signInAs(server, store.id, 'ADMIN');
    const adminsKey = (await (await fullKey(admin.token)).json()).data.secret as string;
    const made = await send(adminsKey, 'POST', '/api/v1/api-key', {
      keyName: 'made by the admin key',
      environment: 'production',
      scopes: allScopes(),
    });
    const keysKey = (await made.json()).data.secret as string;
    for (const key of [adminsKey, keysKey]) {
      const res = await send(key, 'PATCH', `/api/v1/staff/${store.ownerId}`, { role: 'STAFF' });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        message: `This API key cannot change an OWNER: it lacks ${OWNER_RIGHT}`,
      });
    }
    const owner = await signInAs(server, store.id, 'OWNER');
    const ownersKey = (await (await fullKey(owner.token)).json()).data.secret as string;
    expect(
      (await send(ownersKey, 'PATCH', `/api/v1/staff/${store.ownerId}`, { name: 'Renamed' })).status,
    ).toBe(200);
  });
});
