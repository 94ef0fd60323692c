import type { Redis } from 'ioredis';
import { createLoginThrottle } from '../../src/auth/login-throttle';
import { noSessionCookie } from '../../src/auth/session-cookie';
import type { Context } from '../../src/context';
import { AppError, type ErrorCode } from '../../src/errors';
import { createLogger } from '../../src/logger';
import { signIn } from '../../src/modules/sessions/service';
import { createStaffUser } from '../../src/modules/stores/provision';
import { connectRedis } from '../../src/redis';
import { redisUrl } from '../helpers/databases';
import { makeStore } from '../helpers/factories';
import { deleteKeys, ready, testPrefix } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 28: a sign-in attempt is counted before its password is checked, so parallel guesses cannot
 * outrun the per-account limit (5 per 15 min) on either door.
 */

let server: TestServer;
let redis: Redis;
const redisPrefix = testPrefix('sign-in-throttle');
const PASSWORD = 'correct horse battery staple';
const ACCOUNT_LIMIT = 5;
const WINDOW_SECONDS = 15 * 60;
let storeId: string;
let counter = 0;

beforeAll(async () => {
  // Behind a trusted proxy (the test client is on loopback), so each test signs in from an address
  // of its own (X-Forwarded-For) and no test spends another's per-address points.
  server = await startTestServer({ TRUST_PROXY: 'loopback' });
  redis = connectRedis(redisUrl, createLogger('silent'));
  await ready(redis);
  storeId = (await makeStore(server.prisma, { plan: 'PRO' })).id;
});

afterAll(async () => {
  await deleteKeys(redis, redisPrefix);
  redis.disconnect();
  await server.close();
});

async function newStaff(store = storeId) {
  const email = `throttle-${Date.now()}-${counter++}@example.test`;
  const user = await createStaffUser(server.prisma, {
    storeId: store,
    email,
    name: 'Ada',
    role: 'ADMIN',
    password: PASSWORD,
  });
  return { id: user.id, email };
}

const from = (address: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': address });

const restLogin = (address: string, email: string, password: string) =>
  server.request('/api/v1/auth/login', {
    method: 'POST',
    headers: from(address),
    body: JSON.stringify({ email, password }),
  });

const graphqlLogin = (address: string, email: string, password: string) =>
  server.request('/graphql', {
    method: 'POST',
    headers: from(address),
    body: JSON.stringify({
      query: 'mutation($input: LoginInput!) { login(input: $input) { token } }',
      variables: { input: { email, password } },
    }),
  });

/** How many times the account's password was checked and found wrong (each is audited). */
const passwordChecks = (staffId: string) =>
  server.prisma.auditEntry.count({ where: { actorId: staffId, action: 'session.login_failed' } });

/** The answer's HTTP status, code and Retry-After, whichever door gave it. */
async function outcome(res: Response) {
  const body = await res.json();
  const code =
    body.code ?? body.errors?.[0]?.extensions?.code ?? (body.success || body.data?.login ? 'ok' : undefined);
  const message = body.message ?? body.errors?.[0]?.message;
  return { status: res.status, code, message, retryAfter: res.headers.get('retry-after') };
}

function expectThrottled(answers: Awaited<ReturnType<typeof outcome>>[]) {
  for (const answer of answers) {
    expect(answer).toEqual({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: `Too many failed sign-ins; try again in ${answer.retryAfter} s`,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(answer.retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
  }
}

describe('parallel wrong passwords for one account', () => {
  it('REST: of 30 at once, 5 reach the password check (401) and 25 are 429 with Retry-After', async () => {
    const user = await newStaff();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => restLogin('198.51.100.1', user.email, `wrong-${i}`).then(outcome)),
    );
    const refused = answers.filter((a) => a.status === 429);
    const checked = answers.filter((a) => a.status !== 429);
    expect(checked).toEqual(
      Array(ACCOUNT_LIMIT).fill({
        status: 401,
        code: 'UNAUTHENTICATED',
        message: 'Invalid e-mail or password',
        retryAfter: null,
      }),
    );
    expect(refused).toHaveLength(30 - ACCOUNT_LIMIT);
    expectThrottled(refused);
    expect(await passwordChecks(user.id)).toBe(ACCOUNT_LIMIT);
    // The right password is refused too until the window ends, from any address.
    expectThrottled([await outcome(await restLogin('198.51.100.2', user.email, PASSWORD))]);
  });

  it('GraphQL login: the same 5 checked and 25 refused with HTTP 429 and Retry-After', async () => {
    const user = await newStaff();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        graphqlLogin('198.51.100.3', user.email, `wrong-${i}`).then(outcome),
      ),
    );
    const refused = answers.filter((a) => a.status === 429);
    const checked = answers.filter((a) => a.status !== 429);
    // A wrong password is an execution error (HTTP 200); a refusal that says when to come back is not.
    expect(checked).toEqual(
      Array(ACCOUNT_LIMIT).fill({
        status: 200,
        code: 'UNAUTHENTICATED',
        message: 'Invalid e-mail or password',
        retryAfter: null,
      }),
    );
    expect(refused).toHaveLength(30 - ACCOUNT_LIMIT);
    expectThrottled(refused);
    expect(await passwordChecks(user.id)).toBe(ACCOUNT_LIMIT);
  });
});

