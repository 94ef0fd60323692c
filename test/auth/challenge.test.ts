import { AUTHENTICATE_CHALLENGE } from '../../src/http/respond';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/** Issue 15 item 11: every 401 of every door says how to authenticate (WWW-Authenticate). */

let server: TestServer;
let key: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify(body),
});

it('names the Bearer and tt-api-key schemes on a 401 from REST, GraphQL and MCP', async () => {
  const answers = [
    await server.request('/api/v1/product'),
    await server.request('/graphql', json({ query: '{ products { items { id } } }' })),
    await server.request('/mcp', json({ jsonrpc: '2.0', id: 1, method: 'tools/list' })),
    await server.request('/api/v1/product', { headers: { 'tt-api-key': 'not-a-key' } }),
  ];
  for (const res of answers) {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(AUTHENTICATE_CHALLENGE);
  }
  expect(AUTHENTICATE_CHALLENGE).toMatch(/^Bearer realm="[^"]+", ApiKey realm="[^"]+", header="tt-api-key"$/);
});

it('sends no challenge when the request is authenticated, or refused for another reason', async () => {
  const ok = await server.request('/api/v1/product', { key });
  expect(ok.headers.get('www-authenticate')).toBeNull();
  const notFound = await server.request('/api/v1/product/prd_nope', { key });
  expect(notFound.status).toBe(404);
  expect(notFound.headers.get('www-authenticate')).toBeNull();
});
