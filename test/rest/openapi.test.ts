import { execFile } from 'node:child_process';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, seedDemoStore } from '../../prisma/seed/demo-store';
import { routeTable } from '../../rest/routes';
import { eventTypes } from '../../src/events/catalog';
import { makeKey, makeStore } from '../helpers/factories';
import { root } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';
import { serverEnv, startReceiver, startTestWorker } from '../helpers/webhooks';

/**
 * @seriousme/openapi-schema-validator is an ES module, which Jest's CommonJS runtime cannot load on
 * Node 20; it runs in a child Node process instead (offline: it ships the OpenAPI JSON schemas).
 */
const validatorScript = `
import { Validator } from '@seriousme/openapi-schema-validator';
let input = '';
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify(await new Validator().validate(JSON.parse(input))));
`;

function validateOpenApi(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '--eval', validatorScript],
      { cwd: root },
      (error, stdout, stderr) =>
        error ? reject(new Error(stderr || error.message)) : resolve(JSON.parse(stdout)),
    );
    child.stdin?.end(JSON.stringify(document));
  });
}

type Operation = {
  operationId?: string;
  parameters?: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[];
};
type WebhookOperation = Operation & {
  requestBody: { content: { 'application/json': { schema: unknown; example: unknown } } };
};
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, WebhookOperation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operationsOf = (document: OpenApiDocument) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => httpMethods.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );

let server: TestServer;
let document: OpenApiDocument;

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  const res = await server.request('/api/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  document = await res.json();
});

afterAll(() => server.close());

describe('GET /api/v1/openapi.json', () => {
  it('is served without an API key', async () => {
    const res = await server.request('/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
  });

  it('is a valid OpenAPI 3.1 document, $refs included', async () => {
    await expect(validateOpenApi(document)).resolves.toEqual({ valid: true });
  });

  it('is judged by a validator that does reject an invalid document', async () => {
    const broken = { ...document, paths: { '/x': { get: { responses: { 200: { $ref: '#/nowhere' } } } } } };
    await expect(validateOpenApi(broken)).resolves.toEqual(expect.objectContaining({ valid: false }));
  });

  it('describes every route of the table under its path and method, and nothing else', () => {
    const documented = operationsOf(document).map(({ path, method }) => `${method.toUpperCase()} ${path}`);
    const table = routeTable.map((route) => `${route.method} ${route.path}`);
    expect(documented.sort()).toEqual([...table].sort());
  });

  it('gives every operation a unique operationId', () => {
    const ids = operationsOf(document).map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares each {name} of a path as a required path parameter', () => {
    for (const { path, operation } of operationsOf(document)) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path');
      expect({ path, names: declared.map((p) => p.name) }).toEqual({ path, names: templated });
      expect(declared.every((p) => p.required === true)).toBe(true);
    }
  });

  it('lists the pagination, filter and sort query parameters of GET /category', () => {
    const parameters = document.paths['/category']?.get?.parameters ?? [];
    expect(parameters.filter((p) => p.in === 'query')).toEqual([
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
      },
      { name: 'q', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'parentId', in: 'query', required: false, schema: { type: 'string' } },
      { name: 'topLevelOnly', in: 'query', required: false, schema: { type: 'boolean' } },
      {
        name: 'sortBy',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['createdAt', 'name', 'position'] },
      },
      {
        name: 'sortDirection',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
      },
    ]);
  });

  it('documents non-null GraphQL fields as non-nullable and nullable ones as nullable', () => {
    type Schema = { type?: unknown; format?: string; items?: Schema; properties?: Record<string, Schema> };
    const list = document.paths['/category']?.get as unknown as {
      responses: { 200: { content: { 'application/json': { schema: Schema } } } };
    };
    const body = list.responses[200].content['application/json'].schema;
    expect(body.properties?.data?.type).toBe('array');
    expect(body.properties?.data?.items).toEqual({ $ref: '#/components/schemas/Category' });
    const item = (document.components.schemas.Category ?? {}) as Schema;
    expect(item.type).toBe('object');
    expect(item.properties?.id).toEqual(expect.objectContaining({ type: 'string' }));
    expect(item.properties?.position).toEqual({
      type: 'integer',
      description: 'The place among its siblings, from 0',
    });
    expect(item.properties?.createdAt).toEqual({ type: 'string', format: 'date-time' });
    expect(item.properties?.description).toEqual({ type: ['string', 'null'] });
    expect(item.properties?.parentId).toEqual({ type: ['string', 'null'] });
  });

  it('names a component schema for every resource, with an example, and refers to it from each route', () => {
    const names = Object.keys(document.components.schemas);
    for (const resource of [
      'Product',
      'Category',
      'Order',
      'OrderItem',
      'Customer',
      'Coupon',
      'Review',
      'ApiKey',
      'IssuedApiKey',
      'WebhookEndpoint',
      'WebhookDelivery',
      'WebhookAttempt',
      'StaffMember',
      'StoreSettings',
      'AuditEntry',
      'CreateProductInput',
      'PlaceOrderInput',
    ]) {
      expect(names).toContain(resource);
      expect(document.components.schemas[resource]?.examples).toHaveLength(1);
    }
    const getProduct = document.paths['/product/{id}']?.get as unknown as {
      responses: { 200: { content: { 'application/json': { schema: { properties: { data: unknown } } } } } };
    };
    expect(getProduct.responses[200].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/Product',
    });
    // A product carries a summary of its category, named after where it sits
    expect(document.components.schemas.Product?.properties).toEqual(
      expect.objectContaining({
        category: { anyOf: [{ $ref: '#/components/schemas/ProductCategory' }, { type: 'null' }] },
      }),
    );
  });

  it('gives examples that are valid instances of their own schemas (ids with their prefixes)', () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      if (!schema.examples) continue;
      const validate = validatorOf(document, { $ref: `#/components/schemas/${name}` });
      const [example] = schema.examples as unknown[];
      expect({ name, valid: validate(example), errors: validate.errors ?? null }).toEqual({
        name,
        valid: true,
        errors: null,
      });
    }
    const [order] = (document.components.schemas.Order?.examples ?? []) as Array<{ id: string }>;
    expect(order?.id).toMatch(/^ord_/);
  });
});

