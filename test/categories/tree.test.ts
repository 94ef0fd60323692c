import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The category tree (README "Categories"): list filters by parent, each category's parent and counts
 * loaded with the page, and moveCategory, which renumbers siblings in one transaction under the
 * store's tree lock and refuses a category under itself with CATEGORY_CYCLE.
 */

let server: TestServer;
const statements: string[] = [];
let storeId: string;
let key: string;
let readOnlyKey: string;
let otherKey: string;
let foreignId: string;

interface Row {
  id: string;
  name: string;
  parentId: string | null;
  position: number;
}

async function category(name: string, parentId: string | null = null, position = 0) {
  return server.prisma.category.create({
    data: {
      storeId,
      name,
      slug: `${name.toLowerCase().replace(/\W+/g, '-')}-${position}`,
      parentId,
      position,
    },
  });
}

async function tree(): Promise<Row[]> {
  return server.prisma.category.findMany({
    where: { storeId },
    select: { id: true, name: true, parentId: true, position: true },
    orderBy: [{ parentId: 'asc' }, { position: 'asc' }],
  });
}

const namesUnder = async (parentId: string | null) =>
  (await tree()).filter((row) => row.parentId === parentId).map((row) => `${row.position}:${row.name}`);

const move = (id: string, input: unknown, as = key) =>
  server.graphql(
    'mutation($id: ID!, $input: MoveCategoryInput!) { moveCategory(id: $id, input: $input) { id parentId position } }',
    { id, input },
    as,
  );

beforeAll(async () => {
  server = await startTestServer({}, { onQuery: (sql) => statements.push(sql) });
  storeId = (await makeStore(server.prisma)).id;
  key = (await makeKey(server.prisma, storeId)).secret;
  readOnlyKey = (
    await makeKey(server.prisma, storeId, { scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }] })
  ).secret;
  const other = await makeStore(server.prisma);
  otherKey = (await makeKey(server.prisma, other.id)).secret;
  foreignId = (
    await server.prisma.category.create({ data: { storeId: other.id, name: 'Foreign', slug: 'foreign' } })
  ).id;
});

afterAll(() => server.close());

describe('the tree as lists show it', () => {
  let clothing: string;
  let shoes: string;

  beforeAll(async () => {
    clothing = (await category('Clothing', null, 0)).id;
    await category('Garden', null, 1);
    shoes = (await category('Shoes', clothing, 0)).id;
    await category('Hats', clothing, 1);
    await category('Boots', shoes, 0);
    for (const name of ['Sneaker', 'Loafer'])
      await server.prisma.product.create({
        data: {
          storeId,
          categoryId: shoes,
          name,
          slug: name.toLowerCase(),
          priceAmount: 100,
          currency: 'USD',
        },
      });
  });

  afterAll(() => server.prisma.category.deleteMany({ where: { storeId } }));

  it('lists the top level with topLevelOnly and a category’s children with parentId, in REST and GraphQL', async () => {
    const top = await (
      await server.request('/api/v1/category?topLevelOnly=true&sortBy=position&sortDirection=asc', { key })
    ).json();
    expect(top.data.map((c: Row) => c.name)).toEqual(['Clothing', 'Garden']);
    const children = await server.graphql(
      'query($p: ID) { categories(parentId: $p, sortBy: position, sortDirection: asc) { items { name parent { id name } } } }',
      { p: clothing },
      key,
    );
    expect((await children.json()).data.categories.items).toEqual([
      { name: 'Shoes', parent: { id: clothing, name: 'Clothing' } },
      { name: 'Hats', parent: { id: clothing, name: 'Clothing' } },
    ]);
  });

  it('refuses parentId together with topLevelOnly with the field named', async () => {
    const res = await server.request(`/api/v1/category?parentId=${clothing}&topLevelOnly=true`, { key });
    expect(res.status).toBe(400);
    expect((await res.json()).details).toEqual([
      { path: 'topLevelOnly', message: 'cannot be combined with parentId' },
    ]);
  });

  it('shows each category’s parent, childCount and productCount (REST too), loaded with the page in a fixed number of queries', async () => {
    const page = async (limit: number) => {
      statements.length = 0;
      const res = await server.graphql(
        `{ categories(limit: ${limit}, sortBy: name, sortDirection: asc) { items { name childCount productCount parent { name } } } }`,
        {},
        key,
      );
      return { items: (await res.json()).data.categories.items, queries: statements.length };
    };
    const two = await page(2);
    const all = await page(5);
    expect(all.items).toEqual([
      { name: 'Boots', childCount: 0, productCount: 0, parent: { name: 'Shoes' } },
      { name: 'Clothing', childCount: 2, productCount: 0, parent: null },
      { name: 'Garden', childCount: 0, productCount: 0, parent: null },
      { name: 'Hats', childCount: 0, productCount: 0, parent: { name: 'Clothing' } },
      { name: 'Shoes', childCount: 1, productCount: 2, parent: { name: 'Clothing' } },
    ]);
    expect(all.queries).toBe(two.queries);

    const rest = await (await server.request(`/api/v1/category/${shoes}`, { key })).json();
    expect(rest.data).toEqual(
      expect.objectContaining({ childCount: 1, productCount: 2, parent: { id: clothing, name: 'Clothing' } }),
    );
  });
});

