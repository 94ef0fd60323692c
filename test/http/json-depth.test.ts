import { gzipSync } from 'node:zlib';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { rpc } from '../mcp/client';

/**
 * Every JSON body the service reads (REST, /graphql, /mcp: rest/body.ts) nests at most
 * MAX_JSON_DEPTH levels of arrays and objects; deeper is 400 JSON_TOO_DEEP, counted in the text
 * before it is parsed, never a 500 from a walk that overflows the stack.
 */
let server: TestServer;
let shop: { id: string; key: string };

beforeAll(async () => {
  server = await startTestServer();
  shop = await makeStoreWithKey(server.prisma);
});
afterAll(() => server.close());

/** `levels` nested arrays, as JSON text. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const DEEP = 100_000;

const restPost = (path: string, text: string, headers: Record<string, string> = {}) =>
  server.request(`/api/v1${path}`, {
    method: 'POST',
    key: shop.key,
    headers: { 'content-type': 'application/json', ...headers },
    body: text,
  });

const tooDeep = {
  code: 'JSON_TOO_DEEP',
  message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
};

describe('the nesting bound of JSON bodies', () => {
  it('is 64 levels', () => expect(MAX_JSON_DEPTH).toBe(64));

  it('answers a REST body with a 100,000-deep array in a field 400 JSON_TOO_DEEP, writing nothing', async () => {
    const res = await restPost('/category', `{"name":"Deep","description":${nested(DEEP)}}`);
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { success: false, status: 400, ...tooDeep, requestId: res.headers.get('x-request-id') },
    });
    expect(await server.prisma.category.count({ where: { storeId: shop.id } })).toBe(0);
  });

  it('lets exactly 64 levels through to the operation, and refuses 65', async () => {
    // The body object is the first level.
    const at = await restPost('/category', `{"name":"Edge","description":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect({ status: at.status, code: (await at.json()).code }).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
    });
    const past = await restPost('/category', `{"name":"Edge","description":${nested(MAX_JSON_DEPTH)}}`);
    expect({ status: past.status, code: (await past.json()).code }).toEqual({
      status: 400,
      code: 'JSON_TOO_DEEP',
    });
  });

  it('counts no bracket inside a string, escaped quotes included', async () => {
    const description = `Brackets ${'[{'.repeat(100)} \\" ${'['.repeat(100)}`;
    const res = await restPost('/category', JSON.stringify({ name: 'Brackets', description }));
    expect(res.status).toBe(201);
    expect((await res.json()).data.description).toBe(description);
  });

  it('bounds a gzip-encoded body the same way', async () => {
    const res = await restPost('/category', gzipSync(`{"name":${nested(DEEP)}}`) as unknown as string, {
      'content-encoding': 'gzip',
    });
    expect({ status: res.status, code: (await res.json()).code }).toEqual({
      status: 400,
      code: 'JSON_TOO_DEEP',
    });
  });

  it('reads a UTF-16 body through the same bound', async () => {
    const utf16 = (text: string) => Buffer.from(`\uFEFF${text}`, 'utf16le') as unknown as string;
    const headers = { 'content-type': 'application/json; charset=utf-16' };
    const fine = await restPost('/category', utf16('{"name":"Wide"}'), headers);
    expect({ status: fine.status, name: (await fine.json()).data?.name }).toEqual({
      status: 201,
      name: 'Wide',
    });
    const deep = await restPost('/category', utf16(`{"name":${nested(DEEP)}}`), headers);
    expect({ status: deep.status, code: (await deep.json()).code }).toEqual({
      status: 400,
      code: 'JSON_TOO_DEEP',
    });
  });

  it('answers a /graphql POST whose variables nest 100,000 deep 400 JSON_TOO_DEEP', async () => {
    const res = await server.request('/graphql', {
      method: 'POST',
      key: shop.key,
      headers: { 'content-type': 'application/json' },
      body: `{"query":"query($id: ID!) { product(id: $id) { id } }","variables":{"id":${nested(DEEP)}}}`,
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: tooDeep.message,
            extensions: { code: 'JSON_TOO_DEEP', status: 400, requestId: res.headers.get('x-request-id') },
          },
        ],
      },
    });
  });

  it('bounds the JSON parameters of a /graphql GET too (yoga parses them)', async () => {
    const query = encodeURIComponent('query($id: ID!) { product(id: $id) { id } }');
    // Brackets unescaped: a URL has room for a few thousand levels, where a walk of them may overflow.
    const variables = `%7B%22id%22:${nested(MAX_JSON_DEPTH + 1)}%7D`;
    const res = await server.request(`/graphql?query=${query}&variables=${variables}`, {
      key: shop.key,
      headers: { accept: 'application/json' },
    });
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: {
        errors: [
          {
            message: `The variables parameter nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
            extensions: { code: 'JSON_TOO_DEEP', status: 400, requestId: res.headers.get('x-request-id') },
          },
        ],
      },
    });
    const shallow = await server.request(`/graphql?query=${query}&variables=%7B%22id%22:%22prd_x%22%7D`, {
      key: shop.key,
      headers: { accept: 'application/json' },
    });
    expect((await shallow.json()).errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('answers an /mcp tool call whose arguments nest 100,000 deep 400 JSON_TOO_DEEP', async () => {
    const res = await rpc(
      server,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_product","arguments":{"id":${nested(DEEP)}}}}`,
      { key: shop.key },
    );
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 400,
      body: { success: false, status: 400, ...tooDeep, requestId: res.headers.get('x-request-id') },
    });
  });
});

describe('nestsDeeperThan', () => {
  it.each([
    ['[[]]', 2, false],
    ['[[[]]]', 2, true],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[{}]}}', 3, true],
    ['["[[[[", "]]]]"]', 1, false],
    ['["\\"[[[["]', 1, false],
    ['["\\\\", [[]]]', 2, true],
    ['[] [] [] [] []', 1, false],
  ] as const)('%s deeper than %d: %s', (text, limit, expected) => {
    expect(nestsDeeperThan(text, limit)).toBe(expected);
  });
});
