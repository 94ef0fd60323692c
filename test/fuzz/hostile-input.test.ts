import fc from 'fast-check';
import { compileRoutes } from '../../rest/compile';
import { routeTable } from '../../rest/routes';
import { mcpTools } from '../../src/mcp/tools';
import { schema } from '../../src/schema';
import { allScopes, makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { type Sample, samplesFor } from '../matrix/samples';

/**
 * Issue 19 item 1: hostile input on every door never makes the service fail. fast-check generates
 * strings PostgreSQL cannot store (NUL, lone surrogates) beside other awkward text and values, puts
 * them in every path parameter, query parameter and body field of every REST route, in the
 * arguments of every MCP tool and in GraphQL variables, and no answer may be a 5xx. A NUL or lone
 * surrogate in a field is answered 400 VALIDATION_ERROR naming that field.
 */

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 80);
let server: TestServer;
let key: string;
let samples: Record<string, () => Promise<Sample>>;
const answered = { total: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000', SESSION_RATE_LIMIT_MAX: '1000000' });
  const storeId = (await makeStore(server.prisma, { plan: 'PRO' })).id;
  key = (await makeKey(server.prisma, storeId, { scopes: allScopes() })).secret;
  samples = samplesFor(server.prisma, storeId);
});
afterAll(() => server.close());

const unstorable = fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800');
const hostileText = fc.oneof(
  unstorable,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '%00',
    '%',
    '../../etc/passwd',
    "' OR 1=1 --",
    '{{7*7}}',
    '<script>alert(1)</script>',
    '\u202e\ufeff',
    '🙂'.repeat(300),
    'x'.repeat(5000),
    '1e308',
    '-0',
    'NaN',
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  fc.constantFrom(null, true, -1, 2 ** 53, 1.5, [], {}, ['\u0000'], { '\u0000': 'x' }),
);

