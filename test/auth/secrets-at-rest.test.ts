import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createStaffUser } from '../../src/modules/stores/provision';
import { makeKey, makeStore } from '../helpers/factories';
import { captureLogs, type LogLine } from '../helpers/redis-prefix';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 28, item 3: a secret shown once rests nowhere in clear. Every operation that shows one — a
 * key created or rotated, a webhook endpoint created or its secret rotated, a sign-in's session
 * token, a password given to a staff member — runs through REST and GraphQL, with and without an
 * idempotency key; after each, `pg_dump -a` of the whole database (idempotency records, audit log,
 * events, the job queue) and every log line the server wrote must not hold the secret.
 */

const run = promisify(execFile);
let server: TestServer;
let logs: LogLine[];
let storeId: string;
let key: string;
let counter = 0;

beforeAll(async () => {
  const captured = captureLogs('trace');
  logs = captured.lines;
  server = await startTestServer({}, { logger: captured.logger });
  storeId = (await makeStore(server.prisma)).id;
  key = (await makeKey(server.prisma, storeId)).secret;
});
afterAll(() => server.close());

const unique = (name: string) => `${name}-${counter++}`;

function rest(method: string, path: string, body: unknown, idempotencyKey?: string, credential = key) {
  return server.request(`/api/v1${path}`, {
    method,
    key: credential,
    headers: {
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function gql(query: string, variables: Record<string, unknown>, credential = key) {
  const json = await (await server.graphql(query, variables, credential)).json();
  if (json.errors) throw new Error(JSON.stringify(json.errors));
  return json.data;
}

/** Each form in which a secret could be written down: whole, and its random part alone. */
function formsOf(secret: string): string[] {
  const random = secret.replace(/^(tt_|tts_|whsec_)/, '');
  return [
    ...new Set([secret, random, Buffer.from(random, 'base64').toString('hex')].filter((f) => f.length >= 16)),
  ];
}

async function expectNowhereInClear(secrets: string[]) {
  const { stdout: dump } = await run('pg_dump', ['-a', '--no-owner', server.databaseUrl], {
    maxBuffer: 256 * 1024 * 1024,
  });
  const logText = logs.map((line) => JSON.stringify(line)).join('\n');
  expect(dump).toContain('COPY public."IdempotencyRecord"'); // the dump is the whole database
  for (const secret of secrets) {
    for (const form of formsOf(secret)) {
      expect({ secret, inDump: dump.includes(form), inLogs: logText.includes(form) }).toEqual({
        secret,
        inDump: false,
        inLogs: false,
      });
    }
  }
}

const endpointBody = () => ({ url: 'https://93.184.216.34/hooks', events: ['webhook.test'] });

describe('secrets shown once rest nowhere in clear', () => {
  it.each([
    ['without', undefined],
    ['with', 'idem'],
  ])('REST, %s an Idempotency-Key: keys, rotations, endpoints, their secrets', async (_with, idem) => {
    const tag = idem && unique(idem);
    const secrets: string[] = [];
    const created = await rest(
      'POST',
      '/api-key',
      {
        keyName: 'shown once',
        environment: 'production',
        scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
      },
      tag && `${tag}-create`,
    );
    expect(created.status).toBe(201);
    const made = (await created.json()).data;
    secrets.push(made.secret);
    const rotated = await rest('POST', `/api-key/${made.keyId}/rotate`, {}, tag && `${tag}-rotate`);
    secrets.push((await rotated.json()).data.secret);
    await server.prisma.webhookEndpoint.deleteMany({ where: { storeId } });
    const endpoint = await rest(
      'POST',
      '/store/webhooks/endpoints',
      endpointBody(),
      tag && `${tag}-endpoint`,
    );
    expect(endpoint.status).toBe(201);
    const endpointData = (await endpoint.json()).data;
    secrets.push(endpointData.secret);
    const rotatedSecret = await rest(
      'POST',
      `/store/webhooks/endpoints/${endpointData.id}/rotate-secret`,
      {},
      tag && `${tag}-whsec`,
    );
    secrets.push((await rotatedSecret.json()).data.secret);
    expect(secrets.every((secret) => /^(tt_|whsec_)/.test(secret))).toBe(true);
    await expectNowhereInClear(secrets);
  });

  it('GraphQL, with and without an idempotencyKey: keys and endpoints', async () => {
    const secrets: string[] = [];
    for (const idempotencyKey of [undefined, unique('gql')]) {
      const created = await gql(
        'mutation($k: String, $input: CreateApiKeyInput!) { createApiKey(idempotencyKey: $k, input: $input) { keyId secret } }',
        {
          k: idempotencyKey,
          input: {
            keyName: 'gql',
            environment: 'staging',
            scopes: [{ resource: 'ORDERS', actions: ['READ'] }],
          },
        },
      );
      secrets.push(created.createApiKey.secret);
      const rotated = await gql(
        'mutation($k: String, $id: ID!) { rotateApiKey(idempotencyKey: $k, keyId: $id) { secret } }',
        { k: idempotencyKey && `${idempotencyKey}-r`, id: created.createApiKey.keyId },
      );
      secrets.push(rotated.rotateApiKey.secret);
      await server.prisma.webhookEndpoint.deleteMany({ where: { storeId } });
      const endpoint = await gql(
        'mutation($k: String, $input: CreateWebhookEndpointInput!) { createWebhookEndpoint(idempotencyKey: $k, input: $input) { id secret } }',
        { k: idempotencyKey && `${idempotencyKey}-e`, input: endpointBody() },
      );
      secrets.push(endpoint.createWebhookEndpoint.secret);
    }
    await expectNowhereInClear(secrets);
  });

  it('sign-in tokens and staff passwords, on both doors', async () => {
    const password = `a long password ${unique('pw')}`;
    const email = `${unique('signer')}@secrets.test`;
    await createStaffUser(server.prisma, { storeId, email, name: 'Signer', role: 'ADMIN', password });
    const viaRest = await rest(
      'POST',
      '/auth/login',
      { email, password },
      unique('login'),
      undefined as never,
    );
    const restToken = (await viaRest.json()).data.token;
    const viaGraphql = await gql(
      'mutation($input: LoginInput!) { login(input: $input) { token } }',
      {
        input: { email, password },
      },
      undefined as never,
    );
    const invited = await rest(
      'POST',
      '/staff',
      {
        email: `${unique('inv')}@secrets.test`,
        name: 'Invited',
        role: 'STAFF',
        password: `${password} invited`,
      },
      unique('invite'),
    );
    expect(invited.status).toBe(201);
    const reset = await rest(
      'PATCH',
      `/staff/${(await invited.json()).data.id}`,
      { password: `${password} reset` },
      unique('reset'),
    );
    expect(reset.status).toBe(200);
    await expectNowhereInClear([
      restToken,
      viaGraphql.login.token,
      password,
      `${password} invited`,
      `${password} reset`,
    ]);
  });
});

describe('an idempotent repeat of an answer holding a secret', () => {
  it('gives the same caller the same secret, sealed in the record in between; another caller gets its own answer', async () => {
    const body = {
      keyName: 'retried',
      environment: 'production',
      scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
    };
    const idem = unique('retry');
    const first = await rest('POST', '/api-key', body, idem);
    const again = await rest('POST', '/api-key', body, idem);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const [one, two] = [(await first.json()).data, (await again.json()).data];
    expect(two).toEqual(one);
    expect(await server.prisma.apiKey.count({ where: { storeId, keyName: 'retried' } })).toBe(1);

    const record = await server.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: idem } });
    expect(Object.keys(record.responseBody as object)).toEqual(['sealed']);
    expect(JSON.stringify(record.responseBody)).not.toContain(one.secret);

    // A sealed answer is bound to its caller and key: copied under another key, it does not open.
    const other = (await makeKey(server.prisma, storeId)).secret;
    const theirs = await rest('POST', '/api-key', body, idem, other);
    expect(theirs.status).toBe(201);
    expect((await theirs.json()).data.secret).not.toBe(one.secret);
  });

  it('answers a sealed record the server cannot open with 409, never a wrong or empty secret', async () => {
    const body = {
      keyName: 'unopenable',
      environment: 'production',
      scopes: [{ resource: 'PRODUCTS', actions: ['READ'] }],
    };
    const idem = unique('unopenable');
    expect((await rest('POST', '/api-key', body, idem)).status).toBe(201);
    const record = await server.prisma.idempotencyRecord.findFirstOrThrow({ where: { key: idem } });
    // A ciphertext that does not open under this binding (tampered, or sealed under another server key).
    const sealed = (record.responseBody as { sealed: string }).sealed;
    await server.prisma.idempotencyRecord.update({
      where: { scope_key: { scope: record.scope, key: idem } },
      data: { responseBody: { sealed: sealed.replace(/\.[^.]+$/, '.AAAA') } },
    });
    const again = await rest('POST', '/api-key', body, idem);
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('CONFLICT');
  });
});
