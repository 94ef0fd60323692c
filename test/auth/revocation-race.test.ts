import { Client } from 'pg';
import { KeyVerifier } from '../../src/auth/key-verifier';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 28: a key lookup in flight while its key is revoked (or its store changed) must not put the
 * row it read before the change back into the verified-key cache. Each test holds the lookup's answer
 * — PostgreSQL has already run the SELECT — until the change has committed and been invalidated.
 */

let server: TestServer;

beforeAll(async () => {
  // Only an invalidation, never the TTL, can make a verified key be looked up again within a test.
  server = await startTestServer({ AUTH_CACHE_TTL_MS: '60000' });
});
afterAll(() => server.close());

type Query = (this: Client, ...args: unknown[]) => unknown;
const clientProto = Client.prototype as unknown as { query: Query };

/**
 * Holds the answer of the next statement that looks a secret up, after PostgreSQL has answered it,
 * until `release()`. The pool's clients call pg's query method as it is at call time (src/db/client.ts),
 * so replacing it here reaches every statement of the test server's Prisma client.
 */
function holdNextKeyLookup() {
  const original = clientProto.query;
  let reached: () => void = () => {};
  let release: () => void = () => {};
  const reachedPromise = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  clientProto.query = function (this: Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    if (!text.includes('FROM "ApiKeySecret"')) return original.apply(this, args);
    clientProto.query = original;
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: unknown, result: unknown) => {
        reached();
        void released.then(() => callback(error, result));
      };
      return original.apply(this, args);
    }
    return (original.apply(this, args) as Promise<unknown>).then(async (result) => {
      reached();
      await released;
      return result;
    });
  };
  return { reached: reachedPromise, release: () => release(), restore: () => (clientProto.query = original) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
}

describe('over HTTP', () => {
  it('a lookup in flight across a revocation answers with what it read, caches nothing: the next request is API_KEY_REVOKED at once', async () => {
    const store = await makeStore(server.prisma);
    const admin = await makeKey(server.prisma, store.id);
    const target = await makeKey(server.prisma, store.id, { keyName: 'target' });
    expect((await server.request('/api/v1/category', { key: admin.secret })).status).toBe(200);

    const hold = holdNextKeyLookup();
    try {
      const inFlight = server.request('/api/v1/category', { key: target.secret });
      await hold.reached;
      // The lookup has read the active row; now the revocation commits and is invalidated.
      const revoke = await server.request(`/api/v1/api-key/${target.keyId}/revoke`, {
        method: 'POST',
        key: admin.secret,
      });
      expect(revoke.status).toBe(200);
      hold.release();
      // It started before the revocation: its answer may be the old row's.
      expect((await inFlight).status).toBe(200);
    } finally {
      hold.restore();
    }
    const next = await server.request('/api/v1/category', { key: target.secret });
    expect(next.status).toBe(401);
    expect((await next.json()).code).toBe('API_KEY_REVOKED');
  });
});

describe('the verifier', () => {
  const now = () => server.clock.now;
  const address = '192.0.2.40';

  /** Verifies `secret` once with its lookup held while `change` runs; the held verify's outcome. */
  async function acrossChange(verifier: KeyVerifier, secret: string, change: () => Promise<void>) {
    const hold = holdNextKeyLookup();
    try {
      const inFlight = codeOf(verifier.verify(secret, address, now()));
      await hold.reached;
      await change();
      hold.release();
      return await inFlight;
    } finally {
      hold.restore();
    }
  }

  it('a store invalidated during the lookup (suspension) is seen by the next verify', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    const verifier = new KeyVerifier(server.prisma, { ttlMs: 60_000, maxEntries: 100 });
    const held = await acrossChange(verifier, secret, async () => {
      await server.prisma.store.update({ where: { id: store.id }, data: { status: 'SUSPENDED' } });
      verifier.invalidate({ storeId: store.id });
    });
    expect(held).toBe('ok');
    expect(await codeOf(verifier.verify(secret, address, now()))).toBe('STORE_SUSPENDED');
  });

  it('everything cleared during the lookup is seen by the next verify', async () => {
    const store = await makeStore(server.prisma);
    const { keyId, secret } = await makeKey(server.prisma, store.id);
    const verifier = new KeyVerifier(server.prisma, { ttlMs: 60_000, maxEntries: 100 });
    await acrossChange(verifier, secret, async () => {
      await server.prisma.apiKey.update({ where: { id: keyId }, data: { status: 'inactive' } });
      verifier.clear();
    });
    expect(await codeOf(verifier.verify(secret, address, now()))).toBe('API_KEY_INACTIVE');
  });

  it('an invalidation of another key or store during the lookup does not keep it from the cache', async () => {
    const store = await makeStore(server.prisma);
    const other = await makeStore(server.prisma);
    const { keyId, secret } = await makeKey(server.prisma, store.id);
    const otherKey = await makeKey(server.prisma, other.id);
    const verifier = new KeyVerifier(server.prisma, { ttlMs: 60_000, maxEntries: 100 });
    await acrossChange(verifier, secret, async () => {
      verifier.invalidate({ keyId: otherKey.keyId });
      verifier.invalidate({ storeId: other.id });
    });
    // Changed behind the verifier's back (no invalidation): a cached key does not notice.
    await server.prisma.apiKey.update({ where: { id: keyId }, data: { status: 'inactive' } });
    expect(await codeOf(verifier.verify(secret, address, now()))).toBe('ok');
  });
});
