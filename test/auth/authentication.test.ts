import type { Prisma } from '../../prisma/generated/client/client';
import type { Plan } from '../../prisma/generated/client/enums';
import { generateApiKeySecret, hashSecret, lastFour } from '../../src/auth/api-key-secret';
import { type ErrorCode, errorStatus } from '../../src/errors';
import type { NewApiKeyInput } from '../../src/modules/api-keys/input';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * docs/design.md "API keys": every authentication failure this service can produce, through
 * both front doors. The test client connects from 127.0.0.1.
 */

let server: TestServer;
const stores: Record<'pro' | 'scale' | 'free' | 'starter' | 'suspended' | 'suspendedFree', string> = {
  pro: '',
  scale: '',
  free: '',
  starter: '',
  suspended: '',
  suspendedFree: '',
};

beforeAll(async () => {
  // These tests change keys and stores directly in the database, which publishes no invalidation;
  // with no verified-key cache every request sees the change (test/api-keys covers the cache).
  server = await startTestServer({ AUTH_CACHE_TTL_MS: '0' });
  const make = async (plan: Plan, suspended = false) => {
    const store = await makeStore(server.prisma, { plan });
    if (suspended) {
      await server.prisma.store.update({
        where: { id: store.id },
        data: { status: 'SUSPENDED', suspendedAt: new Date() },
      });
    }
    return store.id;
  };
  stores.pro = await make('PRO');
  stores.scale = await make('SCALE');
  stores.free = await make('FREE');
  stores.starter = await make('STARTER');
  stores.suspended = await make('PRO', true);
  stores.suspendedFree = await make('FREE', true);
});

beforeEach(() => {
  server.clock.now = new Date();
});

afterAll(() => server.close());

const SECOND = 1000;
const hex = (length: number) => 'a1b2c3d4e5f60789'.repeat(5).slice(0, length);

/** A key of the given store, then changed directly in the database (status, expiry, …) when asked. */
async function newKey(
  store: keyof typeof stores = 'pro',
  input: Partial<NewApiKeyInput> = {},
  change: Prisma.ApiKeyUpdateInput = {},
) {
  const key = await makeKey(server.prisma, stores[store], input);
  if (Object.keys(change).length > 0)
    await server.prisma.apiKey.update({ where: { id: key.keyId }, data: change });
  return key;
}

/** An extra secret on a key, as rotation leaves the old one: it works until graceEndsAt. */
async function rotatedSecret(keyId: string, graceEndsAt: Date): Promise<string> {
  const secret = generateApiKeySecret();
  await server.prisma.apiKeySecret.create({
    data: { apiKeyId: keyId, hash: hashSecret(secret), lastFour: lastFour(secret), graceEndsAt },
  });
  return secret;
}

const ttHeader = (secret: string) => ({ 'tt-api-key': secret });
const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

interface Door {
  name: string;
  send(headers?: Record<string, string>): Promise<Response>;
  expectRejected(res: Response, code: ErrorCode): Promise<void>;
  expectAccepted(res: Response): Promise<void>;
}

const rest: Door = {
  name: 'REST',
  send: (headers = {}) => server.request('/api/v1/category', { headers }),
  async expectRejected(res, code) {
    const status = errorStatus[code];
    expect({ status: res.status, body: await res.json() }).toEqual({
      status,
      body: {
        success: false,
        status,
        code,
        message: expect.stringMatching(/\S/),
        requestId: res.headers.get('x-request-id'),
      },
    });
  },
  async expectAccepted(res) {
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { success: true, data: [], pagination: expect.objectContaining({ totalResults: 0 }) },
    });
  },
};

/** Failures inside GraphQL execution (the scope check) are HTTP 200 as GraphQL clients expect. */
const executionErrors = new Set<ErrorCode>(['INSUFFICIENT_SCOPE']);

const graphql: Door = {
  name: 'GraphQL',
  send: (headers = {}) =>
    server.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: '{ categories { items { id } } }' }),
    }),
  async expectRejected(res, code) {
    const body = await res.json();
    if (executionErrors.has(code)) {
      expect({ status: res.status, body }).toEqual({
        status: 200,
        body: {
          data: null,
          errors: [
            {
              message: expect.stringMatching(/\S/),
              locations: [{ line: 1, column: 3 }],
              path: ['categories'],
              extensions: expect.objectContaining({ code }),
            },
          ],
          extensions: { cost: pageCost(0) },
        },
      });
      return;
    }
    const status = errorStatus[code];
    expect({ status: res.status, body }).toEqual({
      status,
      body: {
        errors: [
          {
            message: expect.stringMatching(/\S/),
            extensions: { code, status, requestId: res.headers.get('x-request-id') },
          },
        ],
        extensions: { cost: pageCost(0) },
      },
    });
  },
  async expectAccepted(res) {
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { data: { categories: { items: [] } }, extensions: { cost: pageCost(1) } },
    });
  },
};

