import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StaffRole } from '../../prisma/generated/client/enums';
import { roleScopes } from '../../src/access/roles';
import { allScopePairs, toScopeObjects } from '../../src/access/scopes';
import type { LoginThrottle } from '../../src/auth/login-throttle';
import { createLoginThrottle, LoginThrottledError } from '../../src/auth/login-throttle';
import { noSessionCookie } from '../../src/auth/session-cookie';
import {
  authenticateSession,
  LAST_SEEN_INTERVAL_MS,
  login,
  logout,
  SESSION_TOKEN_PATTERN,
  SESSION_TTL_MS,
} from '../../src/auth/sessions';
import type { Context } from '../../src/context';
import { AppError, type ErrorCode } from '../../src/errors';
import { createLogger } from '../../src/logger';
import { signIn } from '../../src/modules/sessions/service';
import { createStaffUser } from '../../src/modules/stores/provision';
import { connectRedis } from '../../src/redis';
import { redisUrl } from '../helpers/databases';
import { makeKey, makeStore } from '../helpers/factories';
import { deleteKeys, ready, testPrefix, unreachableRedis } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';

/** docs/design.md "Dashboard sessions": — sign-in, session tokens, sign-out, throttling. */

let server: TestServer;
let redis: Redis;
const redisPrefix = testPrefix('login-throttle');
const PASSWORD = 'correct horse battery staple';
const t0 = new Date(Date.UTC(2026, 2, 1, 12, 0, 0));
const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** SESSION_IDLE_MINUTES' default. */
const IDLE_MS = 120 * MINUTE;

let counter = 0;
const uniqueEmail = (what: string) =>
  `${what}-${Date.now().toString(36)}${(counter++).toString(36)}@example.test`;

let storeId: string;

beforeAll(async () => {
  server = await startTestServer();
  redis = connectRedis(redisUrl, createLogger('silent'));
  await ready(redis);
  storeId = (await makeStore(server.prisma, { plan: 'PRO' })).id;
});

afterAll(async () => {
  await deleteKeys(redis, redisPrefix);
  redis.disconnect();
  await server.close();
});

