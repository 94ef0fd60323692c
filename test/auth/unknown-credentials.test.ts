import type { Redis } from 'ioredis';
import { AddressFailures } from '../../src/auth/address-failures';
import { generateApiKeySecret } from '../../src/auth/api-key-secret';
import { KeyVerifier } from '../../src/auth/key-verifier';
import { generateSessionToken } from '../../src/auth/sessions';
import { AppError } from '../../src/errors';
import { createLogger } from '../../src/logger';
import { connectRedis } from '../../src/redis';
import { redisUrl } from '../helpers/databases';
import { makeKey, makeStore } from '../helpers/factories';
import { deleteKeys, ready, testPrefix, unreachableRedis } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

/**
 * Issue 28: well-formed keys and session tokens that match nothing cost a database lookup each, so
 * an unknown key is remembered (a repeat costs no query) and each address may fail only
 * AUTH_FAILURES_PER_IP_MAX lookups per window; past that, its lookups are refused with 429 before any
 * query, in every API process sharing Redis, while keys already verified keep working.
 */

const LIMIT = 10;
const WINDOW_SECONDS = 300;
const env = {
  AUTH_FAILURES_PER_IP_MAX: String(LIMIT),
  AUTH_FAILURES_WINDOW_SECONDS: String(WINDOW_SECONDS),
  // Keys verified before a block must still be cached when a slow machine has finished the flood.
  AUTH_CACHE_TTL_MS: '60000',
  // The test client is on loopback: each test speaks from an address of its own (X-Forwarded-For).
  TRUST_PROXY: 'loopback',
};

let one: TestServer;
let two: TestServer;
const statements: Record<'one' | 'two', string[]> = { one: [], two: [] };
let storeId: string;
let redis: Redis;
const redisPrefix = testPrefix('address-failures');

beforeAll(async () => {
  one = await startTestServer(env, { onQuery: (sql) => statements.one.push(sql) });
  // A second API process of the same deployment: same database, same Redis keys.
  two = await startTestServer(env, { shareWith: one, onQuery: (sql) => statements.two.push(sql) });
  storeId = (await makeStore(one.prisma)).id;
  redis = connectRedis(redisUrl, createLogger('silent'));
  await ready(redis);
});

afterAll(async () => {
  await deleteKeys(redis, redisPrefix);
  redis.disconnect();
  await two.close();
  await one.close();
});

/** Statements of a process that looked up a key's secret, or a session by its token. */
const keyLookups = (server: 'one' | 'two') =>
  statements[server].filter((sql) => sql.includes('FROM "ApiKeySecret"')).length;
const sessionLookups = (server: 'one' | 'two') =>
  statements[server].filter((sql) => /FROM "public"\."Session"/.test(sql) && sql.includes('"tokenHash"'))
    .length;

const withKey = (server: TestServer, address: string, key: string) =>
  server.request('/api/v1/category?limit=1', { key, headers: { 'x-forwarded-for': address } });
const withSession = (server: TestServer, address: string, token: string) =>
  server.request('/api/v1/auth/session', {
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address },
  });

async function answer(res: Response) {
  const body = await res.json();
  return {
    status: res.status,
    code: body.code as string,
    message: body.message as string,
    retryAfter: res.headers.get('retry-after'),
  };
}