describe('the webhooks section of the OpenAPI document', () => {
  it('has one POST per event type, with the Standard Webhooks headers and the body schema GET /store/webhooks/event-types publishes', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    const res = await server.request('/api/v1/store/webhooks/event-types', { key: secret });
    const published = (await res.json()).data as Array<{ type: string; schema: unknown; example: unknown }>;
    expect(Object.keys(document.webhooks)).toEqual(eventTypes);
    for (const entry of published) {
      const post = document.webhooks[entry.type]?.post as WebhookOperation;
      expect(Object.keys(document.webhooks[entry.type] ?? {})).toEqual(['post']);
      expect((post.parameters ?? []).map((p) => [p.in, p.name, p.required])).toEqual([
        ['header', 'webhook-id', true],
        ['header', 'webhook-timestamp', true],
        ['header', 'webhook-signature', true],
      ]);
      const body = post.requestBody.content['application/json'];
      expect({ type: entry.type, schema: body.schema, example: body.example }).toEqual({
        type: entry.type,
        schema: entry.schema,
        example: entry.example,
      });
      const validate = validatorOf(document, body.schema);
      expect({ type: entry.type, valid: validate(body.example), errors: validate.errors ?? null }).toEqual({
        type: entry.type,
        valid: true,
        errors: null,
      });
    }
    const ids = Object.values(document.webhooks).map((item) => item.post?.operationId);
    const pathIds = operationsOf(document).map(({ operation }) => operation.operationId);
    expect(new Set([...ids, ...pathIds]).size).toBe(ids.length + pathIds.length);
  });

  it('is judged by the validator too: a webhook without responses is refused', async () => {
    const broken = { ...document, webhooks: { 'order.placed': { post: { requestBody: {} } } } };
    await expect(validateOpenApi(broken)).resolves.toEqual(expect.objectContaining({ valid: false }));
  });
});

