import { parse } from 'graphql';
import type { Redis } from 'ioredis';
import { CachedResult, cachedAnswer } from '../../src/read-cache/answer';
import { DataVersions } from '../../src/read-cache/data-version';
import { CachedReads } from '../../src/read-cache/entries';
import { cacheableReadScopes } from '../../src/read-cache/operation';
import { createReadCache } from '../../src/read-cache/read-cache';
import { schema } from '../../src/schema';
import { captureLogs, testPrefix, unreachableRedis } from '../helpers/redis-prefix';

const scopesOf = (query: string, operationName?: string) =>
  cacheableReadScopes(schema, parse(query), operationName);

describe('which operations the read cache may answer', () => {
  it('a query of catalogue reads, with the pairs of its root fields', () => {
    expect(scopesOf('{ products { items { id } } categories { items { id } } __typename }')?.sort()).toEqual([
      'CATEGORIES:READ',
      'PRODUCTS:READ',
    ]);
    expect(scopesOf('query One($id: ID!) { p: product(id: $id) { name } }')).toEqual(['PRODUCTS:READ']);
    expect(scopesOf('{ productsConnection(first: 2) { edges { node { id } } } }')).toEqual(['PRODUCTS:READ']);
  });

  it('never a mutation, a query with any other root field, root fragments or only __typename', () => {
    expect(scopesOf('mutation { deleteProduct(id: "x") { id } }')).toBeNull();
    expect(scopesOf('{ products { items { id } } orders { items { id } } }')).toBeNull();
    expect(scopesOf('{ ...F } fragment F on Query { products { items { id } } }')).toBeNull();
    expect(scopesOf('{ __typename }')).toBeNull();
  });

  it('the operation named, in a document of several', () => {
    const document = 'query A { products { items { id } } } query B { orders { items { id } } }';
    expect(scopesOf(document, 'A')).toEqual(['PRODUCTS:READ']);
    expect(scopesOf(document, 'B')).toBeNull();
  });
});

describe("a process's cached answers", () => {
  const entry = (storeId: string, body: string) => ({
    storeId,
    version: 'v1',
    answer: new CachedResult({ data: { body } }),
  });
  const bodyOf = (read: { answer: CachedResult } | undefined) =>
    (read?.answer.result.data as { body: string } | undefined)?.body;

  it('are bounded by the size of their results, least recently used out first', () => {
    // Room for two of these entries (key and result), not three.
    const reads = new CachedReads({ maxBytes: 2 * (1 + entry('s', 'aaaa').answer.size), ttlMs: 1000 });
    reads.set('a', entry('s', 'aaaa'), 0);
    reads.set('b', entry('s', 'bbbb'), 0);
    expect(bodyOf(reads.get('a', 1))).toBe('aaaa'); // now b is the least recently used
    reads.set('c', entry('s', 'cccc'), 1);
    expect(reads.get('b', 2)).toBeUndefined();
    expect(bodyOf(reads.get('a', 2))).toBe('aaaa');
    expect(bodyOf(reads.get('c', 2))).toBe('cccc');
    reads.set('huge', entry('s', 'x'.repeat(100)), 2);
    expect(reads.get('huge', 3)).toBeUndefined();
  });

  it('hold memory of their own, never a slice of a shared buffer pool', () => {
    const small = cachedAnswer('{"a":1}');
    expect(small.body.toString()).toBe('{"a":1}');
    expect(small.body.buffer.byteLength).toBe(small.body.length);
    expect(cachedAnswer('é', () => 'W/"x"')).toMatchObject({ etag: 'W/"x"' });
  });

  it('expire after their time to live, and are forgotten per store', () => {
    const reads = new CachedReads({ maxBytes: 1000, ttlMs: 1000 });
    reads.set('a', entry('s1', 'one'), 0);
    reads.set('b', entry('s2', 'two'), 0);
    expect(bodyOf(reads.get('a', 999))).toBe('one');
    expect(reads.get('a', 1000)).toBeUndefined();
    reads.set('a', entry('s1', 'one'), 1000);
    reads.forgetStore('s1');
    expect(reads.get('a', 1001)).toBeUndefined();
    expect(bodyOf(reads.get('b', 999))).toBe('two');
  });
});

describe('after a mutation whose version could not be replaced', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await unreachableRedis();
  });
  afterAll(() => redis.disconnect());

  const principal = { kind: 'apiKey', keyId: 'k', storeId: 's', scopes: new Set(['PRODUCTS:READ']) } as never;
  const cacheWith = (ttlMs: number) => {
    const { logger, lines } = captureLogs('warn');
    const versions = new DataVersions(redis, { keyPrefix: testPrefix('versions'), timeoutMs: 100, logger });
    return { cache: createReadCache({ versions, ttlMs, maxBytes: 1000, logger }), lines };
  };

  it('the store is not answered from memory for READ_CACHE_TTL_MS, and a warning says so', async () => {
    const { cache, lines } = cacheWith(60_000);
    await cache.storeChanged('s');
    expect(cache.lookup(principal, 'v1', 'list', ['PRODUCTS:READ']).kind).toBe('off');
    expect(lines.some((line) => /could not be replaced/.test(line.msg))).toBe(true);
  });

  it('a read that was running meanwhile remembers nothing, however long it takes', async () => {
    const { cache } = cacheWith(50);
    const running = cache.lookup(principal, 'v1', 'list', ['PRODUCTS:READ']);
    expect(running.kind).toBe('miss');
    await cache.storeChanged('s');
    await new Promise((resolve) => setTimeout(resolve, 80)); // past the store's distrust
    if (running.kind === 'miss') running.remember(new CachedResult({ data: { rows: 'old' } }));
    expect(cache.lookup(principal, 'v1', 'list', ['PRODUCTS:READ']).kind).toBe('miss');
  });
});
