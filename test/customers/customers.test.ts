import type { OrderStatus } from '../../prisma/generated/client/enums';
import { published } from '../helpers/event-schemas';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { detailPaths } from '../helpers/responses';
import { isRequestLogWrite, startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let storeId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const send = (method: string, path: string, body?: unknown, as = key, headers: Record<string, string> = {}) =>
  server.request(path, {
    method,
    key: as,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const gql = async (query: string, variables: Record<string, unknown> = {}, as = key) =>
  (await server.graphql(query, variables, as)).json();

const freshStore = () => makeStoreWithKey(server.prisma);

const base = Date.UTC(2026, 0, 1);
type Row = { email: string; firstName?: string | null; lastName?: string | null; minute: number };
async function seedCustomers(forStore: string, rows: Row[]) {
  const created = [];
  for (const row of rows) {
    created.push(
      await server.prisma.customer.create({
        data: {
          storeId: forStore,
          email: row.email,
          firstName: row.firstName ?? null,
          lastName: row.lastName ?? null,
          createdAt: new Date(base + row.minute * 60_000),
        },
      }),
    );
  }
  return created;
}

let orderNumber = 5000;
async function seedOrder(
  forStore: string,
  customerId: string | null,
  totalAmount: number,
  status: OrderStatus,
) {
  return server.prisma.order.create({
    data: {
      storeId: forStore,
      number: orderNumber++,
      customerId,
      email: 'buyer@example.test',
      status,
      currency: 'USD',
      subtotalAmount: totalAmount,
      totalAmount,
    },
  });
}

const eventsOf = async (forStore: string, type: string) =>
  published(
    await server.prisma.event.findMany({ where: { storeId: forStore, type }, orderBy: { createdAt: 'asc' } }),
  );

describe('customer list', () => {
  let store: { id: string; key: string };
  let rows: Awaited<ReturnType<typeof seedCustomers>>;
  const emailsOf = async (query: string) => {
    const res = await send('GET', `/api/v1/customer${query}`, undefined, store.key);
    expect(res.status).toBe(200);
    return (await res.json()).data.map((c: { email: string }) => c.email);
  };
  const byId = (list: typeof rows) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));

  beforeAll(async () => {
    store = await freshStore();
    rows = await seedCustomers(store.id, [
      { email: 'dora@example.test', firstName: 'Dora', lastName: 'Lee', minute: 0 },
      { email: 'ann@example.test', firstName: 'Ann', lastName: 'Lee', minute: 1 },
      { email: 'bob@example.test', firstName: 'Bob', lastName: 'Marley', minute: 2 },
      { email: 'carl@shop.test', firstName: 'Carl', lastName: 'Adams', minute: 3 },
      { email: 'eve@example.test', minute: 3 },
    ]);
  });

  it('answers with the list envelope, newest first by default, ties broken by id', async () => {
    const res = await send('GET', '/api/v1/customer', undefined, store.key);
    const json = await res.json();
    expect(json.success).toBe(true);
    expect(json.pagination).toEqual({
      results: [],
      totalResults: 5,
      currentPage: 1,
      page: 1,
      limit: 25,
      lastPage: 1,
    });
    const sameMinute = byId([rows[3]!, rows[4]!])
      .reverse()
      .map((r) => r.email);
    expect(json.data.map((c: { email: string }) => c.email)).toEqual([
      ...sameMinute,
      'bob@example.test',
      'ann@example.test',
      'dora@example.test',
    ]);
    expect(json.data[2]).toEqual({
      id: rows[2]!.id,
      email: 'bob@example.test',
      firstName: 'Bob',
      lastName: 'Marley',
      phone: null,
      acceptsMarketing: false,
      orderCount: 0,
      totalSpentAmount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('sorts by each field in both directions, stable by id', async () => {
    const createdAsc = [
      'dora@example.test',
      'ann@example.test',
      'bob@example.test',
      ...byId([rows[3]!, rows[4]!]).map((r) => r.email),
    ];
    expect(await emailsOf('?sortBy=createdAt&sortDirection=asc')).toEqual(createdAsc);
    expect(await emailsOf('?sortBy=createdAt&sortDirection=desc')).toEqual([...createdAsc].reverse());

    const emailAsc = [
      'ann@example.test',
      'bob@example.test',
      'carl@shop.test',
      'dora@example.test',
      'eve@example.test',
    ];
    expect(await emailsOf('?sortBy=email&sortDirection=asc')).toEqual(emailAsc);
    expect(await emailsOf('?sortBy=email&sortDirection=desc')).toEqual([...emailAsc].reverse());

    // PostgreSQL puts NULLs last ascending and first descending; two Lees are ordered by id.
    const lees = byId([rows[0]!, rows[1]!]).map((r) => r.email);
    const lastNameAsc = ['carl@shop.test', ...lees, 'bob@example.test', 'eve@example.test'];
    expect(await emailsOf('?sortBy=lastName&sortDirection=asc')).toEqual(lastNameAsc);
    expect(await emailsOf('?sortBy=lastName&sortDirection=desc')).toEqual([...lastNameAsc].reverse());
  });

  it('pages without overlap from page 1 to lastPage', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const json = await (
        await send('GET', `/api/v1/customer?limit=2&page=${page}&sortBy=lastName`, undefined, store.key)
      ).json();
      expect(json.pagination).toEqual(
        expect.objectContaining({ totalResults: 5, currentPage: page, limit: 2, lastPage: 3 }),
      );
      seen.push(...json.data.map((c: { id: string }) => c.id));
    }
    expect(new Set(seen).size).toBe(5);
    const past = await (await send('GET', '/api/v1/customer?limit=2&page=4', undefined, store.key)).json();
    expect(past.data).toEqual([]);
    expect(past.pagination.totalResults).toBe(5);
  });

  it('filters with q on e-mail, first or last name (any case; every word must match)', async () => {
    expect((await emailsOf('?q=LEE')).sort()).toEqual(['ann@example.test', 'dora@example.test']);
    expect(await emailsOf('?q=shop.test')).toEqual(['carl@shop.test']);
    expect(await emailsOf('?q=bob')).toEqual(['bob@example.test']);
    expect(await emailsOf('?q=ann%20lee')).toEqual(['ann@example.test']);
    expect(await emailsOf('?q=nobody')).toEqual([]);
    const json = await (await send('GET', '/api/v1/customer?q=lee&limit=1', undefined, store.key)).json();
    expect(json.pagination).toEqual(expect.objectContaining({ totalResults: 2, lastPage: 2 }));
  });

  it('refuses bad page arguments, sort fields and unknown parameters', async () => {
    for (const [query, path] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?page=0', 'page'],
      ['?sortBy=firstName', 'sortBy'],
      ['?sortDirection=up', 'sortDirection'],
      ['?sort_by=email', 'sort_by'],
    ] as const) {
      const res = await send('GET', `/api/v1/customer${query}`, undefined, store.key);
      expect(res.status).toBe(400);
      expect(await detailPaths(res)).toContain(path);
    }
  });

  it('offers the same through GraphQL, with a Relay connection', async () => {
    const page = await gql(
      '{ customers(limit: 2, sortBy: email, sortDirection: asc, q: "example") { items { email } pagination { totalResults currentPage limit lastPage } } }',
      {},
      store.key,
    );
    expect(page.data.customers).toEqual({
      items: [{ email: 'ann@example.test' }, { email: 'bob@example.test' }],
      pagination: { totalResults: 4, currentPage: 1, limit: 2, lastPage: 2 },
    });
    for (const sortBy of ['email', 'lastName', 'createdAt']) {
      for (const sortDirection of ['asc', 'desc']) {
        const listed = await emailsOf(`?sortBy=${sortBy}&sortDirection=${sortDirection}`);
        expect(await walkConnection(sortBy, sortDirection)).toEqual(listed);
      }
    }
  });

  /** Every e-mail the Relay connection gives, two at a time. */
  async function walkConnection(sortBy: string, sortDirection: string) {
    const emails: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const json: {
        data: {
          customersConnection: {
            edges: Array<{ node: { email: string; orderCount: number } }>;
            pageInfo: { hasNextPage: boolean; endCursor: string };
          };
        };
      } = await gql(
        `query($after: String, $sortBy: CustomerSortField, $sortDirection: SortDirection) {
          customersConnection(first: 2, after: $after, sortBy: $sortBy, sortDirection: $sortDirection) {
            edges { node { email orderCount } } pageInfo { hasNextPage endCursor } } }`,
        { after, sortBy, sortDirection },
        store.key,
      );
      const connection = json.data.customersConnection;
      emails.push(...connection.edges.map((edge) => edge.node.email));
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    return emails;
  }
});

describe('orderCount and totalSpentAmount', () => {
  it('count every order and sum the totals of orders that are not cancelled', async () => {
    const store = await freshStore();
    const [ann, bob, carl] = await seedCustomers(store.id, [
      { email: 'ann@stats.test', minute: 0 },
      { email: 'bob@stats.test', minute: 1 },
      { email: 'carl@stats.test', minute: 2 },
    ]);
    await seedOrder(store.id, ann!.id, 1000, 'pending');
    await seedOrder(store.id, ann!.id, 2500, 'paid');
    await seedOrder(store.id, ann!.id, 4000, 'fulfilled');
    await seedOrder(store.id, ann!.id, 9999, 'cancelled');
    await seedOrder(store.id, bob!.id, 700, 'cancelled');
    await seedOrder(store.id, null, 5000, 'paid');
    // Orders of another store never count, even when they point at the customer.
    const other = await freshStore();
    await seedOrder(other.id, ann!.id, 100_000, 'paid');

    const json = await (
      await send('GET', '/api/v1/customer?sortBy=email&sortDirection=asc', undefined, store.key)
    ).json();
    expect(
      json.data.map((c: { email: string; orderCount: number; totalSpentAmount: number }) => [
        c.email,
        c.orderCount,
        c.totalSpentAmount,
      ]),
    ).toEqual([
      ['ann@stats.test', 4, 7500],
      ['bob@stats.test', 1, 0],
      ['carl@stats.test', 0, 0],
    ]);
    const ann2 = await (await send('GET', `/api/v1/customer/${ann!.id}`, undefined, store.key)).json();
    expect(ann2.data).toEqual(expect.objectContaining({ orderCount: 4, totalSpentAmount: 7500 }));
    const viaGraphql = await gql(
      'query($id: ID!) { customer(id: $id) { orderCount totalSpentAmount } }',
      { id: carl!.id },
      store.key,
    );
    expect(viaGraphql.data.customer).toEqual({ orderCount: 0, totalSpentAmount: 0 });
    const bob2 = await gql(
      '{ customersConnection(first: 10, q: "bob") { edges { node { orderCount totalSpentAmount } } } }',
      {},
      store.key,
    );
    expect(bob2.data.customersConnection.edges).toEqual([{ node: { orderCount: 1, totalSpentAmount: 0 } }]);
  });

  it('costs the same number of SQL queries for a page of 2 and a page of 30 customers', async () => {
    const store = await freshStore();
    const customers = await seedCustomers(
      store.id,
      Array.from({ length: 30 }, (_, i) => ({ email: `c${i}@count.test`, minute: i })),
    );
    for (const customer of customers) await seedOrder(store.id, customer.id, 100, 'paid');
    const queriesFor = async (limit: number) => {
      const pool = server.db.pool;
      const original = pool.query;
      let count = 0;
      pool.query = ((...args: Parameters<typeof original>) => {
        // The request log's batch goes to the pool itself, off the request path: not the page's.
        const first = args[0] as unknown;
        const text = typeof first === 'string' ? first : ((first as { text?: string })?.text ?? '');
        if (!isRequestLogWrite(text)) count++;
        return (original as (...a: unknown[]) => unknown).apply(pool, args);
      }) as typeof original;
      try {
        const res = await send('GET', `/api/v1/customer?limit=${limit}`, undefined, store.key);
        const json = await res.json();
        expect(json.data).toHaveLength(limit);
        expect(json.data.every((c: { orderCount: number }) => c.orderCount === 1)).toBe(true);
      } finally {
        pool.query = original;
      }
      return count;
    };
    await queriesFor(1); // warms the verified-key cache
    const small = await queriesFor(2);
    const large = await queriesFor(30);
    expect(large).toBe(small);
    expect(small).toBeLessThanOrEqual(4);
  });
});

describe('customer writes', () => {
  it('creates with a trimmed, lower-cased e-mail and emits customer.created with the REST item', async () => {
    const res = await send('POST', '/api/v1/customer', {
      email: '  Jane.Doe@Example.TEST ',
      firstName: ' Jane ',
      lastName: 'Doe',
      phone: '+1 (555) 010-2030',
      acceptsMarketing: true,
    });
    expect(res.status).toBe(201);
    const { success, data } = await res.json();
    expect(success).toBe(true);
    expect(data).toEqual({
      id: expect.stringMatching(/^cus_/),
      email: 'jane.doe@example.test',
      firstName: 'Jane',
      lastName: 'Doe',
      phone: '+1 (555) 010-2030',
      acceptsMarketing: true,
      orderCount: 0,
      totalSpentAmount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const events = (await eventsOf(storeId, 'customer.created')).filter(
      (e) => (e.data as { object: { id: string } }).object.id === data.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({ object: data });
    const job = await server.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${events[0]!.id}`;
    expect(job[0]?.n).toBe(1);
    expect((await (await send('GET', `/api/v1/customer/${data.id}`)).json()).data).toEqual(data);
  });

  it('applies the defaults', async () => {
    const res = await send('POST', '/api/v1/customer', { email: 'minimal@example.test' });
    expect(res.status).toBe(201);
    expect((await res.json()).data).toEqual(
      expect.objectContaining({ firstName: null, lastName: null, phone: null, acceptsMarketing: false }),
    );
  });

  it('answers a duplicate e-mail, in any case, with 409 CONFLICT and writes no event', async () => {
    expect((await send('POST', '/api/v1/customer', { email: 'twice@example.test' })).status).toBe(201);
    const before = await server.prisma.event.count({ where: { storeId } });
    const clash = await send('POST', '/api/v1/customer', { email: ' TWICE@example.test' });
    expect(clash.status).toBe(409);
    const json = await clash.json();
    expect(json.code).toBe('CONFLICT');
    expect(json.details).toEqual([{ path: 'input.email', message: expect.any(String) }]);
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before);
    expect(await server.prisma.customer.count({ where: { storeId, email: 'twice@example.test' } })).toBe(1);

    // Another store may have a customer with the same e-mail.
    const other = await freshStore();
    expect((await send('POST', '/api/v1/customer', { email: 'twice@example.test' }, other.key)).status).toBe(
      201,
    );
  });

  it('refuses invalid input with field paths, unknown and read-only fields, and writes nothing', async () => {
    const before = await server.prisma.customer.count({ where: { storeId } });
    const events = await server.prisma.event.count({ where: { storeId } });
    for (const [body, path] of [
      [{}, 'input.email'],
      [{ email: 'not-an-email' }, 'input.email'],
      [{ email: `${'x'.repeat(320)}@example.test` }, 'input.email'],
      [{ email: 'a@example.test', firstName: '   ' }, 'input.firstName'],
      [{ email: 'a@example.test', lastName: 'x'.repeat(101) }, 'input.lastName'],
      [{ email: 'a@example.test', phone: 'call me' }, 'input.phone'],
      [{ email: 'a@example.test', acceptsMarketing: 'yes' }, 'input.acceptsMarketing'],
      [{ email: 'a@example.test', nickname: 'Al' }, 'input.nickname'],
      [{ email: 'a@example.test', orderCount: 3 }, 'input.orderCount'],
      [{ email: 'a@example.test', id: 'cus_x' }, 'input.id'],
    ] as const) {
      const res = await send('POST', '/api/v1/customer', body);
      expect(res.status).toBe(400);
      const json = await res.clone().json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(await detailPaths(res)).toContain(path);
    }
    expect(await server.prisma.customer.count({ where: { storeId } })).toBe(before);
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(events);
  });

  it('updates, emits customer.updated with the stats, and clears fields with null', async () => {
    const created = (
      await (
        await send('POST', '/api/v1/customer', { email: 'up@example.test', firstName: 'Up', phone: '12345' })
      ).json()
    ).data;
    await seedOrder(storeId, created.id, 1200, 'paid');
    server.clock.now = new Date(server.clock.now.getTime() + 60_000);
    const res = await send('PATCH', `/api/v1/customer/${created.id}`, {
      email: 'UP2@example.test',
      lastName: 'Date',
      phone: null,
      acceptsMarketing: true,
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual({
      ...created,
      email: 'up2@example.test',
      lastName: 'Date',
      phone: null,
      acceptsMarketing: true,
      orderCount: 1,
      totalSpentAmount: 1200,
      updatedAt: server.clock.now.toISOString(),
    });
    const events = (await eventsOf(storeId, 'customer.updated')).filter(
      (e) => (e.data as { object: { id: string } }).object.id === created.id,
    );
    expect(events.map((e) => e.data)).toEqual([{ object: data }]);
  });

  it('refuses an e-mail of another customer on update, a bad field, and a missing customer, with no event', async () => {
    const a = (await (await send('POST', '/api/v1/customer', { email: 'keep-a@example.test' })).json()).data;
    await send('POST', '/api/v1/customer', { email: 'keep-b@example.test' });
    const before = await server.prisma.event.count({ where: { storeId } });
    const clash = await send('PATCH', `/api/v1/customer/${a.id}`, { email: 'Keep-B@example.test' });
    expect(clash.status).toBe(409);
    expect((await clash.json()).code).toBe('CONFLICT');
    const same = await send('PATCH', `/api/v1/customer/${a.id}`, { email: 'keep-a@example.test' });
    expect(same.status).toBe(200);
    const bad = await send('PATCH', `/api/v1/customer/${a.id}`, { email: null });
    expect(bad.status).toBe(400);
    expect(await detailPaths(bad)).toContain('input.email');
    const missing = await send('PATCH', '/api/v1/customer/cus_missing', { firstName: 'X' });
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('NOT_FOUND');
    // Only the successful no-op update above wrote an event.
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before + 1);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const body = { email: 'once@example.test' };
    const first = await send('POST', '/api/v1/customer', body, key, { 'idempotency-key': 'cust-once' });
    expect(first.status).toBe(201);
    const again = await send('POST', '/api/v1/customer', body, key, { 'idempotency-key': 'cust-once' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).data.id).toBe((await first.json()).data.id);
    expect(await server.prisma.customer.count({ where: { storeId, email: 'once@example.test' } })).toBe(1);
  });

  it('does the same through GraphQL', async () => {
    const created = await gql(
      `mutation($input: CreateCustomerInput!) {
        createCustomer(input: $input, idempotencyKey: "gql-cust-1") { id email firstName orderCount totalSpentAmount }
      }`,
      { input: { email: 'Gql@Example.test', firstName: 'Gee' } },
    );
    expect(created.data.createCustomer).toEqual({
      id: expect.stringMatching(/^cus_/),
      email: 'gql@example.test',
      firstName: 'Gee',
      orderCount: 0,
      totalSpentAmount: 0,
    });
    const updated = await gql(
      'mutation($id: ID!) { updateCustomer(id: $id, input: { lastName: "Ql" }) { lastName } }',
      { id: created.data.createCustomer.id },
    );
    expect(updated.data.updateCustomer).toEqual({ lastName: 'Ql' });
    const dup = await gql('mutation { createCustomer(input: { email: "gql@example.test" }) { id } }');
    expect(dup.errors[0].extensions.code).toBe('CONFLICT');
  });
});

describe('another store’s customers and scopes', () => {
  it('treats another store’s customer as missing and never lists it', async () => {
    const other = await freshStore();
    const [foreign] = await seedCustomers(other.id, [{ email: 'foreign-only@example.test', minute: 0 }]);
    const id = foreign!.id;
    expect((await send('GET', `/api/v1/customer/${id}`)).status).toBe(404);
    expect((await send('PATCH', `/api/v1/customer/${id}`, { firstName: 'Mine' })).status).toBe(404);
    expect(await server.prisma.customer.findUniqueOrThrow({ where: { id } })).toEqual(
      expect.objectContaining({ firstName: null }),
    );
    expect((await (await send('GET', '/api/v1/customer?q=foreign-only')).json()).data).toEqual([]);
    expect(
      (await gql('query($id: ID!) { customer(id: $id) { id } }', { id })).errors[0].extensions.code,
    ).toBe('NOT_FOUND');
    const connection = await gql(
      '{ customersConnection(first: 10, q: "foreign-only") { edges { node { id } } } }',
    );
    expect(connection.data.customersConnection.edges).toEqual([]);
  });

  it('needs CUSTOMERS with the exact action', async () => {
    const readOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'CUSTOMERS', actions: ['READ'] }] })
    ).secret;
    const writeOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'CUSTOMERS', actions: ['WRITE'] }] })
    ).secret;
    const target = (await (await send('POST', '/api/v1/customer', { email: 'scoped@example.test' })).json())
      .data;
    expect((await send('GET', '/api/v1/customer', undefined, readOnly)).status).toBe(200);
    expect((await send('GET', `/api/v1/customer/${target.id}`, undefined, readOnly)).status).toBe(200);
    for (const [method, path, body, as] of [
      ['POST', '/api/v1/customer', { email: 'nope@example.test' }, readOnly],
      ['PATCH', `/api/v1/customer/${target.id}`, { firstName: 'No' }, readOnly],
      ['PATCH', `/api/v1/customer/${target.id}`, { firstName: 'No' }, writeOnly],
      ['GET', '/api/v1/customer', undefined, writeOnly],
    ] as const) {
      const res = await send(method, path, body, as);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await send('POST', '/api/v1/customer', { email: 'yes@example.test' }, writeOnly)).status).toBe(
      201,
    );
    expect(await server.prisma.customer.count({ where: { storeId, email: 'nope@example.test' } })).toBe(0);
  });
});