describe('the documented response schemas', () => {
  const stops: Array<() => Promise<unknown>> = [];
  afterAll(() => Promise.all(stops.map((stop) => stop())));
  /** Where each item route's path parameter comes from: the first item of this list route. */
  const firstOf: Record<string, string> = {
    '/api-key/{keyId}': '/api-key',
    '/category/{id}': '/category',
    '/coupon/{id}': '/coupon',
    '/customer/{id}': '/customer',
    '/order/details/{orderId}': '/order/vendor',
    '/product/{id}': '/product',
    '/staff/{id}': '/staff',
    '/store/webhooks/endpoints/{id}': '/store/webhooks/endpoints',
    '/store/webhooks/endpoints/{id}/logs': '/store/webhooks/endpoints',
    '/store/webhooks/endpoints/{id}/health': '/store/webhooks/endpoints',
    '/store/webhooks/deliveries/{deliveryId}': '/store/webhooks/endpoints/{id}/logs',
    '/store/webhooks/endpoints/{id}/recoveries': '/store/webhooks/endpoints',
    '/store/webhooks/recoveries/{recoveryId}': '/store/webhooks/endpoints/{id}/recoveries',
  };

  const depth = (path: string): number => (firstOf[path] ? depth(firstOf[path]) + 1 : 0);

  it('match what the API answers for every GET route, on the demo store', async () => {
    const { storeId } = await seedDemoStore(server.prisma);
    const key = (await makeKey(server.prisma, storeId)).secret;
    const login = await server.send('POST', '/api/v1/auth/login', {
      email: DEMO_OWNER_EMAIL,
      password: DEMO_PASSWORD,
    });
    const bearer = {
      authorization: `Bearer ${((await login.json()) as { data: { token: string } }).data.token}`,
    };
    // The demo store has no webhooks: one endpoint on a local receiver, and a test event delivered to it
    const receiver = await startReceiver();
    const worker = await startTestWorker(server, { pollInterval: 100 });
    stops.push(
      () => receiver.close(),
      () => worker.stop(),
    );
    const endpoint = await server.send(
      'POST',
      '/api/v1/store/webhooks/endpoints',
      { url: receiver.url('/hook'), events: ['order.placed'] },
      key,
    );
    expect(endpoint.status).toBe(201);
    const endpointId = ((await endpoint.json()) as { data: { id: string } }).data.id;
    expect(
      (await server.send('POST', `/api/v1/store/webhooks/endpoints/${endpointId}/test`, {}, key)).status,
    ).toBe(202);
    await receiver.waitFor(1);
    const since = new Date(server.clock.now.getTime() - 3_600_000).toISOString();
    expect(
      (await server.send('POST', `/api/v1/store/webhooks/endpoints/${endpointId}/recover`, { since }, key))
        .status,
    ).toBe(202);

    const firstIds = new Map<string, string>();
    const getRoutes = routeTable
      .filter((route) => route.method === 'GET' && route.auth !== 'none')
      // lists before the routes that take an id from them
      .sort((a, b) => depth(a.path) - depth(b.path));
    for (const route of getRoutes) {
      const source = firstOf[route.path];
      const path = source ? route.path.replace(/\{\w+\}/, firstIds.get(source) ?? 'missing') : route.path;
      // the session route answers a signed-in staff member, every other one a key
      const res = await server.request(
        `/api/v1${path}`,
        path === '/auth/session' ? { headers: bearer } : { key },
      );
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      const body = (await res.json()) as { data: unknown };
      if (Array.isArray(body.data) && body.data.length > 0) {
        const first = body.data[0] as { id?: string; keyId?: string };
        firstIds.set(route.path, (first.id ?? first.keyId) as string);
      }
      const operation = document.paths[route.path]?.get as unknown as {
        responses: { 200: { content: { 'application/json': { schema: unknown } } } };
      };
      const validate = validatorOf(document, operation.responses[200].content['application/json'].schema);
      expect({ path, valid: validate(body), errors: validate.errors ?? null }).toEqual({
        path,
        valid: true,
        errors: null,
      });
    }
    expect(getRoutes.map((route) => route.path).filter((path) => path.includes('{'))).toEqual(
      expect.arrayContaining(Object.keys(firstOf)),
    );
  });
});

/** A JSON Schema 2020-12 (OpenAPI 3.1's dialect) validator of `schema`, its $refs into the document's components. */
function validatorOf(doc: OpenApiDocument, schema: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ ...(schema as object), components: doc.components });
}
