import type { Prisma } from '../../prisma/generated/client/client';
import { published } from '../helpers/event-schemas';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/** Orders tests send bursts of requests with one key: a limit far above them keeps 429s out. */
export const startOrdersServer = () => startTestServer({ RATE_LIMIT_MAX: '100000' });

export interface Shop {
  id: string;
  key: string;
}

export async function makeShop(server: TestServer): Promise<Shop> {
  const id = (await makeStore(server.prisma)).id;
  return { id, key: (await makeKey(server.prisma, id)).secret };
}

let counter = 0;

export function makeProduct(
  server: TestServer,
  storeId: string,
  data: Partial<Prisma.ProductUncheckedCreateInput> = {},
) {
  const n = counter++;
  return server.prisma.product.create({
    data: {
      storeId,
      name: `Product ${n}`,
      slug: `product-${n}-${Date.now().toString(36)}`,
      sku: `SKU-${n}`,
      priceAmount: 1000,
      currency: 'USD',
      stock: 100,
      ...data,
    },
  });
}

export function makeCustomer(server: TestServer, storeId: string, email = `c${counter++}@example.test`) {
  return server.prisma.customer.create({ data: { storeId, email, firstName: 'Ada', lastName: 'Lovelace' } });
}

export function client(server: TestServer, key: string) {
  const send = (method: string, path: string, body?: unknown, as = key) =>
    server.send(method, `/api/v1${path}`, body, as);
  const gql = async (query: string, variables: Record<string, unknown> = {}, as = key) =>
    (await server.graphql(query, variables, as)).json();
  /** POST /order and the created order (fails the test unless 201). */
  const place = async (body: unknown) => {
    const res = await send('POST', '/order', body);
    const json = await res.json();
    if (res.status !== 201) throw new Error(`POST /order: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return { send, gql, place };
}

/** A product's stock as PostgreSQL has it now. */
export const stockOf = async (server: TestServer, productId: string) =>
  (await server.prisma.product.findUniqueOrThrow({ where: { id: productId } })).stock;

/** The store's events (each checked against its published schema). */
export const eventsFor = async (server: TestServer, storeId: string, type?: string) =>
  published(
    await server.prisma.event.findMany({
      where: { storeId, ...(type ? { type } : {}) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
  );

export const detailPaths = (json: { details?: Array<{ path: string }> }) =>
  (json.details ?? []).map((d) => d.path);