describe('the right password', () => {
  it('signs in after four failures and clears the account’s count', async () => {
    const user = await newStaff();
    const address = '198.51.100.4';
    for (let i = 0; i < ACCOUNT_LIMIT - 1; i++)
      expect((await restLogin(address, user.email, 'wrong')).status).toBe(401);
    expect((await outcome(await restLogin(address, user.email, PASSWORD))).code).toBe('ok');
    // A fresh count: five more guesses are checked, the sixth attempt is refused.
    for (let i = 0; i < ACCOUNT_LIMIT; i++)
      expect((await restLogin(address, user.email, 'wrong')).status).toBe(401);
    expectThrottled([await outcome(await restLogin(address, user.email, PASSWORD))]);
  });

  describe('gives points back (signIn with a small per-address limit)', () => {
    const contextFrom = (
      throttle: ReturnType<typeof createLoginThrottle>,
      clientAddress: string,
    ): Context => ({
      prisma: server.prisma,
      now: () => new Date(),
      invalidateAuth: async () => {},
      loginThrottle: throttle,
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

    it('a success gives the address its point back; failures keep theirs', async () => {
      const throttle = createLoginThrottle({
        redis,
        keyPrefix: `${redisPrefix}ip:`,
        perIp: { points: 3, durationSeconds: 900 },
      });
      const ctx = contextFrom(throttle, '192.0.2.20');
      const [a, b, c, d] = [await newStaff(), await newStaff(), await newStaff(), await newStaff()];
      expect(await attempt(ctx, a.email, 'wrong')).toBe('UNAUTHENTICATED');
      // Four successes with two points left: each took a point and gave it back.
      for (const user of [a, b, c, d]) expect(await attempt(ctx, user.email, PASSWORD)).toBe('ok');
      expect(await attempt(ctx, b.email, 'wrong')).toBe('UNAUTHENTICATED');
      expect(await attempt(ctx, c.email, 'wrong')).toBe('UNAUTHENTICATED');
      expect(await attempt(ctx, d.email, PASSWORD)).toBe('RATE_LIMIT_EXCEEDED');
    });

    it('the right password of a suspended store is no failure: both points come back', async () => {
      const suspended = (await makeStore(server.prisma, { plan: 'PRO' })).id;
      await server.prisma.store.update({
        where: { id: suspended },
        data: { status: 'SUSPENDED', suspendedAt: new Date() },
      });
      const throttle = createLoginThrottle({
        redis,
        keyPrefix: `${redisPrefix}suspended:`,
        perAccount: { points: 2, durationSeconds: 900 },
        perIp: { points: 2, durationSeconds: 900 },
      });
      const ctx = contextFrom(throttle, '192.0.2.21');
      const user = await newStaff(suspended);
      for (let i = 0; i < 4; i++) expect(await attempt(ctx, user.email, PASSWORD)).toBe('STORE_SUSPENDED');
      expect(await attempt(ctx, user.email, 'wrong')).toBe('UNAUTHENTICATED');
      expect(await attempt(ctx, user.email, 'wrong')).toBe('UNAUTHENTICATED');
      expect(await attempt(ctx, user.email, PASSWORD)).toBe('RATE_LIMIT_EXCEEDED');
    });
  });
});