/** The query asks for a page of up to 25 categories (26 objects); what came back is the page or nothing. */
const pageCost = (actual: number) =>
  expect.objectContaining({ requestedQueryCost: 26, actualQueryCost: actual });

describe.each([rest, graphql])('through $name', (door) => {
  describe('API_KEY_REQUIRED (401)', () => {
    it('rejects a request without tt-api-key or Authorization with 401 API_KEY_REQUIRED', async () => {
      await door.expectRejected(await door.send(), 'API_KEY_REQUIRED');
    });

    it('rejects an empty tt-api-key header with 401 API_KEY_REQUIRED', async () => {
      await door.expectRejected(await door.send({ 'tt-api-key': '' }), 'API_KEY_REQUIRED');
    });

    it('rejects an Authorization header without a Bearer token with 401 API_KEY_REQUIRED', async () => {
      await door.expectRejected(await door.send({ authorization: 'Bearer ' }), 'API_KEY_REQUIRED');
      await door.expectRejected(await door.send({ authorization: 'Basic dXNlcjpwYXNz' }), 'API_KEY_REQUIRED');
    });
  });

  describe('INVALID_API_KEY_FORMAT (401)', () => {
    const malformed: [string, string][] = [
      ['a key without the tt_ prefix', `xx_${hex(64)}`],
      ['a bare 64-hex key with no prefix', hex(64)],
      ['a key with an uppercase TT_ prefix', `TT_${hex(64)}`],
      ['a key that is too short', `tt_${hex(63)}`],
      ['a key that is only the prefix', 'tt_'],
      ['a key in uppercase hex', `tt_${hex(64).toUpperCase()}`],
      ['a key with 65 hex characters', `tt_${hex(65)}`],
      ['a key with non-hex characters', `tt_${'g'.repeat(64)}`],
    ];

    // Each malformed string is also stored as a secret of a working key: were it looked up, it would
    // authenticate. Getting INVALID_API_KEY_FORMAT proves the format check runs before any lookup.
    beforeAll(async () => {
      const trap = await newKey();
      await server.prisma.apiKeySecret.createMany({
        data: malformed.map(([, value]) => ({
          apiKeyId: trap.keyId,
          hash: hashSecret(value),
          lastFour: 'trap',
        })),
        skipDuplicates: true,
      });
    });

    it.each(malformed)(
      'rejects %s with 401 INVALID_API_KEY_FORMAT before any lookup',
      async (_name, value) => {
        await door.expectRejected(await door.send(ttHeader(value)), 'INVALID_API_KEY_FORMAT');
        await door.expectRejected(await door.send(bearer(value)), 'INVALID_API_KEY_FORMAT');
      },
    );
  });

  describe('INVALID_API_KEY (401)', () => {
    it('rejects a well-formed key that does not exist with 401 INVALID_API_KEY', async () => {
      await door.expectRejected(await door.send(ttHeader(generateApiKeySecret())), 'INVALID_API_KEY');
      await door.expectRejected(await door.send(bearer(generateApiKeySecret())), 'INVALID_API_KEY');
    });

    it('rejects a deleted key with 401 INVALID_API_KEY', async () => {
      const { keyId, secret } = await newKey();
      await server.prisma.apiKey.delete({ where: { id: keyId } });
      await door.expectRejected(await door.send(ttHeader(secret)), 'INVALID_API_KEY');
    });
  });

  describe('the key headers', () => {
    it('accepts the key in tt-api-key', async () => {
      const { secret } = await newKey();
      await door.expectAccepted(await door.send(ttHeader(secret)));
    });

    it('accepts the key as Authorization: Bearer, whatever the case of "Bearer"', async () => {
      const { secret } = await newKey();
      await door.expectAccepted(await door.send(bearer(secret)));
      await door.expectAccepted(await door.send({ authorization: `bearer ${secret}` }));
    });

    it('uses tt-api-key when both headers are present', async () => {
      const { secret } = await newKey();
      await door.expectAccepted(await door.send({ ...ttHeader(secret), ...bearer(generateApiKeySecret()) }));
      await door.expectRejected(
        await door.send({ ...ttHeader(generateApiKeySecret()), ...bearer(secret) }),
        'INVALID_API_KEY',
      );
    });
  });

  describe('API_KEY_REVOKED (401)', () => {
    it('rejects a key revoked in the past with 401 API_KEY_REVOKED', async () => {
      const revokedAt = new Date(server.clock.now.getTime() - 60 * SECOND);
      const { secret } = await newKey('pro', {}, { status: 'revoked', revokedAt });
      await door.expectRejected(await door.send(ttHeader(secret)), 'API_KEY_REVOKED');
    });

    it('rejects a revoked key from the instant revokedAt is reached, and one without revokedAt', async () => {
      const revokedAt = server.clock.now;
      const { secret } = await newKey('pro', {}, { status: 'revoked', revokedAt });
      await door.expectRejected(await door.send(ttHeader(secret)), 'API_KEY_REVOKED');
      const unset = await newKey('pro', {}, { status: 'revoked', revokedAt: null });
      await door.expectRejected(await door.send(ttHeader(unset.secret)), 'API_KEY_REVOKED');
    });

    it('keeps a revoked key working until its revoke grace period ends (revokedAt in the future)', async () => {
      const revokedAt = new Date(server.clock.now.getTime() + 60 * SECOND);
      const { secret } = await newKey('pro', {}, { status: 'revoked', revokedAt });
      await door.expectAccepted(await door.send(ttHeader(secret)));
      server.clock.now = revokedAt;
      await door.expectRejected(await door.send(ttHeader(secret)), 'API_KEY_REVOKED');
    });
  });

  describe('API_KEY_INACTIVE (401)', () => {
    it('rejects a deactivated key with 401 API_KEY_INACTIVE, and accepts it again once reactivated', async () => {
      const { keyId, secret } = await newKey('pro', {}, { status: 'inactive' });
      await door.expectRejected(await door.send(ttHeader(secret)), 'API_KEY_INACTIVE');
      await server.prisma.apiKey.update({ where: { id: keyId }, data: { status: 'active' } });
      await door.expectAccepted(await door.send(ttHeader(secret)));
    });
  });

  describe('API_KEY_EXPIRED (401)', () => {
    it('accepts a key one second before expiresAt and rejects it from expiresAt on with 401 API_KEY_EXPIRED', async () => {
      const expiresAt = new Date(server.clock.now.getTime() + 3600 * SECOND);
      const { secret } = await newKey('pro', { expiresAt });
      server.clock.now = new Date(expiresAt.getTime() - SECOND);
      await door.expectAccepted(await door.send(ttHeader(secret)));
      server.clock.now = expiresAt;
      await door.expectRejected(await door.send(ttHeader(secret)), 'API_KEY_EXPIRED');
      server.clock.now = new Date(expiresAt.getTime() + SECOND);
      await door.expectRejected(await door.send(ttHeader(secret)), 'API_KEY_EXPIRED');
    });
  });

  describe('API_KEY_GRACE_PERIOD_EXPIRED (401)', () => {
    it('accepts a rotated secret one second before its grace ends and rejects it after with 401 API_KEY_GRACE_PERIOD_EXPIRED', async () => {
      const { keyId, secret: current } = await newKey();
      const graceEndsAt = new Date(server.clock.now.getTime() + 3600 * SECOND);
      const old = await rotatedSecret(keyId, graceEndsAt);

      server.clock.now = new Date(graceEndsAt.getTime() - SECOND);
      await door.expectAccepted(await door.send(ttHeader(old)));
      server.clock.now = graceEndsAt;
      await door.expectRejected(await door.send(ttHeader(old)), 'API_KEY_GRACE_PERIOD_EXPIRED');
      server.clock.now = new Date(graceEndsAt.getTime() + SECOND);
      await door.expectRejected(await door.send(bearer(old)), 'API_KEY_GRACE_PERIOD_EXPIRED');
      // The key's current secret is unaffected.
      await door.expectAccepted(await door.send(ttHeader(current)));
    });
  });

  describe('STORE_SUSPENDED (402)', () => {
    it('rejects a key of a suspended store with 402 STORE_SUSPENDED', async () => {
      const { secret } = await newKey('suspended');
      await door.expectRejected(await door.send(ttHeader(secret)), 'STORE_SUSPENDED');
    });
  });

  describe('PLAN_NOT_ELIGIBLE (403)', () => {
    it.each(['free', 'starter'] as const)(
      'rejects a key of a %s-plan store with 403 PLAN_NOT_ELIGIBLE',
      async (store) => {
        const { secret } = await newKey(store);
        await door.expectRejected(await door.send(ttHeader(secret)), 'PLAN_NOT_ELIGIBLE');
      },
    );

    it.each(['pro', 'scale'] as const)('accepts a key of a %s-plan store', async (store) => {
      const { secret } = await newKey(store);
      await door.expectAccepted(await door.send(ttHeader(secret)));
    });
  });

  describe('IP_NOT_WHITELISTED (403)', () => {
    it('rejects a request from an address outside the key’s allowlist with 403 IP_NOT_WHITELISTED', async () => {
      const { secret } = await newKey('pro', {
        ipAllowlist: ['10.0.0.0/8', '192.0.2.1', '::1', '2001:db8::/32'],
      });
      await door.expectRejected(await door.send(ttHeader(secret)), 'IP_NOT_WHITELISTED');
    });

    it.each([[['127.0.0.1']], [['127.0.0.0/8']], [['::ffff:127.0.0.1']], [['192.0.2.1', '127.0.0.1']]])(
      'accepts a request from 127.0.0.1 with the allowlist %j',
      async (ipAllowlist) => {
        const { secret } = await newKey('pro', { ipAllowlist });
        await door.expectAccepted(await door.send(ttHeader(secret)));
      },
    );
  });

  describe('INSUFFICIENT_SCOPE (403)', () => {
    it('rejects a key with only PRODUCTS:READ with INSUFFICIENT_SCOPE naming CATEGORIES:READ', async () => {
      const { secret } = await newKey('pro', { scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }] });
      const res = await door.send(ttHeader(secret));
      const copy = res.clone();
      await door.expectRejected(res, 'INSUFFICIENT_SCOPE');
      expect(JSON.stringify(await copy.json())).toContain('CATEGORIES:READ');
    });

    it('rejects a key with the right resource but another action', async () => {
      const { secret } = await newKey('pro', {
        scopes: [{ resource: 'CATEGORIES', actions: ['WRITE', 'UPDATE', 'DELETE'] }],
      });
      await door.expectRejected(await door.send(ttHeader(secret)), 'INSUFFICIENT_SCOPE');
    });

    it('accepts a key with exactly CATEGORIES:READ', async () => {
      const { secret } = await newKey('pro', { scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }] });
      await door.expectAccepted(await door.send(ttHeader(secret)));
    });
  });

  /**
   * The check order of docs/design.md "API keys", first failure wins. Each row builds a key that fails its own check and every
   * later one it can (status is one value: a revoked key is not also inactive).
   */
  describe('check order', () => {
    const order = [
      'API_KEY_GRACE_PERIOD_EXPIRED',
      'API_KEY_REVOKED',
      'API_KEY_INACTIVE',
      'API_KEY_EXPIRED',
      'STORE_SUSPENDED',
      'PLAN_NOT_ELIGIBLE',
      'IP_NOT_WHITELISTED',
      'INSUFFICIENT_SCOPE',
    ] as const satisfies readonly ErrorCode[];

    async function keyFailingFrom(first: (typeof order)[number]): Promise<string> {
      const from = order.indexOf(first);
      const fails = (code: (typeof order)[number]) => order.indexOf(code) >= from;
      const now = server.clock.now.getTime();
      const store = fails('STORE_SUSPENDED') ? 'suspendedFree' : fails('PLAN_NOT_ELIGIBLE') ? 'free' : 'pro';
      const { keyId, secret } = await newKey(
        store,
        {
          ipAllowlist: fails('IP_NOT_WHITELISTED') ? ['10.0.0.0/8'] : [],
          // The scope check is last: every row fails it.
          scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
        },
        {
          ...(fails('API_KEY_REVOKED')
            ? { status: 'revoked' as const, revokedAt: new Date(now - 60 * SECOND) }
            : fails('API_KEY_INACTIVE')
              ? { status: 'inactive' as const }
              : {}),
          ...(fails('API_KEY_EXPIRED') ? { expiresAt: new Date(now - 60 * SECOND) } : {}),
        },
      );
      if (fails('API_KEY_GRACE_PERIOD_EXPIRED')) return rotatedSecret(keyId, new Date(now - 60 * SECOND));
      return secret;
    }

    it.each(order)('%s wins over every later check', async (first) => {
      const secret = await keyFailingFrom(first);
      await door.expectRejected(await door.send(ttHeader(secret)), first);
    });
  });
});
