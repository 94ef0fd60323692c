import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let server: TestServer;
let key: string;
let keyId: string;

beforeAll(async () => {
  server = await startTestServer({}, { logger: createLogger('debug', sink) });
  const store = await makeStore(server.prisma);
  ({ secret: key, keyId } = await makeKey(server.prisma, store.id));
});
afterAll(() => server.close());

describe('request logs', () => {
  it('write one structured line per request with the request id and key id', async () => {
    const res = await server.request('/api/v1/category', { key, headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const entry = lines.map((line) => JSON.parse(line)).find((e) => e.requestId === 'trace-123');
    expect(entry).toEqual(
      expect.objectContaining({
        msg: 'request',
        method: 'GET',
        path: '/api/v1/category',
        status: 200,
        keyId,
      }),
    );
  });

  it('never contain the secret, whichever header carried it and whatever failed', async () => {
    const revoked = await makeKey(server.prisma, (await makeStore(server.prisma)).id);
    await server.prisma.apiKey.update({
      where: { id: revoked.keyId },
      data: { status: 'revoked', revokedAt: new Date(0) },
    });
    await server.request('/api/v1/category', { headers: { authorization: `Bearer ${key}` } });
    await server.request('/api/v1/category', { key: revoked.secret });
    await server.request('/api/v1/nowhere', { key });
    await server.graphql('{ categories { items { id } } }', {}, key);
    await server.graphql('{ nope }', {}, key);
    const created = await server.request('/api/v1/api-key', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        keyName: 'logged?',
        environment: 'staging',
        scopes: [{ resource: 'CATEGORIES', actions: ['READ'] }],
      }),
    });
    const issued = (await created.json()).data;
    const rotated = (
      await (await server.request(`/api/v1/api-key/${issued.keyId}/rotate`, { method: 'POST', key })).json()
    ).data;
    await server.request('/api/v1/category', { key: issued.secret });
    await server.request('/api/v1/category', { key: rotated.secret });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const secret of [key, revoked.secret, issued.secret, rotated.secret]) {
      expect(lines.join('\n')).not.toContain(secret.slice(3));
    }
  });
});
