import { createHash } from 'node:crypto';
import { print } from 'graphql';
import { compileRoutes } from '../../rest/compile';
import { routeTable } from '../../rest/routes';
import { createSecretBox } from '../../src/auth/secret-box';
import { idempotencyRequestHash } from '../../src/graphql/plugins/idempotency';
import { schema } from '../../src/schema';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let key: string;
let keyId: string;
let storeId: string;

beforeAll(async () => {
  server = await startTestServer();
  storeId = (await makeStore(server.prisma)).id;
  ({ secret: key, keyId } = await makeKey(server.prisma, storeId));
});
afterAll(() => server.close());

const createCategory = compileRoutes(schema, routeTable).find(
  (entry) => entry.route.method === 'POST' && entry.route.path === '/category',
) as ReturnType<typeof compileRoutes>[number];

const post = (body: unknown, idempotencyKey?: string) =>
  server.request('/api/v1/category', {
    method: 'POST',
    key,
    headers: {
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });

const count = (name: string) => server.prisma.category.count({ where: { storeId, name } });

describe('Idempotency-Key on REST POST and PATCH', () => {
  it('answers a repeat of the same request with the first response, and creates once', async () => {
    const first = await post({ name: 'Once' }, 'create-once');
    const again = await post({ name: 'Once' }, 'create-once');
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBe('false');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(await count('Once')).toBe(1);
    expect(await server.prisma.event.count({ where: { storeId, type: 'category.created' } })).toBe(1);
  });

  it('refuses the same key with another body: 422 IDEMPOTENCY_KEY_REUSED', async () => {
    await post({ name: 'First body' }, 'reused');
    const res = await post({ name: 'Second body' }, 'reused');
    expect(res.status).toBe(422);
    expect((await res.json()).code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count('Second body')).toBe(0);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is still running', async () => {
    await server.prisma.idempotencyRecord.create({
      data: {
        scope: `key:${keyId}`,
        key: 'in-flight',
        requestHash: idempotencyRequestHash(
          createSecretBox(server.config.webhook.secretKey),
          print(createCategory.operation),
          { input: { name: 'Racing' } },
        ),
        expiresAt: new Date(server.clock.now.getTime() + 60_000),
      },
    });
    const res = await post({ name: 'Racing' }, 'in-flight');
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await count('Racing')).toBe(0);
  });

  it('keeps a keyed digest of the request, never a plain hash of what it carried', async () => {
    await post({ name: 'Digest' }, 'digest');
    const record = await server.prisma.idempotencyRecord.findUniqueOrThrow({
      where: { scope_key: { scope: `key:${keyId}`, key: 'digest' } },
    });
    const text = print(createCategory.operation);
    const variables = { input: { name: 'Digest' } };
    const plain = createHash('sha256')
      .update(JSON.stringify([text, variables]))
      .digest('hex');
    const serverBox = createSecretBox(server.config.webhook.secretKey);
    const otherBox = createSecretBox(Buffer.alloc(32, 7));
    expect(record.requestHash).toBe(idempotencyRequestHash(serverBox, text, variables));
    expect(record.requestHash).not.toBe(plain);
    expect(record.requestHash).not.toBe(idempotencyRequestHash(otherBox, text, variables));
  });

  it('replays a remembered error too, and forgets the key after 24 hours', async () => {
    const bad = await post({ name: '' }, 'bad-then-later');
    expect(bad.status).toBe(400);
    const replay = await post({ name: '' }, 'bad-then-later');
    expect(replay.status).toBe(400);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const start = new Date(server.clock.now);
    server.clock.now = new Date(start.getTime() + 24 * 3600_000 + 1000);
    const fresh = await post({ name: 'After a day' }, 'bad-then-later');
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBe('false');
    server.clock.now = start;
  });

  it('keeps keys apart per API key, and leaves requests without the header alone', async () => {
    const other = (await makeKey(server.prisma, storeId, { keyName: 'other' })).secret;
    await post({ name: 'Per key' }, 'shared-name');
    const res = await server.request('/api/v1/category', {
      method: 'POST',
      key: other,
      headers: { 'content-type': 'application/json', 'idempotency-key': 'shared-name' },
      body: JSON.stringify({ name: 'Per key', slug: 'per-key-2' }),
    });
    expect(res.status).toBe(201);
    expect(await count('Per key')).toBe(2);
    await post({ name: 'No header', slug: 'no-header-1' });
    await post({ name: 'No header', slug: 'no-header-2' });
    expect(await count('No header')).toBe(2);
  });

  it('refuses a malformed key with 400', async () => {
    const res = await post({ name: 'x' }, 'has space');
    expect(res.status).toBe(400);
    expect((await res.json()).details[0].path).toBe('Idempotency-Key');
  });
});
