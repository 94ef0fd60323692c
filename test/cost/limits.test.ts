import { getIntrospectionQuery, getOperationAST, parse, validate } from 'graphql';
import { compileRoutes } from '../../rest/compile';
import { routeTable } from '../../rest/routes/index';
import { loadConfig } from '../../src/config';
import { MAX_DOCUMENT_NESTING, queryShapeRule } from '../../src/cost/limits';
import { measureAnswer, requestedCost } from '../../src/cost/query-cost';
import type { PreparedOperation } from '../../src/graphql/operation';
import { compileTools } from '../../src/mcp/compile';
import { mcpTools } from '../../src/mcp/tools/index';
import { schema } from '../../src/schema';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * README "Query limits and cost": a document over a limit is refused before it runs, fast and coded
 * (QUERY_TOO_COMPLEX with what was measured, the limit and the value), and every GraphQL response
 * says what it cost.
 */

const limits = loadConfig({}).queryLimits;
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  ({ key } = await makeStoreWithKey(server.prisma));
});
afterAll(() => server.close());

const post = (body: string) =>
  server.request('/graphql', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body });
const ask = (query: string, variables: Record<string, unknown> = {}) =>
  post(JSON.stringify({ query, variables }));

async function expectTooComplex(res: Response, measure: string, value: number | 'any') {
  expect(res.status).toBe(400);
  const body = await res.json();
  const error = body.errors.find(
    (e: { extensions: { code: string } }) => e.extensions.code === 'QUERY_TOO_COMPLEX',
  );
  expect(error?.extensions).toEqual({
    code: 'QUERY_TOO_COMPLEX',
    status: 400,
    measure,
    limit: limits[`max${measure[0]?.toUpperCase()}${measure.slice(1)}` as keyof typeof limits],
    value: value === 'any' ? expect.any(Number) : value,
  });
  expect(body.data).toBeUndefined();
}

/** A valid document as deep as asked: introspection types nest through ofType. */
const deep = (depth: number) =>
  `{ __schema { types { ${'ofType { '.repeat(depth - 3)}name${' }'.repeat(depth - 3)} } } }`;

describe('each limit refuses a document over it, coded, before anything runs', () => {
  it(`depth: a document 30 deep (limit ${limits.maxDepth})`, async () => {
    await expectTooComplex(await ask(deep(30)), 'depth', 30);
    expect((await ask(deep(limits.maxDepth))).status).toBe(200);
  });

  it('aliases: 2,000 aliases are refused by the token limit before they are counted; a few over the alias limit by it', async () => {
    const aliased = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    await expectTooComplex(await ask(aliased(2000)), 'tokens', 'any');
    await expectTooComplex(await ask(aliased(limits.maxAliases + 1)), 'aliases', limits.maxAliases + 1);
    expect((await ask(aliased(limits.maxAliases))).status).toBe(200);
  });

  it('aliases inside a fragment count once per spread', async () => {
    const fragment = `fragment F on Query { ${Array.from({ length: 10 }, (_, i) => `f${i}: __typename`).join(' ')} }`;
    await expectTooComplex(await ask(`{ ...F ...F ...F ...F } ${fragment}`), 'aliases', 40);
  });

  it('a fragment cycle is a validation error, and counting it ends', async () => {
    const res = await ask('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A __typename }');
    expect(res.status).toBe(400);
    const codes = (await res.json()).errors.map((e: { extensions: { code: string } }) => e.extensions.code);
    expect(codes).toContain('VALIDATION_ERROR');
  });

  it('directives: 10,000 are refused by the token limit; a few over the directive limit by it', async () => {
    const directed = (n: number) => `{ __typename${' @include(if: true)'.repeat(n)} }`;
    await expectTooComplex(await ask(directed(10_000)), 'tokens', 'any');
    const within = Math.floor((limits.maxTokens - 10) / 7); // each directive is 7 tokens
    expect(within).toBeGreaterThan(limits.maxDirectives);
    await expectTooComplex(
      await ask(directed(limits.maxDirectives + 1)),
      'directives',
      limits.maxDirectives + 1,
    );
  });

  it(`nesting: a value nested 2,000 deep, within the token limit, is refused before the parser recurses (limit ${MAX_DOCUMENT_NESTING})`, async () => {
    for (const query of [
      `{ product(id: ${'['.repeat(2000)}1${']'.repeat(2000)}) { id } }`,
      `query($v: ID = ${'{a: '.repeat(1000)}1${'}'.repeat(1000)}) { __typename }`,
    ]) {
      const res = await ask(query);
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.errors[0].extensions).toMatchObject({
        code: 'QUERY_TOO_COMPLEX',
        measure: 'nesting',
        limit: MAX_DOCUMENT_NESTING,
      });
    }
    // Brackets in strings and comments are not nesting.
    const quoted = `{ __typename # ${'['.repeat(500)}\n product(id: "${'['.repeat(500)}") { id } }`;
    expect((await (await ask(quoted)).json()).errors?.[0]?.extensions?.code).not.toBe('QUERY_TOO_COMPLEX');
  });

  it('tokens: a 1 MB document stops being parsed at the limit; a larger body is 413', async () => {
    const megabyte = `{ ${'__typename '.repeat(90_000)}}`;
    expect(megabyte.length).toBeGreaterThan(990_000);
    await expectTooComplex(await ask(megabyte), 'tokens', 'any');
    const tooLarge = await ask(`{ ${'__typename '.repeat(100_000)}}`);
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).errors[0].extensions.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('cost: a page of 100 orders with their lines and customer is within it; enough of them are not', async () => {
    const orders = (alias: string) =>
      `${alias}: orders(limit: 100) { items { id customer { id } items { id } } pagination { totalResults } }`;
    const one = await ask(`{ ${orders('a')} }`);
    expect(one.status).toBe(200);
    const cost = (await one.json()).extensions.cost;
    expect(cost).toEqual(
      expect.objectContaining({ requestedQueryCost: 1 + 100 * (1 + 1 + 100) + 1, actualQueryCost: 1 + 1 }),
    );
    const pages = Math.floor(limits.maxCost / 10_202) + 1;
    const many = Array.from({ length: pages }, (_, i) => orders(`p${i}`)).join(' ');
    await expectTooComplex(await ask(`{ ${many} }`), 'cost', pages * 10_202);
  });

  it('cost: a variable page size is read from the variables, at most 100', async () => {
    const query = 'query Page($n: Int) { products(limit: $n) { items { id category { id } } } }';
    const cost = async (n: number | null) => (await (await ask(query, { n })).json()).extensions.cost;
    expect((await cost(10)).requestedQueryCost).toBe(1 + 10 * 2);
    expect((await cost(null)).requestedQueryCost).toBe(1 + 25 * 2);
  });

  it('a batch (array body) of 100 operations is refused as a whole: 400 BATCHING_NOT_SUPPORTED', async () => {
    const batch = JSON.stringify(Array.from({ length: 100 }, () => ({ query: '{ __typename }' })));
    const res = await post(batch);
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].extensions).toMatchObject({ code: 'BATCHING_NOT_SUPPORTED' });
  });

  it("introspection (GraphiQL's schema query) is within every limit", async () => {
    const res = await ask(getIntrospectionQuery());
    expect(res.status).toBe(200);
    expect((await res.json()).data.__schema.queryType.name).toBe('Query');
  });
});

