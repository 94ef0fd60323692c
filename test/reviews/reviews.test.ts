import { Client } from 'pg';
import { makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let storeId: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ id: storeId, key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const send = (method: string, path: string, body?: unknown, as = key) => server.send(method, path, body, as);

const gql = async (query: string, variables: Record<string, unknown> = {}, as = key) =>
  (await server.graphql(query, variables, as)).json();

let counter = 0;
async function makeProduct(forStore: string, name: string) {
  counter++;
  return server.prisma.product.create({
    data: {
      storeId: forStore,
      name,
      slug: `product-${counter}`,
      priceAmount: 1000 + counter,
      currency: 'USD',
    },
  });
}

async function makeCustomer(forStore: string) {
  counter++;
  return server.prisma.customer.create({ data: { storeId: forStore, email: `c${counter}@example.test` } });
}

const base = Date.UTC(2026, 0, 1);
async function makeReview(
  forStore: string,
  productId: string,
  fields: {
    rating: number;
    title?: string;
    body?: string;
    status?: 'pending' | 'approved' | 'rejected';
    minute: number;
    customerId?: string;
  },
) {
  const { minute, ...rest } = fields;
  return server.prisma.review.create({
    data: { storeId: forStore, productId, ...rest, createdAt: new Date(base + minute * 60_000) },
  });
}

const freshStore = () => makeStoreWithKey(server.prisma);

const titles = (json: { data: Array<{ title: string }> }) => json.data.map((r) => r.title);

describe('review lists', () => {
  let store: { id: string; key: string };
  let products: Array<{ id: string; name: string }>;
  let reviews: Array<{ id: string; title: string | null; rating: number }>;
  const list = async (query = '') => {
    const res = await send('GET', `/api/v1/review${query}`, undefined, store.key);
    expect(res.status).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    store = await freshStore();
    products = [];
    for (const name of ['Boots', 'Socks', 'Laces', 'Insoles', 'Wax'])
      products.push(await makeProduct(store.id, name));
    const customer = await makeCustomer(store.id);
    const [boots, socks, laces, insoles, wax] = products as unknown as [
      { id: string },
      { id: string },
      { id: string },
      { id: string },
      { id: string },
    ];
    reviews = [
      await makeReview(store.id, boots.id, {
        rating: 5,
        title: 'Great boots',
        body: 'Dry feet',
        minute: 0,
        customerId: customer.id,
      }),
      await makeReview(store.id, socks.id, {
        rating: 2,
        title: 'Thin',
        body: 'Holes after a week',
        minute: 1,
        status: 'rejected',
      }),
      await makeReview(store.id, laces.id, {
        rating: 4,
        title: 'Solid',
        body: 'Great value',
        minute: 2,
        status: 'approved',
      }),
      await makeReview(store.id, insoles.id, { rating: 4, title: 'Comfy', minute: 3 }),
      await makeReview(store.id, wax.id, { rating: 4, title: 'Shiny', body: 'Boots look new', minute: 3 }),
      await makeReview(store.id, boots.id, { rating: 1, title: 'Leaky', minute: 5, status: 'approved' }),
    ];
  });

  it('lists newest first with the product, in the list envelope', async () => {
    const json = await list();
    expect(json.success).toBe(true);
    expect(json.pagination).toEqual(
      expect.objectContaining({ totalResults: 6, currentPage: 1, lastPage: 1 }),
    );
    const sameMinute = [reviews[3]!, reviews[4]!].sort((a, b) => (a.id < b.id ? 1 : -1)).map((r) => r.title);
    expect(titles(json)).toEqual(['Leaky', ...sameMinute, 'Solid', 'Thin', 'Great boots']);
    const first = json.data.find((r: { title: string }) => r.title === 'Great boots');
    expect(first).toEqual({
      id: reviews[0]!.id,
      productId: products[0]!.id,
      product: { id: products[0]!.id, name: 'Boots' },
      customerId: expect.stringMatching(/^cus_/),
      rating: 5,
      title: 'Great boots',
      body: 'Dry feet',
      status: 'pending',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: expect.any(String),
    });
  });

  it('sorts by rating with ties broken by id', async () => {
    const fours = reviews
      .filter((r) => r.rating === 4)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((r) => r.title);
    expect(titles(await list('?sortBy=rating&sortDirection=asc'))).toEqual([
      'Leaky',
      'Thin',
      ...fours,
      'Great boots',
    ]);
    expect(titles(await list('?sortBy=rating'))).toEqual([
      'Great boots',
      ...[...fours].reverse(),
      'Thin',
      'Leaky',
    ]);
  });

  it('orders the moderation queue with sortBy=status: pending, then approved, then rejected, each newest first', async () => {
    const sameMinute = [reviews[3]!, reviews[4]!].sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => r.title);
    const queue = await list('?sortBy=status&sortDirection=asc');
    expect(titles(queue)).toEqual([...sameMinute, 'Great boots', 'Leaky', 'Solid', 'Thin']);
    expect(queue.data.map((r: { status: string }) => r.status)).toEqual([
      'pending',
      'pending',
      'pending',
      'approved',
      'approved',
      'rejected',
    ]);
    const first = await gql(
      '{ reviews(sortBy: status, sortDirection: asc, limit: 2, page: 2) { items { title } } reviewsConnection(sortBy: status, sortDirection: asc, first: 4) { edges { node { title } } } }',
      {},
      store.key,
    );
    expect(first.data.reviews.items.map((r: { title: string }) => r.title)).toEqual(['Great boots', 'Leaky']);
    expect(first.data.reviewsConnection.edges.map((e: { node: { title: string } }) => e.node.title)).toEqual([
      ...sameMinute,
      'Great boots',
      'Leaky',
    ]);
  });

  it('filters by q on title or body, status, productId and rating', async () => {
    expect(titles(await list('?q=boots'))).toEqual(['Shiny', 'Great boots']);
    expect(titles(await list('?q=GREAT'))).toEqual(['Solid', 'Great boots']);
    expect(titles(await list('?status=approved'))).toEqual(['Leaky', 'Solid']);
    expect(titles(await list('?status=pending&sortBy=createdAt&sortDirection=asc'))).toEqual(
      expect.arrayContaining(['Great boots', 'Comfy', 'Shiny']),
    );
    expect(titles(await list(`?productId=${products[0]!.id}`))).toEqual(['Leaky', 'Great boots']);
    expect(titles(await list('?rating=4&sortBy=createdAt&sortDirection=asc')).slice(0, 1)).toEqual(['Solid']);
    expect((await list('?rating=4')).pagination.totalResults).toBe(3);
    expect(titles(await list(`?rating=1&productId=${products[0]!.id}&status=approved`))).toEqual(['Leaky']);
    for (const query of ['?rating=6', '?rating=0', '?status=spam', '?sortBy=title', '?limit=500']) {
      expect((await send('GET', `/api/v1/review${query}`, undefined, store.key)).status).toBe(400);
    }
  });

  it('loads the products of a page with the page, not one query per review', async () => {
    /** The SQL statements run while `during` runs, by the table they read from. */
    const readsDuring = async (during: () => Promise<void>) => {
      const statements: string[] = [];
      const original = Client.prototype.query;
      const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
        this: Client,
        ...args: unknown[]
      ) {
        const [first] = args as [unknown];
        const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
        if (text) statements.push(text);
        return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
      try {
        await during();
      } finally {
        spy.mockRestore();
      }
      const from = (table: string) =>
        statements.filter((sql) => new RegExp(`^SELECT[\\s\\S]*FROM "public"\\."${table}"`).test(sql)).length;
      return { review: from('Review'), product: from('Product') };
    };

    const rest = await readsDuring(async () => {
      const json = await list('?limit=100');
      expect(json.data).toHaveLength(6);
      expect(json.data.map((r: { product: { name: string } }) => r.product.name).sort()).toEqual([
        'Boots',
        'Boots',
        'Insoles',
        'Laces',
        'Socks',
        'Wax',
      ]);
    });
    // The page and its count; the products in one read (or joined), never one per review.
    expect(rest).toEqual({ review: 2, product: expect.any(Number) });
    expect(rest.product).toBeLessThanOrEqual(1);

    const connection = await readsDuring(async () => {
      const json = await gql(
        '{ reviewsConnection(first: 10) { edges { node { product { name } } } } }',
        {},
        store.key,
      );
      expect(json.data.reviewsConnection.edges).toHaveLength(6);
    });
    expect(connection.review).toBe(1);
    expect(connection.product).toBeLessThanOrEqual(1);
  });
});

