import { parse } from 'graphql';
import { CachedReads } from '../../src/read-cache/entries';
import { cacheableReadScopes } from '../../src/read-cache/operation';
import { schema } from '../../src/schema';

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
  const entry = (storeId: string, body: string) => ({ storeId, version: 'v1', body });

  it('are bounded by the size of their bodies, least recently used out first', () => {
    const reads = new CachedReads({ maxChars: 10, ttlMs: 1000 });
    reads.set('a', entry('s', 'aaaa'), 0);
    reads.set('b', entry('s', 'bbbb'), 0);
    expect(reads.get('a', 1)?.body).toBe('aaaa'); // now b is the least recently used
    reads.set('c', entry('s', 'cccc'), 1);
    expect(reads.get('b', 2)).toBeUndefined();
    expect(reads.get('a', 2)?.body).toBe('aaaa');
    expect(reads.get('c', 2)?.body).toBe('cccc');
    reads.set('huge', entry('s', 'x'.repeat(11)), 2);
    expect(reads.get('huge', 3)).toBeUndefined();
  });

  it('expire after their time to live, and are forgotten per store', () => {
    const reads = new CachedReads({ maxChars: 100, ttlMs: 1000 });
    reads.set('a', entry('s1', 'one'), 0);
    reads.set('b', entry('s2', 'two'), 0);
    expect(reads.get('a', 999)?.body).toBe('one');
    expect(reads.get('a', 1000)).toBeUndefined();
    reads.set('a', entry('s1', 'one'), 1000);
    reads.forgetStore('s1');
    expect(reads.get('a', 1001)).toBeUndefined();
    expect(reads.get('b', 999)?.body).toBe('two');
  });
});
