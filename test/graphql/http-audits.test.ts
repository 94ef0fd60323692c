import { serverAudits } from 'graphql-http';
import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

/**
 * The GraphQL-over-HTTP audit suite of graphql-http (`serverAudits`: the GraphQL-over-HTTP draft's conformance checks)
 * against the real /graphql, as a caller of the API sees it: with an API key, and with a staff
 * session, since /graphql answers no anonymous request (the audits' own requests carry neither; the
 * fetch they are given adds it). Both ways the door answers a JSON POST: itself (the lean POST, the
 * default) and through graphql-yoga (GRAPHQL_LEAN_POST=false), two API processes of one deployment.
 *
 * Every MUST and MAY audit passes. The SHOULD audits that fail are in KNOWN, each with its reason:
 * one that starts passing fails here (take it out of the table), as does any other that fails.
 */
const KNOWN: Record<string, string> = {
  '572B':
    'README "GraphQL" (a decision of ours): a request refused before execution — here a syntax error — answers with its code\'s status, 400 VALIDATION_ERROR, whatever the Accept header',
  FDE2: 'the same decision: a document that does not validate is 400 VALIDATION_ERROR for application/json too',
  '7B9B':
    'the same decision: a variable that does not coerce is refused by the input boundary, 400 VALIDATION_ERROR',
};

let lean: TestServer;
let yoga: TestServer;
const credentials: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  // The audits send about 50 requests per run, four runs with one key and one session.
  const env = { RATE_LIMIT_MAX: '100000' };
  lean = await startTestServer(env);
  yoga = await startTestServer({ ...env, GRAPHQL_LEAN_POST: 'false' }, { shareWith: lean });
  const store = await makeStoreWithKey(lean.prisma);
  credentials['an API key'] = { 'tt-api-key': store.key };
  const { token } = await signInAs(lean, store.id, 'OWNER');
  credentials['a staff session'] = { authorization: `Bearer ${token}` };
});
afterAll(async () => {
  await yoga.close();
  await lean.close();
});

/** The audits' fetch, with the caller's credential added to every request. */
const fetchAs =
  (credential: string) =>
  (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(credentials[credential] ?? {})) headers.set(name, value);
    return fetch(input, { ...init, headers });
  };

const doors: Record<string, () => TestServer> = {
  'the lean POST (default)': () => lean,
  'graphql-yoga (GRAPHQL_LEAN_POST=false)': () => yoga,
};

it('the known failures are SHOULD audits of the suite, named by id', () => {
  const names = new Map(serverAudits({ url: 'http://127.0.0.1/graphql' }).map((a) => [a.id, a.name]));
  for (const id of Object.keys(KNOWN)) expect(names.get(id)).toMatch(/^SHOULD /);
});

for (const [door, server] of Object.entries(doors))
  describe(door, () => {
    for (const credential of ['an API key', 'a staff session'])
      describe(`with ${credential}`, () => {
        const audits = serverAudits({
          url: () => `${server().baseUrl}/graphql`,
          fetchFn: fetchAs(credential),
        });
        for (const audit of audits) {
          const known = KNOWN[audit.id];
          it(`${audit.id} ${audit.name}${known ? ' — fails, known' : ''}`, async () => {
            const result = await audit.fn();
            const seen = { status: result.status, reason: 'reason' in result ? result.reason : undefined };
            if (known) expect(seen.status).toBe('warn');
            else expect(seen).toEqual({ status: 'ok', reason: undefined });
          });
        }
      });
  });
