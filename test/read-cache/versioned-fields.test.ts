import fc from 'fast-check';
import { parse } from 'graphql';
import { declaredScope, isCacheableRead, isVersionedRead } from '../../src/field-extensions';
import { cacheableReadScopes, versionedReadScopes } from '../../src/read-cache/operation';
import { schema } from '../../src/schema';

/**
 * README "Conditional requests": a root query field whose answer only writeStore changes declares
 * `versionedRead` (or `cacheableRead`), and its reads get the version tag and a 304 before any
 * resolver. A field wrongly declared so would answer 304 for data a job, a sign-in or the request log
 * changed: so every declaring field is listed here, and adding one is a reviewed edit of this list,
 * with the reason its data qualifies.
 */
const REVIEWED: Record<string, string> = {
  // The catalogue: cacheable reads (README "Read cache"), versioned as well.
  products: 'products/service.ts, orders (stock) through writeStore',
  productsConnection: 'as products',
  product: 'as products',
  categories: 'categories/service.ts and tree.ts through writeStore',
  categoriesConnection: 'as categories',
  category: 'as categories',
  // Versioned, not cached.
  orders: 'orders/place.ts and transitions.ts through writeStore; no job writes an order',
  ordersConnection: 'as orders',
  order: 'as orders',
  customers: 'customers/service.ts through writeStore; orderCount and totalSpent from orders',
  customersConnection: 'as customers',
  customer: 'as customers',
  coupons: 'coupons/service.ts, redemptions in orders/place.ts and transitions.ts, through writeStore',
  couponsConnection: 'as coupons',
  coupon: 'as coupons',
  reviews: 'reviews/service.ts through writeStore; their product from the catalogue',
  reviewsConnection: 'as reviews',
  review: 'as reviews',
  storeSettings: "the store's row: store-settings/service.ts and stores/lifecycle.ts through writeStore",
};
const CACHEABLE = [
  'products',
  'productsConnection',
  'product',
  'categories',
  'categoriesConnection',
  'category',
];

const rootFields = schema.getQueryType()?.getFields() ?? {};
const names = Object.keys(rootFields).sort();

describe('which root query fields the data version vouches for', () => {
  it('every reviewed field exists; some root fields are not reviewed', () => {
    expect(Object.keys(REVIEWED).filter((name) => !(name in rootFields))).toEqual([]);
    expect(names.filter((name) => !(name in REVIEWED))).toEqual(
      expect.arrayContaining(['apiKeys', 'webhookEndpoints', 'analyticsSummary', 'staffMembers', 'node']),
    );
  });

  it('a field declares versionedRead or cacheableRead exactly when it is in the reviewed list; cacheable fields are the catalogue', () => {
    fc.assert(
      fc.property(fc.constantFrom(...names), (name) => {
        const field = rootFields[name];
        expect(isVersionedRead(field)).toBe(name in REVIEWED);
        expect(isCacheableRead(field)).toBe(CACHEABLE.includes(name));
        if (isVersionedRead(field)) expect(declaredScope(field)).toMatch(/^[A-Z_]+:READ$/);
      }),
      { numRuns: names.length * 4 },
    );
  });

  it('a query is versioned exactly when every root field it selects is, with the pairs they declare; cached only when all are catalogue reads', () => {
    fc.assert(
      fc.property(fc.subarray(names, { minLength: 1, maxLength: 5 }), fc.boolean(), (selected, typename) => {
        const document = parse(`{ ${typename ? '__typename ' : ''}${selected.join(' ')} }`);
        const scopes = versionedReadScopes(schema, document);
        if (selected.every((name) => name in REVIEWED)) {
          const pairs = new Set(selected.map((name) => declaredScope(rootFields[name])));
          expect(new Set(scopes)).toEqual(pairs);
        } else expect(scopes).toBeNull();
        expect(cacheableReadScopes(schema, document) !== null).toBe(
          selected.every((name) => CACHEABLE.includes(name)),
        );
      }),
    );
  });

  it('never a mutation, root fragments or only __typename', () => {
    expect(versionedReadScopes(schema, parse('mutation { cancelOrder(id: "x") { id } }'))).toBeNull();
    expect(
      versionedReadScopes(schema, parse('{ ...F } fragment F on Query { orders { items { id } } }')),
    ).toBeNull();
    expect(versionedReadScopes(schema, parse('{ __typename }'))).toBeNull();
  });
});
