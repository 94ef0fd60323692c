import { execFile } from 'node:child_process';
import { routeTable } from '../../rest/routes';
import { root } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';

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
type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>> };

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
  server = await startTestServer();
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
    const item = body.properties?.data?.items ?? {};
    expect(item.type).toBe('object');
    expect(item.properties?.id).toEqual({ type: 'string' });
    expect(item.properties?.position).toEqual({ type: 'integer' });
    expect(item.properties?.createdAt).toEqual({ type: 'string', format: 'date-time' });
    expect(item.properties?.description).toEqual({ type: ['string', 'null'] });
    expect(item.properties?.parentId).toEqual({ type: ['string', 'null'] });
  });
});
