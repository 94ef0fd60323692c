import { request as httpRequest } from 'node:http';
import { makeCategories, makeKey, makeOrders, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The /graphql door answers a JSON POST itself (src/graphql/http.ts); with GRAPHQL_LEAN_POST=false
 * yoga answers it, as it answers everything else. Two API processes of one deployment, one each
 * way: the same request to both must get the same status, the same headers and the same body, byte
 * for byte — for valid, invalid, erroring, unauthenticated, rate-limited and cross-origin requests.
 * Each request pair has two fresh keys in the same state, and one request id, so nothing may
 * differ but the Date header. Query answers carry an ETag (a version's, or their data's) and answer
 * a current one with 304: the same tags, the same 304s.
 */

const ORIGIN = 'https://shop.example';
let lean: TestServer;
let yoga: TestServer;
let storeId: string;

beforeAll(async () => {
  const env = {
    RATE_LIMIT_MAX: '2',
    GRAPHQL_MAX_COST: '50',
    CORS_ORIGINS: ORIGIN,
    READ_CACHE_TTL_MS: '60000',
  };
  lean = await startTestServer(env);
  yoga = await startTestServer({ ...env, GRAPHQL_LEAN_POST: 'false' }, { shareWith: lean });
  storeId = (await makeStore(lean.prisma)).id;
  await makeCategories(lean.prisma, storeId, ['Shoes', 'Hats', 'Bags']);
  await makeOrders(lean.prisma, storeId, 2, 1);
});
afterAll(async () => {
  await yoga.close();
  await lean.close();
});

interface Raw {
  status: number;
  headers: string[];
  body: Buffer;
}

/** One HTTP exchange, as the wire carried it: status, header lines in order, body bytes. */
function send(
  server: TestServer,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  const url = new URL('/graphql', server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          if (res.rawHeaders[i]!.toLowerCase() !== 'date')
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers: lines, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Credential = 'full' | 'narrow' | 'none' | 'wrong' | 'exhausted';
interface Case {
  body?: unknown;
  /** If-None-Match: the ETag of the same request made just before with the same key, or this tag. */
  ifNoneMatch?: 'current' | string;
  credential?: Credential;
  method?: string;
  headers?: Record<string, string>;
}

const page = '{ categories(limit: 2) { items { name } pagination { totalResults } } }';
const cases: Record<string, Case> = {
  'a valid query': { body: { query: page } },
  'the same query again (a remembered read on both)': { body: { query: page } },
  'variables and the named one of two operations': {
    body: {
      query:
        'query A { categories(limit: 1) { items { name } } } query B($l: Int) { categories(limit: $l) { items { slug } } }',
      operationName: 'B',
      variables: { l: 3 },
    },
  },
  'an order query with variables (tagged by its data)': {
    body: {
      query:
        'query O($s: OrderStatus) { orders(status: $s, limit: 2) { items { number status totalAmount } } }',
      variables: { s: 'pending' },
    },
  },
  'a customer query': { body: { query: '{ customers(limit: 2) { items { email orderCount } } }' } },
  'an order query with its current tag (304 after it ran)': {
    body: { query: '{ orders(limit: 2) { items { number status } } }' },
    ifNoneMatch: 'current',
  },
  'an order query with a stale tag': {
    body: { query: '{ orders(limit: 2) { items { number status } } }' },
    ifNoneMatch: 'W/"stale"',
  },
  'a catalogue query with its current tag (304 before it runs)': {
    body: { query: page },
    ifNoneMatch: 'current',
  },
  'a syntax error': { body: { query: '{ categories(limit: 1) { items { name }' } },
  'an unknown field': { body: { query: '{ categories { items { colour } } }' } },
  'a variable of the wrong type': {
    body: { query: 'query P($l: Int!) { categories(limit: $l) { items { name } } }', variables: { l: 'x' } },
  },
  'a missing variable': { body: { query: 'query P($l: Int!) { categories(limit: $l) { items { name } } }' } },
  'an operation name the document lacks': {
    body: { query: 'query A { categories { items { name } } }', operationName: 'Z' },
  },
  'an execution error beside data': {
    body: { query: '{ category(id: "nope") { id } categories(limit: 1) { items { name } } }' },
  },
  'a mutation refused by its input': {
    body: { query: 'mutation { createCategory(input: { name: "" }) { id } }' },
  },
  'over the cost limit': { body: { query: '{ categories(limit: 100) { items { id } } }' } },
  'a missing scope': { body: { query: page }, credential: 'narrow' },
  'no credential': { body: { query: page }, credential: 'none' },
  'a credential that matches nothing': { body: { query: page }, credential: 'wrong' },
  'rate-limited': { body: { query: page }, credential: 'exhausted' },
  'a body that is not an operation': { body: { query: 42 } },
  'a cross-origin POST from an allowed origin': { body: { query: page }, headers: { origin: ORIGIN } },
  'a CORS preflight': {
    method: 'OPTIONS',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, tt-api-key',
    },
  },
};

const accepts = [undefined, 'application/graphql-response+json', 'application/xml'];

async function credentialHeaders(credential: Credential): Promise<Record<string, string>> {
  if (credential === 'none') return {};
  if (credential === 'wrong') return { 'tt-api-key': `tt_${'0'.repeat(64)}` };
  const scopes =
    credential === 'narrow' ? { scopes: [{ resource: 'ORDERS' as const, actions: ['READ' as const] }] } : {};
  return { 'tt-api-key': (await makeKey(lean.prisma, storeId, scopes)).secret };
}

let sequence = 0;

describe('a JSON POST to /graphql: the lean door and yoga answer alike, byte for byte', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(name, async () => {
      for (const accept of accepts) {
        const method = c.method ?? 'POST';
        const body = c.body === undefined ? undefined : JSON.stringify(c.body);
        const exchange = async (server: TestServer) => {
          const credential = await credentialHeaders(c.credential ?? 'full');
          const headers: Record<string, string> = {
            ...credential,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(accept ? { accept } : {}),
            ...c.headers,
          };
          // Spend the key's window first (RATE_LIMIT_MAX is 2).
          if (c.credential === 'exhausted')
            for (let i = 0; i < 2; i++) await send(server, method, headers, body);
          if (c.ifNoneMatch === 'current') {
            // The tag does not depend on Accept (the same data): asked as JSON, it is the current one.
            const { accept: _, ...asJson } = headers;
            const first = await send(server, method, asJson, body);
            const etag = first.headers.find((line) => line.toLowerCase().startsWith('etag: '));
            if (!etag) throw new Error(`no ETag: ${first.status} ${first.body}`);
            headers['if-none-match'] = etag.slice('etag: '.length);
          } else if (c.ifNoneMatch) headers['if-none-match'] = c.ifNoneMatch;
          sequence += 1;
          const id = `lean-post-${sequence}`;
          return { id, headers };
        };
        const [forLean, forYoga] = [await exchange(lean), await exchange(yoga)];
        const requestId = forLean.id;
        const byLean = await send(lean, method, { ...forLean.headers, 'x-request-id': requestId }, body);
        const byYoga = await send(yoga, method, { ...forYoga.headers, 'x-request-id': requestId }, body);
        const shown = (raw: Raw) => ({
          accept,
          status: raw.status,
          headers: raw.headers,
          body: raw.body.toString(),
        });
        expect(shown(byLean)).toEqual(shown(byYoga));
        // A current tag is a 304 (a 406 where the answer could not be served: an error, no tag).
        if (c.ifNoneMatch === 'current') expect(byLean.status).toBe(accept === 'application/xml' ? 406 : 304);
        if (byLean.status >= 400) expect(byLean.headers.find((line) => /^etag:/i.test(line))).toBeUndefined();
        expect(byLean.body.equals(byYoga.body)).toBe(true);
      }
    });
  }
});
