import { Client } from 'pg';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 19 item 5 (in part): a statement that runs past DB_STATEMENT_TIMEOUT_MS — here a write
 * stuck behind a lock another connection holds — is ended by PostgreSQL and answered with a code,
 * nothing half-written, and the next request is served normally.
 */
jest.setTimeout(60_000);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ DB_STATEMENT_TIMEOUT_MS: '300' });
});
afterAll(() => server.close());

it('ends a statement past the limit with 503 QUERY_TIMEOUT, writing nothing, on REST and GraphQL', async () => {
  const store = await makeStore(server.prisma, { name: 'Before' });
  const { secret } = await makeKey(server.prisma, store.id);
  const blocker = new Client({ connectionString: server.databaseUrl });
  await blocker.connect();
  try {
    await blocker.query('BEGIN');
    await blocker.query('SELECT id FROM "Store" WHERE id = $1 FOR UPDATE', [store.id]);

    const rest = await server.send('PATCH', '/api/v1/store/settings', { name: 'After' }, secret);
    expect(rest.status).toBe(503);
    expect(await rest.json()).toEqual(expect.objectContaining({ status: 503, code: 'QUERY_TIMEOUT' }));

    const graphql = await server.graphql(
      'mutation { updateStoreSettings(input: { name: "After" }) { name } }',
      {},
      secret,
    );
    const body = (await graphql.json()) as { errors?: Array<{ extensions: { code: string } }> };
    expect(body.errors?.[0]?.extensions.code).toBe('QUERY_TIMEOUT');
  } finally {
    await blocker.query('ROLLBACK');
    await blocker.end();
  }
  expect((await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } })).name).toBe('Before');
  const again = await server.send('PATCH', '/api/v1/store/settings', { name: 'After' }, secret);
  expect(again.status).toBe(200);
});