/** 429 RATE_LIMIT_EXCEEDED with a Retry-After within the window, saying the same in its message. */
function expectBlocked(answers: Awaited<ReturnType<typeof answer>>[]) {
  for (const a of answers) {
    expect(a).toEqual({
      status: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: `Too many failed authentications from this address; try again in ${a.retryAfter} s`,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
    expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(a.retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
  }
}

/** Sends `count` distinct unknown keys from the address, one after another; their answers. */
async function flood(server: TestServer, address: string, count: number) {
  const answers = [];
  for (let i = 0; i < count; i++)
    answers.push(await answer(await withKey(server, address, generateApiKeySecret())));
  return answers;
}

const unknownKey = {
  status: 401,
  code: 'INVALID_API_KEY',
  message: 'The API key is not valid',
  retryAfter: null,
};

describe('unknown API keys', () => {
  it('a flood from one address: a query each up to the limit, then 429 with Retry-After and no query', async () => {
    const address = '203.0.113.1';
    const before = keyLookups('one');
    expect(await flood(one, address, LIMIT)).toEqual(Array(LIMIT).fill(unknownKey));
    expect(keyLookups('one') - before).toBe(LIMIT);

    const refused = await Promise.all(
      Array.from({ length: 20 }, () => withKey(one, address, generateApiKeySecret()).then(answer)),
    );
    expectBlocked(refused);
    // GraphQL's door gives the same refusal, in its own error shape.
    const graphql = await one.request('/graphql', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'tt-api-key': generateApiKeySecret(),
        'x-forwarded-for': address,
      },
      body: JSON.stringify({ query: '{ categories(limit: 1) { pagination { totalResults } } }' }),
    });
    expect(graphql.status).toBe(429);
    expect(Number(graphql.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await graphql.json()).errors[0].extensions.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(keyLookups('one') - before).toBe(LIMIT);

    // Another address is not concerned.
    expect(await answer(await withKey(one, '203.0.113.2', generateApiKeySecret()))).toEqual(unknownKey);
  });

  it('remembers an unknown key: the same one twice costs one query and counts once', async () => {
    const address = '203.0.113.3';
    const key = generateApiKeySecret();
    const before = keyLookups('one');
    for (let i = 0; i < 2 * LIMIT; i++)
      expect(await answer(await withKey(one, address, key))).toEqual(unknownKey);
    expect(keyLookups('one') - before).toBe(1);
  });

  it('keeps a key verified before the block working from the blocked address; an uncached key waits', async () => {
    const address = '203.0.113.4';
    const cached = (await makeKey(one.prisma, storeId)).secret;
    const uncached = (await makeKey(one.prisma, storeId)).secret;
    expect((await withKey(one, address, cached)).status).toBe(200);
    await flood(one, address, LIMIT);
    expectBlocked([await answer(await withKey(one, address, generateApiKeySecret()))]);

    const before = keyLookups('one');
    expect((await withKey(one, address, cached)).status).toBe(200);
    // The limit protects the database: a key this process has not verified yet is refused before its lookup.
    expectBlocked([await answer(await withKey(one, address, uncached))]);
    expect(keyLookups('one') - before).toBe(0);
    expect((await withKey(one, '203.0.113.5', uncached)).status).toBe(200);
  });

  it('holds across two API processes sharing Redis', async () => {
    const address = '203.0.113.6';
    expect(await flood(one, address, LIMIT - 4)).toEqual(Array(LIMIT - 4).fill(unknownKey));
    expect(await flood(two, address, 4)).toEqual(Array(4).fill(unknownKey));
    // The second process counted the address's last failure, so it refuses without asking.
    const beforeTwo = keyLookups('two');
    expectBlocked(await flood(two, address, 3));
    expect(keyLookups('two')).toBe(beforeTwo);
    // The first learns of the block at its own next failure: one more lookup, then none.
    const beforeOne = keyLookups('one');
    expect(await flood(one, address, 1)).toEqual([unknownKey]);
    expectBlocked(await flood(one, address, 3));
    expect(keyLookups('one') - beforeOne).toBe(1);
  });
});

describe('unknown session tokens', () => {
  it('count under the same limit and are refused before their lookup once it is used up', async () => {
    const address = '203.0.113.7';
    const { token } = await signInAs(one, storeId, 'ADMIN');
    expect((await withSession(one, address, token)).status).toBe(200);
    const before = sessionLookups('one');
    for (let i = 0; i < LIMIT; i++) {
      expect(await answer(await withSession(one, address, generateSessionToken()))).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
        message: 'The session is invalid or has expired; sign in again',
        retryAfter: null,
      });
    }
    expect(sessionLookups('one') - before).toBe(LIMIT);
    expectBlocked([await answer(await withSession(one, address, generateSessionToken()))]);
    // Sessions are not cached: a real one from the blocked address waits too, without a lookup.
    expectBlocked([await answer(await withSession(one, address, token))]);
    expect(sessionLookups('one') - before).toBe(LIMIT);
    // One limit for both kinds of credential.
    expectBlocked([await answer(await withKey(one, address, generateApiKeySecret()))]);
    expect((await withSession(one, '203.0.113.8', token)).status).toBe(200);
  });
});

describe('what counts', () => {
  it('a known key refused for its state (revoked) is no guess: it never blocks the address', async () => {
    const { keyId, secret } = await makeKey(one.prisma, storeId);
    await one.prisma.apiKey.update({
      where: { id: keyId },
      data: { status: 'revoked', revokedAt: new Date(0) },
    });
    const failures = new AddressFailures({
      redis,
      keyPrefix: `${redisPrefix}revoked:`,
      limit: { points: 2, durationSeconds: 60 },
    });
    const verifier = new KeyVerifier(one.prisma, { ttlMs: 0, maxEntries: 10, failures });
    for (let i = 0; i < 5; i++) {
      await expect(verifier.verify(secret, '192.0.2.30', new Date())).rejects.toMatchObject({
        code: 'API_KEY_REVOKED',
      });
    }
  });

  it('counts in process memory without Redis, and while Redis is unreachable', async () => {
    const down = await unreachableRedis();
    try {
      for (const client of [null, down]) {
        const failures = new AddressFailures({
          redis: client,
          keyPrefix: 'memory:',
          limit: { points: 2, durationSeconds: 60 },
        });
        failures.check('192.0.2.31');
        await failures.count('192.0.2.31');
        failures.check('192.0.2.31');
        await failures.count('192.0.2.31');
        expect(() => failures.check('192.0.2.31')).toThrow(AppError);
        failures.check('192.0.2.32');
      }
    } finally {
      down.disconnect();
    }
  });

  it('lets the address try again when the window ends', async () => {
    const failures = new AddressFailures({
      redis,
      keyPrefix: `${redisPrefix}window:`,
      limit: { points: 1, durationSeconds: 1 },
    });
    await failures.count('192.0.2.33');
    expect(() => failures.check('192.0.2.33')).toThrow(AppError);
    // The window is Redis's own expiry, which no injected clock moves.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    failures.check('192.0.2.33');
  });
});