describe('review moderation and deletion', () => {
  it('sets the status and nothing else', async () => {
    const product = await makeProduct(storeId, 'Tent');
    const review = await makeReview(storeId, product.id, {
      rating: 3,
      title: 'Okay',
      body: 'Fine',
      minute: 0,
    });
    const res = await send('PATCH', `/api/v1/review/${review.id}`, { status: 'approved' });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(
      expect.objectContaining({
        id: review.id,
        status: 'approved',
        rating: 3,
        title: 'Okay',
        product: { id: product.id, name: 'Tent' },
      }),
    );
    for (const [body, path] of [
      [{ status: 'approved', rating: 5 }, 'input.rating'],
      // GraphQL reports the first coercion failure: the missing status.
      [{ rating: 5 }, 'input.status'],
      [{ status: 'rejected', title: 'Edited' }, 'input.title'],
      [{ status: 'rejected', body: 'Edited' }, 'input.body'],
      [{ status: 'spam' }, 'input.status'],
      [{}, 'input.status'],
    ] as const) {
      const refused = await send('PATCH', `/api/v1/review/${review.id}`, body);
      expect(refused.status).toBe(400);
      const json = await refused.json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(json.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await server.prisma.review.findUniqueOrThrow({ where: { id: review.id } })).toEqual(
      expect.objectContaining({ status: 'approved', rating: 3, title: 'Okay', body: 'Fine' }),
    );
  });

  it('deletes with 204, then answers 404', async () => {
    const product = await makeProduct(storeId, 'Stove');
    const review = await makeReview(storeId, product.id, { rating: 2, minute: 0 });
    const res = await send('DELETE', `/api/v1/review/${review.id}`);
    expect(res.status).toBe(204);
    expect(await server.prisma.review.findUnique({ where: { id: review.id } })).toBeNull();
    expect((await send('DELETE', `/api/v1/review/${review.id}`)).status).toBe(404);
    expect((await send('PATCH', `/api/v1/review/${review.id}`, { status: 'approved' })).status).toBe(404);
    expect(await server.prisma.product.findUnique({ where: { id: product.id } })).not.toBeNull();
  });

  it('treats another store’s review as missing on every id route and never lists it', async () => {
    const other = await freshStore();
    const product = await makeProduct(other.id, 'Foreign product');
    const foreign = await makeReview(other.id, product.id, { rating: 5, title: 'Foreign review', minute: 0 });
    const patched = await send('PATCH', `/api/v1/review/${foreign.id}`, { status: 'rejected' });
    expect(patched.status).toBe(404);
    expect((await patched.json()).code).toBe('NOT_FOUND');
    expect((await send('DELETE', `/api/v1/review/${foreign.id}`)).status).toBe(404);
    expect(await server.prisma.review.findUniqueOrThrow({ where: { id: foreign.id } })).toEqual(
      expect.objectContaining({ status: 'pending' }),
    );
    expect((await (await send('GET', '/api/v1/review?q=Foreign&limit=100')).json()).data).toEqual([]);
    expect((await (await send('GET', `/api/v1/review?productId=${product.id}`)).json()).data).toEqual([]);

    const id = foreign.id;
    for (const operation of [
      'query($id: ID!) { review(id: $id) { id } }',
      'mutation($id: ID!) { moderateReview(id: $id, input: { status: rejected }) { id } }',
      'mutation($id: ID!) { deleteReview(id: $id) { id } }',
    ]) {
      expect((await gql(operation, { id })).errors[0].extensions.code).toBe('NOT_FOUND');
    }
    const connection = await gql('{ reviewsConnection(first: 100, q: "Foreign") { edges { node { id } } } }');
    expect(connection.data.reviewsConnection.edges).toEqual([]);
    expect((await gql('{ reviews(q: "Foreign") { items { id } } }')).data.reviews.items).toEqual([]);
  });

  it('needs REVIEWS with the exact action: READ alone reads, and only reads', async () => {
    const product = await makeProduct(storeId, 'Scoped');
    const review = await makeReview(storeId, product.id, { rating: 4, minute: 0 });
    const readOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'REVIEWS', actions: ['READ'] }] })
    ).secret;
    expect((await send('GET', '/api/v1/review', undefined, readOnly)).status).toBe(200);
    for (const [method, body] of [
      ['PATCH', { status: 'approved' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await send(method, `/api/v1/review/${review.id}`, body, readOnly);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INSUFFICIENT_SCOPE');
    }
    const couponsOnly = (
      await makeKey(server.prisma, storeId, {
        scopes: [{ resource: 'COUPONS', actions: ['READ', 'WRITE', 'UPDATE', 'DELETE'] }],
      })
    ).secret;
    const denied = await send('GET', '/api/v1/review', undefined, couponsOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');
    const gqlDenied = await gql(
      'mutation($id: ID!) { moderateReview(id: $id, input: { status: approved }) { id } }',
      { id: review.id },
      readOnly,
    );
    expect(gqlDenied.errors[0].extensions.code).toBe('INSUFFICIENT_SCOPE');
    expect(
      (await gql('query($id: ID!) { review(id: $id) { id } }', { id: review.id }, readOnly)).data.review.id,
    ).toBe(review.id);
    expect(await server.prisma.review.findUniqueOrThrow({ where: { id: review.id } })).toEqual(
      expect.objectContaining({ status: 'pending' }),
    );
  });
});