/** Every string, number and boolean of a JSON value replaced, one at a time, by what `replace` gives. */
function leafPaths(value: unknown, path: string[] = []): string[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => leafPaths(item, [...path, String(i)]));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...path, k]));
  return [path];
}
function withLeaf(value: unknown, path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const [head, ...rest] = path as [string, ...string[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string, unknown>;
  copy[head] = withLeaf(copy[head], rest, leaf);
  return copy;
}

/**
 * Percent-encoding of any text, as a hostile client could send it: a lone surrogate has no UTF-8
 * form, so it goes out as the three bytes UTF-8's pattern would give it (%ED%A0%80), which the
 * server must refuse or replace, never choke on.
 */
function encodeHostile(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    out +=
      code >= 0xd800 && code <= 0xdfff
        ? `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase()
        : encodeURIComponent(char);
  }
  return out;
}

async function expectNo5xx(res: Response, what: string) {
  answered.total++;
  answered.byStatus.set(res.status, (answered.byStatus.get(res.status) ?? 0) + 1);
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

const routes = compileRoutes(schema, routeTable);
/** Routes the matrices do not sample: signing in (a body to spoil) and the session's own, which take nothing. */
const sessionSamples: Record<string, Sample> = {
  'POST /auth/login': { params: {}, body: { email: 'fuzz@example.test', password: 'not the password' } },
};

describe.each(routes.map((entry) => [`${entry.route.method} ${entry.route.path}`, entry] as const))(
  '%s',
  (name, entry) => {
    it('answers hostile path, query and body values without a 5xx', async () => {
      const sample = sessionSamples[name] ?? (await samples[name]?.()) ?? { params: {} };
      const fields = entry.route.body ? leafPaths(sample.body ?? {}) : [];
      const slots = [
        ...entry.pathParams.map((p) => ({ kind: 'path' as const, name: p })),
        ...entry.queryParams.map((p) => ({ kind: 'query' as const, name: p })),
        ...fields.map((p) => ({ kind: 'body' as const, path: p })),
        ...(entry.route.body ? [{ kind: 'extra' as const }] : []),
      ];
      if (slots.length === 0) return;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...slots), hostileValue, async (slot, value) => {
          const params = Object.fromEntries(
            Object.entries(sample.params).map(([k, v]) => [k, encodeURIComponent(v)]),
          );
          let query = '';
          let body: unknown = sample.body ?? (entry.route.body ? {} : undefined);
          if (slot.kind === 'path') params[slot.name] = encodeHostile(String(value));
          if (slot.kind === 'query') query = `?${slot.name}=${encodeHostile(String(value))}`;
          if (slot.kind === 'body') body = withLeaf(body, slot.path, value);
          if (slot.kind === 'extra') body = { ...(body as object), [String(value)]: value };
          const path = `/api/v1${entry.route.path.replace(/\{(\w+)\}/g, (_m, p: string) => params[p] ?? '')}`;
          const res = await server.request(path + query, {
            method: entry.route.method,
            key,
            ...(body === undefined
              ? {}
              : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
          });
          await expectNo5xx(
            res,
            `${name} with ${slot.kind} ${JSON.stringify(slot)} = ${JSON.stringify(value)}`,
          );
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    });
  },
);

describe('MCP tools', () => {
  it.each(mcpTools.map((tool) => [tool.name, tool] as const))(
    '%s answers hostile arguments without a 5xx (as a tool error or a JSON-RPC error)',
    async (_name, tool) => {
      const names = Object.keys(tool.input.shape);
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...names, 'extra'), hostileValue), async (args) => {
          const res = await server.request('/mcp', {
            method: 'POST',
            key,
            headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: tool.name, arguments: args },
            }),
          });
          await expectNo5xx(res, `${tool.name} with ${JSON.stringify(args)}`);
        }),
        { numRuns: RUNS_PER_ROUTE },
      );
    },
  );
});

describe('GraphQL variables and literals', () => {
  it('answers hostile variables and string literals without a 5xx', async () => {
    const query = `query Lists($q: String, $id: ID!, $status: OrderStatus, $from: DateTime) {
      products(q: $q) { items { id } }
      orders(q: $q, status: $status, from: $from) { items { id } }
      product(id: $id) { id }
    }`;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ q: hostileValue, id: hostileValue, status: hostileValue, from: hostileValue }),
        async (variables) => {
          const res = await server.graphql(query, variables, key);
          await expectNo5xx(res, `GraphQL with ${JSON.stringify(variables)}`);
        },
      ),
      { numRuns: RUNS_PER_ROUTE * 3 },
    );
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        const literal = JSON.stringify(text);
        const res = await server.graphql(
          `mutation { createCategory(input: { name: ${literal} }) { id } }`,
          {},
          key,
        );
        await expectNo5xx(res, `GraphQL literal ${literal}`);
      }),
      { numRuns: RUNS_PER_ROUTE },
    );
  });
});

describe('text PostgreSQL cannot store', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800'],
    ['a lone low surrogate', '\udc00b'],
  ])(
    '%s in a body field, a query parameter, a path id or a GraphQL variable is 400 VALIDATION_ERROR naming the field',
    async (_what, text) => {
      const body = await server.send('POST', '/api/v1/category', { name: text }, key);
      expect(body.status).toBe(400);
      expect(await body.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ path: 'input.name', message: expect.stringMatching(/NUL or unpaired surrogate/) }],
      });
      // A URL has no way to carry a lone surrogate (its bytes decode to U+FFFD); NUL it can.
      if (!/[\ud800-\udfff]/.test(text)) {
        const query = await server.request(`/api/v1/product?q=${encodeURIComponent(text)}`, { key });
        expect(query.status).toBe(400);
        expect((await query.json()).details[0].path).toBe('q');
        const path = await server.request(`/api/v1/product/${encodeURIComponent(text)}`, { key });
        expect(path.status).toBe(400);
        expect((await path.json()).details[0].path).toBe('id');
      }
      const graphql = await server.graphql(
        'query($q: String) { products(q: $q) { items { id } } }',
        { q: text },
        key,
      );
      expect(graphql.status).toBe(400);
      expect((await graphql.json()).errors[0].extensions.details[0].path).toBe('q');
    },
  );

  it('the fuzz sent at least 5,000 requests and every answer was below 500', () => {
    if (RUNS_PER_ROUTE >= 80) expect(answered.total).toBeGreaterThanOrEqual(5000);
    expect([...answered.byStatus.keys()].every((status) => status < 500)).toBe(true);
  });
});
