import type { Plan } from '../../prisma/generated/client/enums';
import { allScopePairs, type ScopeObject, toScopeObjects } from '../../src/access/scopes';
import { KeyVerifier } from '../../src/auth/key-verifier';
import type { Db } from '../../src/db/client';
import type { NewApiKeyInput } from '../../src/modules/api-keys/input';
import { issueApiKey } from '../../src/modules/api-keys/issue';
import { createStore } from '../../src/modules/stores/provision';

let counter = 0;
/** Digits only: a suffix must never match a test's text filter (a base-36 one once contained "sh"). */
const unique = () => `${Date.now()}${counter++}`;

export const allScopes = (): ScopeObject[] => toScopeObjects(allScopePairs());

export async function makeStore(db: Db, options: { plan?: Plan; name?: string; currency?: string } = {}) {
  const id = unique();
  return createStore(db, {
    name: options.name ?? `Store ${id}`,
    plan: options.plan ?? 'PRO',
    currency: options.currency,
    ownerEmail: `owner-${id}@example.test`,
  });
}

/** A store of its own and a key with every scope. */
export async function makeStoreWithKey(db: Db) {
  const id = (await makeStore(db)).id;
  return { id, key: (await makeKey(db, id)).secret };
}

export async function makeKey(
  db: Db,
  storeId: string,
  input: Partial<NewApiKeyInput> = {},
  now = new Date(),
) {
  return issueApiKey(
    db,
    storeId,
    { keyName: 'test key', environment: 'production', scopes: allScopes(), ...input },
    { now },
  );
}

export async function makeCategories(db: Db, storeId: string, names: string[]) {
  const base = Date.UTC(2026, 0, 1);
  for (const [i, name] of names.entries()) {
    await db.category.create({
      data: {
        storeId,
        name,
        slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${unique()}`,
        position: i,
        createdAt: new Date(base + i * 60_000),
      },
    });
  }
}

/** Runs the real key checks (no cache) and returns the principal, as the request pipeline would. */
export async function verifyKey(
  db: Db,
  secret: string | undefined,
  clientAddress: string | undefined,
  now: Date,
) {
  return (await new KeyVerifier(db, { ttlMs: 0, maxEntries: 1 }).verify(secret, clientAddress, now))
    .principal;
}

/** `count` active products in one statement (in a category when given), each with a name, SKU and price. */
export async function makeProducts(db: Db, storeId: string, count: number, categoryId?: string) {
  const id = unique();
  await db.product.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      storeId,
      name: `Product ${i}`,
      slug: `product-${id}-${i}`,
      sku: `SKU-${id}-${i}`,
      priceAmount: 1000 + i,
      currency: 'USD',
      ...(categoryId ? { categoryId } : {}),
    })),
  });
}

/** `count` orders of one customer, each with `linesEach` lines, in two statements. */
export async function makeOrders(db: Db, storeId: string, count: number, linesEach: number) {
  const id = unique();
  const customer = await db.customer.create({ data: { storeId, email: `buyer-${id}@example.test` } });
  const orders = Array.from({ length: count }, (_, i) => ({
    id: `ord_${id}x${i}`,
    storeId,
    number: 1000 + i,
    customerId: customer.id,
    email: customer.email,
    currency: 'USD',
    subtotalAmount: 500 * linesEach,
    totalAmount: 500 * linesEach,
  }));
  await db.order.createMany({ data: orders });
  await db.orderItem.createMany({
    data: orders.flatMap((order) =>
      Array.from({ length: linesEach }, (_, line) => ({
        orderId: order.id,
        name: `Line ${line}`,
        unitAmount: 500,
        quantity: 1,
        totalAmount: 500,
      })),
    ),
  });
}