describe('moveCategory', () => {
  let a: string;
  let b: string;
  let c: string;
  let parent: string;
  let child: string;

  beforeEach(async () => {
    await server.prisma.category.deleteMany({ where: { storeId } });
    a = (await category('A', null, 0)).id;
    b = (await category('B', null, 1)).id;
    c = (await category('C', null, 2)).id;
    parent = (await category('Parent', null, 3)).id;
    child = (await category('Child', parent, 0)).id;
    await category('Sibling', parent, 1);
  });

  it('moves a child to the top level at a position and renumbers both sibling lists from 0', async () => {
    const res = await move(child, { parentId: null, position: 1 });
    expect((await res.json()).data.moveCategory).toEqual({ id: child, parentId: null, position: 1 });
    expect(await namesUnder(null)).toEqual(['0:A', '1:Child', '2:B', '3:C', '4:Parent']);
    expect(await namesUnder(parent)).toEqual(['0:Sibling']);
  });

  it('moves it back under its parent through REST POST /category/{id}/move, last when the position is beyond the end', async () => {
    await move(child, { position: 0 });
    const res = await server.send(
      'POST',
      `/api/v1/category/${child}/move`,
      { parentId: parent, position: 99 },
      key,
    );
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(
      expect.objectContaining({ id: child, parentId: parent, position: 1 }),
    );
    expect(await namesUnder(parent)).toEqual(['0:Sibling', '1:Child']);
    expect(await namesUnder(null)).toEqual(['0:A', '1:B', '2:C', '3:Parent']);
  });

  it('treats a new parent in PATCH /category/{id} as a move: last among its new siblings, the old ones renumbered', async () => {
    const res = await server.send('PATCH', `/api/v1/category/${b}`, { parentId: parent, name: 'B2' }, key);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual(
      expect.objectContaining({ name: 'B2', parentId: parent, position: 2 }),
    );
    expect(await namesUnder(parent)).toEqual(['0:Child', '1:Sibling', '2:B2']);
    expect(await namesUnder(null)).toEqual(['0:A', '1:C', '2:Parent']);
  });

  it('reorders within the same parent (down one place) and emits category.updated for each category that moved', async () => {
    const before = await server.prisma.event.count({ where: { storeId, type: 'category.updated' } });
    await move(a, { position: 1 });
    expect(await namesUnder(null)).toEqual(['0:B', '1:A', '2:C', '3:Parent']);
    expect(await server.prisma.event.count({ where: { storeId, type: 'category.updated' } })).toBe(
      before + 2,
    );
  });

  it('refuses a category under itself or its own descendant with 409 CATEGORY_CYCLE beside parentId, changing nothing', async () => {
    const before = await tree();
    const rest = await server.send(
      'POST',
      `/api/v1/category/${parent}/move`,
      { parentId: child, position: 0 },
      key,
    );
    expect(rest.status).toBe(409);
    const body = await rest.json();
    expect(body).toEqual(
      expect.objectContaining({
        code: 'CATEGORY_CYCLE',
        details: [{ path: 'input.parentId', message: expect.stringContaining('cannot move under itself') }],
      }),
    );
    const self = await (await move(parent, { parentId: parent, position: 0 })).json();
    expect(self.errors[0].extensions.code).toBe('CATEGORY_CYCLE');
    expect(await tree()).toEqual(before);
  });

  it('answers another store’s category as a missing one, as the moved category and as the parent', async () => {
    const foreign = await server.send('POST', `/api/v1/category/${foreignId}/move`, { position: 0 }, key);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).code).toBe('NOT_FOUND');
    const asParent = await server.send(
      'POST',
      `/api/v1/category/${a}/move`,
      { parentId: foreignId, position: 0 },
      key,
    );
    expect(asParent.status).toBe(400);
    expect((await asParent.json()).details).toEqual([
      { path: 'input.parentId', message: 'no such category' },
    ]);
    const fromOther = await server.send('POST', `/api/v1/category/${a}/move`, { position: 0 }, otherKey);
    expect(fromOther.status).toBe(404);
  });

  it('needs CATEGORIES UPDATE, and a negative position is a field error', async () => {
    const readOnly = await server.send('POST', `/api/v1/category/${a}/move`, { position: 0 }, readOnlyKey);
    expect(readOnly.status).toBe(403);
    expect((await readOnly.json()).code).toBe('INSUFFICIENT_SCOPE');
    const negative = await server.send('POST', `/api/v1/category/${a}/move`, { position: -1 }, key);
    expect(negative.status).toBe(400);
    expect((await negative.json()).details).toEqual([
      { path: 'input.position', message: 'must be at least 0' },
    ]);
  });

  it('keeps positions 0, 1, 2… without gaps or doubles under concurrent moves', async () => {
    const targets = [null, parent, a, b];
    const moves = Array.from({ length: 16 }, (_, i) =>
      move([c, child, b, a][i % 4]!, { parentId: targets[(i * 3) % 4], position: i % 3 }),
    );
    const answers = await Promise.all(moves.map(async (res) => (await res).json()));
    for (const answer of answers)
      if (answer.errors) expect(answer.errors[0].extensions.code).toBe('CATEGORY_CYCLE');
    const rows = await tree();
    const parents = new Set(rows.map((row) => row.parentId));
    for (const p of parents) {
      const positions = rows.filter((row) => row.parentId === p).map((row) => row.position);
      expect(positions).toEqual(positions.map((_, i) => i));
    }
    // No cycle: every category reaches the top level.
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const row of rows) {
      let at: Row | undefined = row;
      for (let steps = 0; at?.parentId; steps++) {
        expect(steps).toBeLessThan(rows.length);
        at = byId.get(at.parentId);
      }
    }
  });

  it('lets exactly one of two crossing moves (A under B, B under A) through; the other is CATEGORY_CYCLE', async () => {
    const [first, second] = await Promise.all([
      move(a, { parentId: b, position: 0 }).then((res) => res.json()),
      move(b, { parentId: a, position: 0 }).then((res) => res.json()),
    ]);
    const codes = [first, second].map((answer) => answer.errors?.[0].extensions.code ?? 'moved');
    expect(codes.sort()).toEqual(['CATEGORY_CYCLE', 'moved']);
    const rows = await tree();
    const parentOf = (id: string) => rows.find((row) => row.id === id)!.parentId;
    expect([parentOf(a), parentOf(b)]).toContain(null);
  });
});