describe('every GraphQL response says what it cost', () => {
  it('a query: the page asked for, and the objects returned', async () => {
    const body = await (
      await ask('{ categories(limit: 5) { items { id } pagination { totalResults } } }')
    ).json();
    expect(body.extensions.cost).toEqual(
      expect.objectContaining({ requestedQueryCost: 1 + 5 + 1, actualQueryCost: 2 }),
    );
  });

  it('a mutation: 10 for the field, and its result', async () => {
    const body = await (await ask('mutation { createCategory(input: { name: "Costed" }) { id } }')).json();
    expect(body.extensions.cost).toEqual(
      expect.objectContaining({ requestedQueryCost: 11, actualQueryCost: 11 }),
    );
  });
});

describe('the fixed documents of every REST route and MCP tool', () => {
  const largest: Record<string, unknown> = { limit: 100, first: 100, last: 100 };
  const documents: Array<[string, PreparedOperation]> = [
    ...compileRoutes(schema, routeTable).map(
      (entry) => [`${entry.route.method} ${entry.route.path}`, entry] as [string, PreparedOperation],
    ),
    ...compileTools(schema, mcpTools).map(
      (tool) => [`MCP ${tool.tool.name}`, tool] as [string, PreparedOperation],
    ),
  ];

  it.each(documents)('%s is within the depth, alias, directive, token and cost limits', (_name, prepared) => {
    expect(validate(schema, prepared.document, [queryShapeRule(limits)])).toEqual([]);
    const source = prepared.document.loc?.source.body ?? '';
    expect(() => parse(source, { maxTokens: limits.maxTokens })).not.toThrow();
    const operation = getOperationAST(prepared.document, prepared.operation.name.value);
    if (!operation) throw new Error('no operation');
    expect(requestedCost(schema, prepared.document, operation, largest)).toBeLessThanOrEqual(limits.maxCost);
  });

  it('the actual cost counts every object returned', () => {
    expect(
      measureAnswer(
        {
          a: {
            items: [
              { x: 1, c: { id: 'c' } },
              { x: 2, c: null },
            ],
          },
        },
        undefined,
      ).cost,
    ).toBe(4);
  });
});

describe('the server answers beside refusals', () => {
  // How long the refusals and a request beside them take is measured in bench/refusals.ts (a
  // benchmark, not a timed test: this machine is shared, and a bound here failed a loaded CI run).
  it('a cheap request is answered while large refused documents are sent', async () => {
    const heavy = `{ ${'__typename '.repeat(90_000)}}`;
    const refusals = Array.from({ length: 8 }, () => ask(heavy));
    const cheap = await ask('{ categories(limit: 1) { items { id } } }');
    expect(cheap.status).toBe(200);
    for (const res of await Promise.all(refusals)) expect(res.status).toBe(400);
  });
});
