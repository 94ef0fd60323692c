import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { callTool, connectMcp, rpc, toolsList } from './client';

/**
 * POST /mcp at the HTTP level: the same authentication, rate limit, usage quota and body limit as
 * every other door, answered with the error envelope before the protocol starts; 405 for GET/DELETE.
 */

const RATE_LIMIT = 6;
let server: TestServer;
let storeId: string;

beforeAll(async () => {
  // No verified-key cache: keys and stores are changed directly in the database below.
  server = await startTestServer({
    AUTH_CACHE_TTL_MS: '0',
    RATE_LIMIT_MAX: String(RATE_LIMIT),
    BODY_LIMIT_BYTES: '4096',
  });
  storeId = (await makeStore(server.prisma)).id;
});
afterAll(() => server.close());

const newKey = async (input: Parameters<typeof makeKey>[2] = {}) =>
  (await makeKey(server.prisma, storeId, input)).secret;

async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({
    success: false,
    status,
    code,
    message: expect.any(String),
    requestId: res.headers.get('x-request-id'),
  });
}

describe('authentication before the protocol', () => {
  it('refuses a request without a key with 401 API_KEY_REQUIRED and the error envelope', async () => {
    await expectEnvelope(await rpc(server, toolsList), 401, 'API_KEY_REQUIRED');
    await expect(connectMcp(server, undefined)).rejects.toThrow(StreamableHTTPError);
  });

  it('refuses a malformed, an unknown and a revoked key with their codes', async () => {
    await expectEnvelope(await rpc(server, toolsList, { key: 'sk_nope' }), 401, 'INVALID_API_KEY_FORMAT');
    await expectEnvelope(
      await rpc(server, toolsList, { key: `tt_${'0'.repeat(64)}` }),
      401,
      'INVALID_API_KEY',
    );
    const revoked = await makeKey(server.prisma, storeId);
    await server.prisma.apiKey.update({
      where: { id: revoked.keyId },
      data: { status: 'revoked', revokedAt: new Date(server.clock.now.getTime() - 1000) },
    });
    await expectEnvelope(await rpc(server, toolsList, { key: revoked.secret }), 401, 'API_KEY_REVOKED');
  });

  it('refuses a key of a suspended store with 402 STORE_SUSPENDED, also as Authorization: Bearer', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    await server.prisma.store.update({
      where: { id: store.id },
      data: { status: 'SUSPENDED', suspendedAt: new Date() },
    });
    await expectEnvelope(await rpc(server, toolsList, { key: secret }), 402, 'STORE_SUSPENDED');
    await expectEnvelope(
      await rpc(server, toolsList, { headers: { authorization: `Bearer ${secret}` } }),
      402,
      'STORE_SUSPENDED',
    );
  });

  it('takes API keys only: a dashboard session is API_KEY_REQUIRED', async () => {
    const token = `tts_${'ab'.repeat(32)}`;
    await expectEnvelope(
      await rpc(server, toolsList, { headers: { authorization: `Bearer ${token}` } }),
      401,
      'API_KEY_REQUIRED',
    );
    await expectEnvelope(
      await rpc(server, toolsList, { headers: { cookie: `tt_session=${token}` } }),
      401,
      'API_KEY_REQUIRED',
    );
  });

  it('answers /api/v1/mcp exactly like /mcp', async () => {
    await expectEnvelope(await rpc(server, toolsList, { path: '/api/v1/mcp' }), 401, 'API_KEY_REQUIRED');
    const session = await connectMcp(server, await newKey(), '/api/v1/mcp');
    expect((await session.client.listTools()).tools).toHaveLength(12);
    await session.close();
  });
});

describe('rate limit and usage', () => {
  it('counts every MCP request in the key’s window, with the headers, then answers 429', async () => {
    const key = await newKey();
    const session = await connectMcp(server, key); // initialize + notifications/initialized: 2 requests
    await callTool(session.client, 'get_store_info'); // 3
    const listed = await rpc(server, toolsList, { key }); // 4
    expect(listed.status).toBe(200);
    expect(listed.headers.get('x-ratelimit-limit')).toBe(String(RATE_LIMIT));
    expect(listed.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT - 4));
    expect(listed.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(listed.headers.get('ratelimit-policy')).toBe(`"default";q=${RATE_LIMIT};w=60`);
    expect(listed.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await listed.json()).result.tools).toHaveLength(12);

    expect((await rpc(server, toolsList, { key })).status).toBe(200); // 5
    expect((await rpc(server, toolsList, { key })).status).toBe(200); // 6
    const rejected = await rpc(server, toolsList, { key });
    expect(rejected.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(rejected.headers.get('retry-after')).toMatch(/^\d+$/);
    await expectEnvelope(rejected, 429, 'RATE_LIMIT_EXCEEDED');
    await expect(callTool(session.client, 'get_store_info')).rejects.toThrow(/429|RATE_LIMIT_EXCEEDED/);
    await session.close();
  });

  it('counts MCP requests against the key’s usage limit', async () => {
    const key = await newKey({ usageLimit: 2 });
    expect((await rpc(server, toolsList, { key })).status).toBe(200);
    expect((await rpc(server, toolsList, { key })).status).toBe(200);
    await expectEnvelope(await rpc(server, toolsList, { key }), 429, 'API_KEY_USAGE_LIMIT_REACHED');
  });

  it('counts each call of a JSON-RPC batch as one request, and refuses a batch the window has no room for whole', async () => {
    const key = await newKey({ usageLimit: 100 });
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'get_store_info', arguments: {} },
    });
    const notification = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const batch = await rpc(server, [call(1), call(2), notification, call(3), call(4)], { key });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('x-ratelimit-remaining')).toBe(String(RATE_LIMIT - 4));
    const answers = (await batch.json()) as { id: number; result: { isError?: boolean } }[];
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2, 3, 4]);
    expect(answers.every((answer) => !answer.result.isError)).toBe(true);

    // Two requests are left: a batch of three is refused whole, and counts nothing.
    const refused = await rpc(server, [call(5), call(6), call(7)], { key });
    const body = (await refused.clone().json()) as { message: string };
    expect(body.message).toMatch(/this batch counts as 3 requests/);
    await expectEnvelope(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect((await rpc(server, [call(8), call(9)], { key })).status).toBe(200);
    expect((await rpc(server, toolsList, { key })).status).toBe(429);
    const used = await server.prisma.apiKey.findFirst({ where: { storeId }, orderBy: { createdAt: 'desc' } });
    expect(used?.usageLimit).toBe(100);
  });
});

describe('HTTP shape of the endpoint', () => {
  it('answers GET and DELETE with 405, a JSON-RPC error and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await server.request('/mcp', { method, headers: { accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toEqual({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringMatching(/^Method not allowed/) },
        id: null,
      });
    }
  });

  it('refuses a body over the limit with 413 and a non-JSON body with 415', async () => {
    const key = await newKey();
    const big = { ...toolsList, params: { _meta: { pad: 'x'.repeat(5000) } } };
    await expectEnvelope(await rpc(server, big, { key }), 413, 'PAYLOAD_TOO_LARGE');
    await expectEnvelope(
      await rpc(server, 'hello', { key, headers: { 'content-type': 'text/plain' } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('answers a malformed JSON-RPC message inside the protocol with a JSON-RPC error', async () => {
    const res = await rpc(server, { jsonrpc: '2.0', id: 7, nope: true }, { key: await newKey() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(
      expect.objectContaining({
        jsonrpc: '2.0',
        error: expect.objectContaining({ code: expect.any(Number) }),
      }),
    );
  });
});
