import { responseMediaType } from '../../src/graphql/http';
import { makeCategories, makeKey, makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The /graphql door runs a JSON POST through the pipeline itself and writes the result with yoga's
 * result processor; yoga serves GET. So a query sent both ways must be answered alike — status,
 * the headers that carry meaning, and the body (request ids aside) — for successes, execution
 * errors, refusals and every Accept a client sends. Cached and uncached.
 */

let server: TestServer;
let key: string;
let narrowKey: string;

beforeAll(async () => {
  // No cost budget: a POST and a GET of the same query would each say their own balance after them.
  server = await startTestServer({
    READ_CACHE_TTL_MS: '60000',
    GRAPHQL_MAX_COST: '50',
    COST_BUDGET_POINTS: '0',
  });
  const store = await makeStoreWithKey(server.prisma);
  key = store.key;
  narrowKey = (
    await makeKey(server.prisma, store.id, { scopes: [{ resource: 'ORDERS', actions: ['READ'] }] })
  ).secret;
  await makeCategories(server.prisma, store.id, ['Shoes', 'Hats', 'Bags']);
});
afterAll(() => server.close());

interface Case {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  accept?: string;
  key?: string | null;
}

const MEANINGFUL = ['content-type', 'www-authenticate', 'retry-after', 'allow', 'accept'];

/** Status, meaningful headers and body of an answer, request ids replaced (they differ per request). */
async function answerOf(response: Response) {
  const text = await response.text();
  return {
    status: response.status,
    headers: Object.fromEntries(MEANINGFUL.map((name) => [name, response.headers.get(name)])),
    body: text.replace(/"requestId":"[^"]*"/g, '"requestId":"…"'),
  };
}

function headersOf(c: Case): Record<string, string> {
  const headers: Record<string, string> = {};
  if (c.accept !== undefined) headers.accept = c.accept;
  const credential = c.key === undefined ? key : c.key;
  if (credential !== null) headers['tt-api-key'] = credential;
  return headers;
}

const post = (c: Case) =>
  fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { ...headersOf(c), 'content-type': 'application/json' },
    body: JSON.stringify({ query: c.query, variables: c.variables, operationName: c.operationName }),
  }).then(answerOf);

function get(c: Case) {
  const url = new URL('/graphql', server.baseUrl);
  url.searchParams.set('query', c.query);
  if (c.variables) url.searchParams.set('variables', JSON.stringify(c.variables));
  if (c.operationName) url.searchParams.set('operationName', c.operationName);
  return fetch(url, { headers: headersOf(c) }).then(answerOf);
}

const cases: Record<string, Case> = {
  'a cacheable list': {
    query: '{ categories(limit: 10) { items { id name slug } pagination { totalResults } } }',
  },
  variables: {
    query: 'query Page($limit: Int!) { categories(limit: $limit) { items { name } } }',
    variables: { limit: 2 },
  },
  'the named one of two operations': {
    query:
      'query A { categories(limit: 1) { items { name } } } query B { categories(limit: 3) { items { name } } }',
    operationName: 'B',
  },
  'an execution error beside data': { query: '{ category(id: "no-such-category") { id name } }' },
  'a variable of the wrong type': {
    query: 'query Page($limit: Int!) { categories(limit: $limit) { items { name } } }',
    variables: { limit: 'many' },
  },
  'a missing scope': { query: '{ categories(limit: 1) { items { name } } }', key: 'narrow' },
  'no credential': { query: '{ categories(limit: 1) { items { name } } }', key: null },
  'a wrong credential': { query: '{ categories(limit: 1) { items { name } } }', key: 'tt_wrong' },
  'over the cost limit': { query: '{ categories(limit: 100) { items { id } } }' },
  'a syntax error': { query: '{ categories(limit: 1) { items { name }' },
  'an unknown field': { query: '{ categories(limit: 1) { items { colour } } }' },
  'an operation name the document lacks': {
    query: 'query A { categories(limit: 1) { items { name } } }',
    operationName: 'Z',
  },
  'two operations and no name': {
    query:
      'query A { shop: categories(limit: 1) { items { name } } } query B { x: categories(limit: 1) { items { name } } }',
  },
};

const accepts: Array<string | undefined> = [
  undefined,
  '*/*',
  'application/json',
  'application/graphql-response+json',
  'application/graphql-response+json, application/json;q=0.9',
  'application/xml, application/graphql-response+json',
  'application/json; charset=iso-8859-1, application/graphql-response+json',
  // None it can answer with: yoga's 406 both ways. (A GET that accepts text/html is GraphiQL's page.)
  'application/xml',
];

describe('the /graphql door answers a POST as yoga answers the same query by GET', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(`${name}, under every Accept`, async () => {
      const given = { ...c, key: c.key === 'narrow' ? narrowKey : c.key };
      for (const accept of accepts) {
        const asked = { ...given, accept };
        // POST first (a cacheable read is remembered), then GET, then POST again (answered from it).
        const first = await post(asked);
        const byYoga = await get(asked);
        const again = await post(asked);
        expect({ accept, ...first }).toEqual({ accept, ...byYoga });
        expect({ accept, ...again }).toEqual({ accept, ...byYoga });
      }
    });
  }

  it('answers the common request itself with what it asked: 200, JSON, data and cost', async () => {
    const answer = await post({ query: '{ categories(limit: 2) { items { name } } }' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({
      data: { categories: { items: [{ name: 'Bags' }, { name: 'Hats' }] } },
      extensions: { cost: { requestedQueryCost: expect.any(Number), actualQueryCost: 3 } },
    });
  });
});

describe('the media type of an answer, as yoga negotiates it', () => {
  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/*', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    ['text/html, application/graphql-response+json;charset=utf-8', 'application/graphql-response+json'],
    ['application/json;charset=latin1', undefined],
    ['text/html', undefined],
    ['text/event-stream', undefined],
  ])('Accept %p → %p', (accept, expected) => {
    expect(responseMediaType(accept)).toBe(expected);
  });
});