async function newStaff(options: { role?: StaffRole; password?: string | null; store?: string } = {}) {
  const email = uniqueEmail('staff');
  const user = await createStaffUser(server.prisma, {
    storeId: options.store ?? storeId,
    email,
    name: 'Ada Staff',
    role: options.role ?? 'ADMIN',
    password: options.password === null ? undefined : (options.password ?? PASSWORD),
  });
  return { ...user, email };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const auditOf = (actorId: string) =>
  server.prisma.auditEntry.findMany({ where: { actorId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });

describe('login', () => {
  it('creates a session, stores only the SHA-256 of the token and records the sign-in', async () => {
    const user = await newStaff({ role: 'OWNER' });
    const result = await login(
      server.prisma,
      { email: `  ${user.email.toUpperCase()} `, password: PASSWORD },
      { ip: '203.0.113.7', userAgent: 'jest-agent/1.0', now: t0 },
    );

    expect(result.token).toMatch(SESSION_TOKEN_PATTERN);
    expect(result.expiresAt).toEqual(new Date(t0.getTime() + SESSION_TTL_MS));
    expect(SESSION_TTL_MS).toBe(12 * 60 * 60 * 1000);
    expect(result.session).toEqual({
      kind: 'session',
      sessionId: expect.stringMatching(/^ses_/),
      staffUserId: user.id,
      storeId,
      plan: 'PRO',
      role: 'OWNER',
      scopes: roleScopes('OWNER'),
    });
    expect(result.staff).toEqual({ id: user.id, email: user.email, name: 'Ada Staff', role: 'OWNER' });
    expect(result.store).toEqual({
      id: storeId,
      name: expect.any(String),
      plan: 'PRO',
      currency: 'USD',
      timezone: 'UTC',
    });

    const session = await server.prisma.session.findUniqueOrThrow({
      where: { id: result.session.sessionId },
    });
    expect(session).toMatchObject({
      tokenHash: sha256(result.token),
      staffUserId: user.id,
      storeId,
      ip: '203.0.113.7',
      userAgent: 'jest-agent/1.0',
      expiresAt: result.expiresAt,
      revokedAt: null,
    });
    // The token itself is nowhere in the row.
    expect(JSON.stringify(session)).not.toContain(result.token.slice(4));

    const staff = await server.prisma.staffUser.findUniqueOrThrow({ where: { id: user.id } });
    expect(staff.lastLoginAt).toEqual(t0);

    expect(await auditOf(user.id)).toEqual([
      expect.objectContaining({
        storeId,
        actorType: 'staff',
        actorId: user.id,
        action: 'session.login',
        targetType: 'session',
        targetId: session.id,
        ip: '203.0.113.7',
      }),
    ]);
  });

  it('gives a wrong password and an unknown e-mail the same 401, and audits the failure of an existing account', async () => {
    const user = await newStaff();
    const wrong = await rejection(
      login(server.prisma, { email: user.email, password: 'nope' }, { ip: '203.0.113.8', now: t0 }),
    );
    const unknown = await rejection(
      login(server.prisma, { email: uniqueEmail('nobody'), password: PASSWORD }, { now: t0 }),
    );
    for (const error of [wrong, unknown]) {
      expect({ code: error.code, status: error.status, message: error.message }).toEqual({
        code: 'UNAUTHENTICATED',
        status: 401,
        message: 'Invalid e-mail or password',
      });
    }
    expect(await server.prisma.session.count({ where: { staffUserId: user.id } })).toBe(0);
    expect(await auditOf(user.id)).toEqual([
      expect.objectContaining({
        storeId,
        actorType: 'staff',
        action: 'session.login_failed',
        ip: '203.0.113.8',
        details: { reason: 'wrong_password' },
      }),
    ]);
  });

  it('refuses an inactive staff user and one without a password, with the same error', async () => {
    const inactive = await newStaff();
    await server.prisma.staffUser.update({ where: { id: inactive.id }, data: { isActive: false } });
    const noPassword = await newStaff({ password: null });
    for (const user of [inactive, noPassword]) {
      const error = await rejection(
        login(server.prisma, { email: user.email, password: PASSWORD }, { now: t0 }),
      );
      expect([error.code, error.message]).toEqual(['UNAUTHENTICATED', 'Invalid e-mail or password']);
      expect(await server.prisma.session.count({ where: { staffUserId: user.id } })).toBe(0);
    }
    expect((await auditOf(inactive.id)).map((a) => [a.action, a.details])).toEqual([
      ['session.login_failed', { reason: 'inactive' }],
    ]);
    expect((await auditOf(noPassword.id)).map((a) => [a.action, a.details])).toEqual([
      ['session.login_failed', { reason: 'no_password' }],
    ]);
  });

  it('tells only someone with the right password that the store is suspended', async () => {
    const suspended = (await makeStore(server.prisma)).id;
    await server.prisma.store.update({
      where: { id: suspended },
      data: { status: 'SUSPENDED', suspendedAt: t0 },
    });
    const user = await newStaff({ store: suspended });
    const right = await rejection(
      login(server.prisma, { email: user.email, password: PASSWORD }, { now: t0 }),
    );
    expect(right.code).toBe('STORE_SUSPENDED');
    const wrong = await rejection(login(server.prisma, { email: user.email, password: 'nope' }, { now: t0 }));
    expect(wrong.code).toBe('UNAUTHENTICATED');
  });
});

describe('authenticateSession', () => {
  async function signedIn(role: StaffRole = 'ADMIN') {
    const user = await newStaff({ role });
    return { user, ...(await login(server.prisma, { email: user.email, password: PASSWORD }, { now: t0 })) };
  }

  const invalid = {
    code: 'UNAUTHENTICATED',
    message: 'The session is invalid or has expired; sign in again',
  };
  const codeOf = async (promise: Promise<unknown>) => {
    const error = await rejection(promise);
    return { code: error.code, message: error.message };
  };

  it('accepts a session in use until a second before expiresAt and refuses it at expiresAt', async () => {
    const { token, expiresAt, session } = await signedIn();
    // A request every hour keeps it from going idle; 12 h after sign-in it ends all the same.
    for (let at = t0.getTime() + 60 * MINUTE; at < expiresAt.getTime(); at += 60 * MINUTE)
      await authenticateSession(server.prisma, token, new Date(at), IDLE_MS);
    const before = new Date(expiresAt.getTime() - SECOND);
    expect(await authenticateSession(server.prisma, token, before, IDLE_MS)).toEqual(session);
    expect(await codeOf(authenticateSession(server.prisma, token, expiresAt, IDLE_MS))).toEqual(invalid);
    expect(
      await codeOf(
        authenticateSession(server.prisma, token, new Date(expiresAt.getTime() + SECOND), IDLE_MS),
      ),
    ).toEqual(invalid);
  });

  it('refuses a session unused for the idle time, counted from its last recorded request', async () => {
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const unused = await signedIn();
    expect(await codeOf(authenticateSession(server.prisma, unused.token, at(IDLE_MS), IDLE_MS))).toEqual(
      invalid,
    );

    const { token, session } = await signedIn();
    expect(await authenticateSession(server.prisma, token, at(IDLE_MS - SECOND), IDLE_MS)).toEqual(session);
    // That request was recorded (lastSeenAt), so the idle time starts again from it.
    expect(await authenticateSession(server.prisma, token, at(2 * IDLE_MS - 2 * SECOND), IDLE_MS)).toEqual(
      session,
    );
    expect(
      await codeOf(authenticateSession(server.prisma, token, at(3 * IDLE_MS - 2 * SECOND), IDLE_MS)),
    ).toEqual(invalid);
  });

  it('records a request at most a minute late, so a session may go idle up to a minute early', async () => {
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const { token } = await signedIn();
    // Seen at 59 s, not recorded (less than a minute after sign-in): idle counts from sign-in.
    await authenticateSession(server.prisma, token, at(59 * SECOND), IDLE_MS);
    expect(await codeOf(authenticateSession(server.prisma, token, at(IDLE_MS), IDLE_MS))).toEqual(invalid);
  });

  it('refuses unknown and malformed tokens', async () => {
    const { token } = await signedIn();
    const unknown = `tts_${'0'.repeat(64)}`;
    for (const bad of [unknown, token.toUpperCase(), token.slice(0, -1), `tt_${token.slice(4)}`, '']) {
      expect(await codeOf(authenticateSession(server.prisma, bad, t0, IDLE_MS))).toEqual(invalid);
    }
  });

  it('refuses the session of a staff user deactivated after signing in, and reads the role fresh', async () => {
    const { user, token } = await signedIn('ADMIN');
    await server.prisma.staffUser.update({ where: { id: user.id }, data: { role: 'STAFF' } });
    expect((await authenticateSession(server.prisma, token, t0, IDLE_MS)).role).toBe('STAFF');
    await server.prisma.staffUser.update({ where: { id: user.id }, data: { isActive: false } });
    expect(await codeOf(authenticateSession(server.prisma, token, t0, IDLE_MS))).toEqual(invalid);
  });

  it('answers 402 STORE_SUSPENDED once the store is suspended', async () => {
    const store = (await makeStore(server.prisma)).id;
    const user = await newStaff({ store });
    const { token } = await login(server.prisma, { email: user.email, password: PASSWORD }, { now: t0 });
    await server.prisma.store.update({
      where: { id: store },
      data: { status: 'SUSPENDED', suspendedAt: t0 },
    });
    const error = await rejection(authenticateSession(server.prisma, token, t0, IDLE_MS));
    expect([error.code, error.status]).toEqual(['STORE_SUSPENDED', 402]);
  });

  it('updates lastSeenAt at most once a minute', async () => {
    const { token, session } = await signedIn();
    const lastSeen = async () =>
      (await server.prisma.session.findUniqueOrThrow({ where: { id: session.sessionId } })).lastSeenAt;
    const at = (ms: number) => new Date(t0.getTime() + ms);

    await authenticateSession(server.prisma, token, at(30 * SECOND), IDLE_MS);
    expect(await lastSeen()).toEqual(t0);
    await authenticateSession(server.prisma, token, at(LAST_SEEN_INTERVAL_MS), IDLE_MS);
    expect(await lastSeen()).toEqual(at(LAST_SEEN_INTERVAL_MS));
    await authenticateSession(server.prisma, token, at(LAST_SEEN_INTERVAL_MS + 59 * SECOND), IDLE_MS);
    expect(await lastSeen()).toEqual(at(LAST_SEEN_INTERVAL_MS));
  });
});

describe('logout', () => {
  it('revokes the session, records it, and is a no-op the second time', async () => {
    const user = await newStaff();
    const { token, session } = await login(
      server.prisma,
      { email: user.email, password: PASSWORD },
      { now: t0 },
    );
    const later = new Date(t0.getTime() + 5 * SECOND);
    expect(await logout(server.prisma, session.sessionId, later, { ip: '198.51.100.1' })).toBe(true);
    expect(await logout(server.prisma, session.sessionId, later)).toBe(false);

    const row = await server.prisma.session.findUniqueOrThrow({ where: { id: session.sessionId } });
    expect(row.revokedAt).toEqual(later);
    const error = await rejection(authenticateSession(server.prisma, token, later, IDLE_MS));
    expect(error.code).toBe('UNAUTHENTICATED');
    expect((await auditOf(user.id)).map((a) => [a.action, a.targetId, a.ip])).toEqual([
      ['session.login', session.sessionId, null],
      ['session.logout', session.sessionId, '198.51.100.1'],
    ]);
    expect(await logout(server.prisma, 'ses_missing', later)).toBe(false);
  });
});

describe('sign-in throttling', () => {
  const contextWith = (loginThrottle: LoginThrottle, clientAddress = '192.0.2.10'): Context => ({
    prisma: server.prisma,
    now: () => t0,
    invalidateAuth: async () => {},
    loginThrottle,
    principal: null,
    requestId: 'req_test',
    clientAddress,
    userAgent: 'jest',
    log: createLogger('silent'),
    sessionCookie: noSessionCookie,
  });
  const attempt = async (ctx: Context, email: string, password: string): Promise<ErrorCode | 'ok'> => {
    try {
      await signIn(ctx, { email, password });
      return 'ok';
    } catch (error) {
      if (error instanceof AppError) return error.code;
      throw error;
    }
  };

  it('refuses the 6th attempt on one account within 15 min, even with the right password; other accounts are unaffected', async () => {
    const throttle = createLoginThrottle({ redis, keyPrefix: `${redisPrefix}a:` });
    const ctx = contextWith(throttle);
    const victim = await newStaff();
    const bystander = await newStaff();

    const results = [];
    for (let i = 0; i < 5; i++) results.push(await attempt(ctx, victim.email, `wrong-${i}`));
    expect(results).toEqual(Array(5).fill('UNAUTHENTICATED'));

    const blocked = await rejection(
      signIn(ctx, { email: ` ${victim.email.toUpperCase()}`, password: PASSWORD }),
    );
    expect(blocked).toBeInstanceOf(LoginThrottledError);
    expect([blocked.code, blocked.status]).toEqual(['RATE_LIMIT_EXCEEDED', 429]);
    const retry = (blocked as LoginThrottledError).retryAfterSeconds;
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(blocked.message).toBe(`Too many failed sign-ins; try again in ${retry} s`);
    // A blocked attempt creates no session.
    expect(await server.prisma.session.count({ where: { staffUserId: victim.id } })).toBe(0);

    expect(await attempt(ctx, bystander.email, PASSWORD)).toBe('ok');
    // From another address too: the account itself is blocked.
    expect(await attempt(contextWith(throttle, '192.0.2.99'), victim.email, PASSWORD)).toBe(
      'RATE_LIMIT_EXCEEDED',
    );
  });

  it('clears the account’s count on a successful sign-in', async () => {
    const ctx = contextWith(createLoginThrottle({ redis, keyPrefix: `${redisPrefix}b:` }));
    const user = await newStaff();
    for (let i = 0; i < 4; i++) expect(await attempt(ctx, user.email, 'wrong')).toBe('UNAUTHENTICATED');
    expect(await attempt(ctx, user.email, PASSWORD)).toBe('ok');
    for (let i = 0; i < 4; i++) expect(await attempt(ctx, user.email, 'wrong')).toBe('UNAUTHENTICATED');
    expect(await attempt(ctx, user.email, PASSWORD)).toBe('ok');
  });

  it('limits failures per client address across accounts, also for unknown e-mails', async () => {
    const throttle = createLoginThrottle({
      redis,
      keyPrefix: `${redisPrefix}c:`,
      perIp: { points: 3, durationSeconds: 900 },
    });
    const ctx = contextWith(throttle, '192.0.2.50');
    for (let i = 0; i < 3; i++)
      expect(await attempt(ctx, uniqueEmail('spray'), 'wrong')).toBe('UNAUTHENTICATED');
    const user = await newStaff();
    expect(await attempt(ctx, user.email, PASSWORD)).toBe('RATE_LIMIT_EXCEEDED');
    expect(await attempt(contextWith(throttle, '192.0.2.51'), user.email, PASSWORD)).toBe('ok');
  });

  it('keeps counting in process memory without Redis, and while Redis is unreachable', async () => {
    const down = await unreachableRedis();
    try {
      for (const client of [null, down]) {
        const throttle = createLoginThrottle({
          redis: client,
          perAccount: { points: 2, durationSeconds: 60 },
        });
        const email = uniqueEmail('memory');
        await throttle.attempt(email, '192.0.2.1');
        await throttle.attempt(email, '192.0.2.1');
        const blocked = await rejection(throttle.attempt(email, '192.0.2.1'));
        expect(blocked.code).toBe('RATE_LIMIT_EXCEEDED');
        await throttle.succeed(email, '192.0.2.1');
        await throttle.attempt(email, '192.0.2.1');
      }
    } finally {
      down.disconnect();
    }
  });

  it('counts in Redis, so that every API process sees the same failures', async () => {
    const keyPrefix = `${redisPrefix}d:`;
    const one = createLoginThrottle({ redis, keyPrefix, perAccount: { points: 2, durationSeconds: 60 } });
    const two = createLoginThrottle({ redis, keyPrefix, perAccount: { points: 2, durationSeconds: 60 } });
    const email = uniqueEmail('shared');
    await one.attempt(email, undefined);
    await two.attempt(email, undefined);
    expect((await rejection(one.attempt(email, undefined))).code).toBe('RATE_LIMIT_EXCEEDED');
    // The account's key holds a digest, never the e-mail address.
    const keys = await redis.keys(`${keyPrefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toContain(email);
  });
});

describe('over HTTP', () => {
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  async function restLogin(email: string, password = PASSWORD) {
    return server.request('/api/v1/auth/login', json({ email, password }));
  }

  it('signs in, shows the session by bearer token and by cookie, and signs out (REST)', async () => {
    const user = await newStaff({ role: 'OWNER' });
    const res = await restLogin(user.email);
    expect(res.status).toBe(200);
    const body = await res.json();
    const staff = { id: user.id, email: user.email, name: 'Ada Staff', role: 'OWNER' };
    const store = {
      id: storeId,
      name: expect.any(String),
      plan: 'PRO',
      currency: 'USD',
      timezone: 'UTC',
      apiAccess: true,
      canAccessWebhooks: true,
    };
    const expiresAt = new Date(server.clock.now.getTime() + SESSION_TTL_MS).toISOString();
    // An owner holds every right; the session says so in the shape of key scopes.
    const rights = toScopeObjects(allScopePairs());
    expect(body).toEqual({
      success: true,
      data: { token: expect.stringMatching(SESSION_TOKEN_PATTERN), expiresAt, staff, store },
    });
    const token = body.data.token as string;

    for (const init of [bearer(token), { headers: { cookie: `theme=dark; tt_session=${token}` } }]) {
      const session = await server.request('/api/v1/auth/session', init);
      expect(session.status).toBe(200);
      expect(await session.json()).toEqual({ success: true, data: { staff, store, expiresAt, rights } });
    }

    const out = await server.request('/api/v1/auth/logout', { method: 'POST', ...bearer(token) });
    expect(out.status).toBe(204);
    expect(await out.text()).toBe('');

    for (const init of [bearer(token), { headers: { cookie: `tt_session=${token}` } }]) {
      const after = await server.request('/api/v1/auth/session', init);
      expect(after.status).toBe(401);
      expect(await after.json()).toEqual({
        success: false,
        status: 401,
        code: 'UNAUTHENTICATED',
        message: 'The session is invalid or has expired; sign in again',
        requestId: after.headers.get('x-request-id'),
      });
    }
  });

  it('answers a wrong password with 401 and a malformed body with 400 (REST)', async () => {
    const user = await newStaff();
    const wrong = await restLogin(user.email, 'wrong');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      success: false,
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'Invalid e-mail or password',
      requestId: expect.any(String),
    });
    const empty = await server.request('/api/v1/auth/login', json({ email: ' ', password: '' }));
    expect(empty.status).toBe(400);
    expect((await empty.json()).details).toEqual([
      { path: 'input.email', message: 'is required' },
      { path: 'input.password', message: 'is required' },
    ]);
    const missing = await server.request('/api/v1/auth/login', json({ email: user.email }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).code).toBe('VALIDATION_ERROR');
  });

  it('needs a session for GET /auth/session: none → 401, an API key → 401 UNAUTHENTICATED', async () => {
    const none = await server.request('/api/v1/auth/session');
    expect(none.status).toBe(401);
    const key = (await makeKey(server.prisma, storeId)).secret;
    const withKey = await server.request('/api/v1/auth/session', { key });
    expect(withKey.status).toBe(401);
    expect((await withKey.json()).code).toBe('UNAUTHENTICATED');
    const logoutWithKey = await server.request('/api/v1/auth/logout', { method: 'POST', key });
    expect(logoutWithKey.status).toBe(401);
  });

  it('does the same through GraphQL: login needs no credential, session and logout take the token', async () => {
    const user = await newStaff({ role: 'ADMIN' });
    const loginRes = await server.graphql(
      'mutation($input: LoginInput!) { login(input: $input) { token expiresAt staff { id role } store { id plan } } }',
      { input: { email: user.email, password: PASSWORD } },
    );
    expect(loginRes.status).toBe(200);
    const { data } = await loginRes.json();
    expect(data.login).toEqual({
      token: expect.stringMatching(SESSION_TOKEN_PATTERN),
      expiresAt: expect.any(String),
      staff: { id: user.id, role: 'ADMIN' },
      store: { id: storeId, plan: 'PRO' },
    });
    const token = data.login.token as string;
    const gql = (query: string, headers: Record<string, string>) =>
      server.request('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query }),
      });

    const session = await gql('{ session { staff { email } store { id } expiresAt } }', {
      authorization: `Bearer ${token}`,
    });
    expect(await session.json()).toEqual({
      data: {
        session: { staff: { email: user.email }, store: { id: storeId }, expiresAt: data.login.expiresAt },
      },
      // a signed-in staff member's own budget, after this request
      extensions: {
        cost: {
          requestedQueryCost: 3,
          actualQueryCost: 3,
          budget: expect.objectContaining({ remaining: expect.any(Number) }),
        },
      },
    });
    const byCookie = await gql('{ session { staff { id } } }', { cookie: `tt_session=${token}` });
    expect((await byCookie.json()).data.session.staff.id).toBe(user.id);

    const out = await gql('mutation { logout }', { authorization: `Bearer ${token}` });
    expect((await out.json()).data).toEqual({ logout: true });

    const after = await gql('{ session { expiresAt } }', { authorization: `Bearer ${token}` });
    expect(after.status).toBe(401);
    expect((await after.json()).errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a wrong password through GraphQL with UNAUTHENTICATED', async () => {
    const user = await newStaff();
    const res = await server.graphql(
      'mutation { login(input: { email: "' + user.email + '", password: "x" }) { token } }',
    );
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(body.errors[0].message).toBe('Invalid e-mail or password');
  });

  it('keeps other operations closed to a credential-less request that also selects login', async () => {
    const res = await server.graphql(
      'mutation { login(input: { email: "a@b.test", password: "x" }) { token } logout }',
    );
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].extensions.code).toBe('API_KEY_REQUIRED');
  });
});

describe('SESSION_IDLE_MINUTES', () => {
  let idle: TestServer;
  beforeAll(async () => {
    idle = await startTestServer({ SESSION_IDLE_MINUTES: '30' });
  });
  afterAll(() => idle.close());

  it('ends a session unused for that long with 401 UNAUTHENTICATED, and drops its cookie', async () => {
    const store = (await makeStore(idle.prisma)).id;
    const email = uniqueEmail('idle');
    await createStaffUser(idle.prisma, {
      storeId: store,
      email,
      name: 'Ida',
      role: 'OWNER',
      password: PASSWORD,
    });
    const login = await idle.send('POST', '/api/v1/auth/login', { email, password: PASSWORD });
    const { token } = (await login.json()).data;
    const asCookie = { headers: { cookie: `tt_session=${token}` } };

    idle.clock.now = new Date(idle.clock.now.getTime() + 29 * MINUTE);
    expect((await idle.request('/api/v1/auth/session', asCookie)).status).toBe(200);
    idle.clock.now = new Date(idle.clock.now.getTime() + 29 * MINUTE);
    expect((await idle.request('/api/v1/auth/session', asCookie)).status).toBe(200);
    idle.clock.now = new Date(idle.clock.now.getTime() + 30 * MINUTE);
    const after = await idle.request('/api/v1/auth/session', asCookie);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({
      success: false,
      status: 401,
      code: 'UNAUTHENTICATED',
      message: 'The session is invalid or has expired; sign in again',
      requestId: after.headers.get('x-request-id'),
    });
    expect(after.headers.getSetCookie()[0]).toMatch(/^tt_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
  });
});
