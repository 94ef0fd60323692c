import { published } from '../helpers/event-schemas';
import { makeKey, makeStore, makeStoreWithKey } from '../helpers/factories';
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

const eventsOf = async (type: string) =>
  published(await server.prisma.event.findMany({ where: { storeId, type }, orderBy: { createdAt: 'asc' } }));

describe('category writes', () => {
  it('creates with a derived slug, emits category.created with the REST item as payload', async () => {
    const res = await send('POST', '/api/v1/category', { name: 'Trail Shoes', description: 'For dirt' });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data).toEqual(
      expect.objectContaining({ name: 'Trail Shoes', slug: 'trail-shoes', parentId: null, position: 0 }),
    );
    const [event] = await eventsOf('category.created');
    expect(event?.data).toEqual({ object: data });
  });

  it('updates and deletes, each with its event, and answers 404 afterwards', async () => {
    const created = (await (await send('POST', '/api/v1/category', { name: 'Temp' })).json()).data;
    const updated = await send('PATCH', `/api/v1/category/${created.id}`, { name: 'Temporary', position: 3 });
    expect((await updated.json()).data).toEqual(
      expect.objectContaining({ name: 'Temporary', slug: 'temp', position: 3 }),
    );
    expect((await send('DELETE', `/api/v1/category/${created.id}`)).status).toBe(204);
    expect((await send('GET', `/api/v1/category/${created.id}`)).status).toBe(404);
    expect(
      (await eventsOf('category.updated')).map((e) => (e.data as { object: { id: string } }).object.id),
    ).toContain(created.id);
    expect(
      (await eventsOf('category.deleted')).map((e) => (e.data as { object: { id: string } }).object.id),
    ).toContain(created.id);
  });

  it('refuses invalid input with field paths and writes nothing', async () => {
    const before = await server.prisma.event.count({ where: { storeId } });
    for (const [body, path] of [
      [{}, 'input.name'],
      [{ name: 'x', slug: 'Not A Slug' }, 'input.slug'],
      [{ name: 'x', position: -1 }, 'input.position'],
      [{ name: 'x', parentId: 'cat_nope' }, 'input.parentId'],
      [{ name: 'x', color: 'red' }, 'input.color'],
    ] as const) {
      const res = await send('POST', '/api/v1/category', body);
      expect(res.status).toBe(400);
      expect((await res.json()).details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before);
  });

  it('answers a slug clash with 409 CONFLICT and no event', async () => {
    await send('POST', '/api/v1/category', { name: 'Unique', slug: 'unique-slug' });
    const before = await server.prisma.event.count({ where: { storeId } });
    const clash = await send('POST', '/api/v1/category', { name: 'Other', slug: 'unique-slug' });
    expect(clash.status).toBe(409);
    expect((await clash.json()).code).toBe('CONFLICT');
    expect(await server.prisma.event.count({ where: { storeId } })).toBe(before);
  });

  it('refuses a parent that would make a cycle: 409 CATEGORY_CYCLE, as moveCategory does', async () => {
    const parent = (await (await send('POST', '/api/v1/category', { name: 'Parent' })).json()).data;
    const child = (
      await (await send('POST', '/api/v1/category', { name: 'Child', parentId: parent.id })).json()
    ).data;
    const cycle = await send('PATCH', `/api/v1/category/${parent.id}`, { parentId: child.id });
    expect(cycle.status).toBe(409);
    expect((await cycle.json()).code).toBe('CATEGORY_CYCLE');
  });

  it('treats another store’s category as missing, and needs the exact scope', async () => {
    const other = await makeStore(server.prisma);
    const foreign = await server.prisma.category.create({
      data: { storeId: other.id, name: 'Foreign', slug: 'foreign' },
    });
    expect((await send('PATCH', `/api/v1/category/${foreign.id}`, { name: 'Mine' })).status).toBe(404);
    expect((await send('DELETE', `/api/v1/category/${foreign.id}`)).status).toBe(404);
    const readOnly = (
      await makeKey(server.prisma, storeId, { scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }] })
    ).secret;
    const denied = await send('POST', '/api/v1/category', { name: 'No' }, readOnly);
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');
  });

  it('does the same through GraphQL', async () => {
    const res = await server.graphql(
      'mutation($input: CreateCategoryInput!) { createCategory(input: $input) { id slug } }',
      { input: { name: 'Via GraphQL' } },
      key,
    );
    expect((await res.json()).data.createCategory.slug).toBe('via-graphql');
  });
});