describe('reviews over GraphQL', () => {
  it('lists, pages through the connection, moderates and deletes', async () => {
    const store = await freshStore();
    const product = await makeProduct(store.id, 'Lamp');
    const older = await makeReview(store.id, product.id, { rating: 5, title: 'Bright', minute: 0 });
    const newer = await makeReview(store.id, product.id, { rating: 3, title: 'Dim', minute: 1 });

    const page = await gql(
      `query($productId: ID) {
        reviews(productId: $productId, sortBy: rating, sortDirection: desc) {
          items { title product { id name } }
          pagination { totalResults lastPage }
        }
      }`,
      { productId: product.id },
      store.key,
    );
    expect(page.data.reviews).toEqual({
      items: [
        { title: 'Bright', product: { id: product.id, name: 'Lamp' } },
        { title: 'Dim', product: { id: product.id, name: 'Lamp' } },
      ],
      pagination: { totalResults: 2, lastPage: 1 },
    });

    const first = await gql(
      '{ reviewsConnection(first: 1) { edges { node { id } } pageInfo { hasNextPage endCursor } } }',
      {},
      store.key,
    );
    expect(first.data.reviewsConnection.edges).toEqual([{ node: { id: newer.id } }]);
    const second = await gql(
      'query($after: String) { reviewsConnection(first: 1, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }',
      { after: first.data.reviewsConnection.pageInfo.endCursor },
      store.key,
    );
    expect(second.data.reviewsConnection).toEqual({
      edges: [{ node: { id: older.id } }],
      pageInfo: { hasNextPage: false },
    });

    const moderated = await gql(
      `mutation($id: ID!) {
        moderateReview(id: $id, input: { status: rejected }, idempotencyKey: "m-1") { status product { name } }
      }`,
      { id: newer.id },
      store.key,
    );
    expect(moderated.data.moderateReview).toEqual({ status: 'rejected', product: { name: 'Lamp' } });
    const withRating = await gql(
      'mutation($id: ID!, $input: ModerateReviewInput!) { moderateReview(id: $id, input: $input) { id } }',
      { id: newer.id, input: { status: 'approved', rating: 1 } },
      store.key,
    );
    expect(withRating.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(withRating.errors[0].extensions.details[0].path).toBe('input.rating');

    const rejected = await gql('{ reviews(status: rejected) { items { id } } }', {}, store.key);
    expect(rejected.data.reviews.items).toEqual([{ id: newer.id }]);
    const deleted = await gql(
      'mutation($id: ID!) { deleteReview(id: $id) { id deleted } }',
      { id: older.id },
      store.key,
    );
    expect(deleted.data.deleteReview).toEqual({ id: older.id, deleted: true });
  });
});
