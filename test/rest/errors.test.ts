import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import express from 'express';
import {
  GraphQLInputObjectType,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
} from 'graphql';
import { createRestHandler } from '../../rest/adapter';
import { compileRoutes } from '../../rest/compile';
import { route } from '../../rest/route';
import { createSecretBox } from '../../src/auth/secret-box';
import { loadConfig } from '../../src/config';
import type { RequestServices } from '../../src/context';
import { createPipeline } from '../../src/graphql/pipeline';
import { requestState } from '../../src/http/request-state';
import { listen } from '../../src/http/server';
import { createLogger } from '../../src/logger';
import { noReadCache } from '../../src/read-cache/read-cache';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The error handling of the front doors (docs/design.md "Envelopes"): every failure in the error envelope,
 * with the request id of the X-Request-Id header.
 *
 * 400/413/415 come from reading a JSON body. No route of the real table takes a body yet and the
 * schema has no input type to give one, so the body errors are pinned twice over the one body
 * reader (rest/body.ts): on the real POST /graphql, and on the real REST adapter serving a one-route
 * table over a tiny test schema (POST /echo with `body: 'input'`). The latter also shows where a
 * body goes once such routes exist.
 */

const LIMIT = 1024;
const logLines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let server: TestServer;
let key: string;

beforeAll(async () => {
  // No verified-key cache: the tests break the database under the running server on purpose.
  server = await startTestServer(
    { BODY_LIMIT_BYTES: String(LIMIT), AUTH_CACHE_TTL_MS: '0' },
    { logger: createLogger('error', sink) },
  );
  const store = await makeStore(server.prisma);
  key = (await makeKey(server.prisma, store.id)).secret;
});

afterAll(() => server.close());

async function expectRestError(res: Response, status: number, code: string) {
  expect({ status: res.status, body: await res.json() }).toEqual({
    status,
    body: {
      success: false,
      status,
      code,
      message: expect.stringMatching(/\S/),
      requestId: res.headers.get('x-request-id'),
    },
  });
}

async function expectGraphQLRequestError(res: Response, status: number, code: string) {
  expect({ status: res.status, body: await res.json() }).toEqual({
    status,
    body: {
      errors: [
        {
          message: expect.stringMatching(/\S/),
          extensions: { code, status, requestId: res.headers.get('x-request-id') },
        },
      ],
    },
  });
}

const postGraphQL = (body: BodyInit, contentType?: string) =>
  server.request('/graphql', {
    method: 'POST',
    key,
    headers: contentType ? { 'content-type': contentType } : {},
    body,
  });

const categoriesQuery = JSON.stringify({ query: '{ categories { items { id } } }' });

describe('routing under /api/v1', () => {
  it('answers an unknown path with 404 NOT_FOUND', async () => {
    await expectRestError(await server.request('/api/v1/nowhere', { key }), 404, 'NOT_FOUND');
    await expectRestError(await server.request('/api/v1/category/a/b', { key }), 404, 'NOT_FOUND');
    await expectRestError(await server.request('/api/v1/nowhere'), 404, 'NOT_FOUND');
  });

  it('answers a known path with another method with 405 METHOD_NOT_ALLOWED and an Allow header', async () => {
    const res = await server.request('/api/v1/category', { method: 'DELETE', key });
    expect(res.headers.get('allow')).toBe('GET, POST');
    await expectRestError(res, 405, 'METHOD_NOT_ALLOWED');

    const item = await server.request('/api/v1/category/cat_1', { method: 'POST', key });
    expect(item.headers.get('allow')).toBe('GET, PATCH, DELETE');
    await expectRestError(item, 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('path parameters', () => {
  it.each(['%E0%A4%A', '%'])(
    'answers the malformed percent-escape %s with 400 VALIDATION_ERROR in the envelope, not an HTML 500',
    async (raw) => {
      const res = await server.request(`/api/v1/category/${raw}`, { key });
      expect({ status: res.status, body: await res.json() }).toEqual({
        status: 400,
        body: {
          success: false,
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'id: is not valid percent-encoding',
          requestId: res.headers.get('x-request-id'),
          details: [{ path: 'id', message: 'is not valid percent-encoding' }],
        },
      });
    },
  );
});

describe('request bodies on POST /graphql', () => {
  it('rejects malformed JSON with 400 INVALID_JSON', async () => {
    await expectGraphQLRequestError(await postGraphQL('{"query":', 'application/json'), 400, 'INVALID_JSON');
    await expectGraphQLRequestError(
      await postGraphQL('query { x }', 'application/json'),
      400,
      'INVALID_JSON',
    );
  });

  it('rejects a body larger than BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE', async () => {
    const body = JSON.stringify({
      query: '{ categories { items { id } } }',
      variables: { pad: 'x'.repeat(LIMIT) },
    });
    await expectGraphQLRequestError(await postGraphQL(body, 'application/json'), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('rejects a body that is not application/json with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ]) {
      await expectGraphQLRequestError(
        await postGraphQL(categoriesQuery, type),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
    // fetch sends no content type for raw bytes
    const untyped = await postGraphQL(new TextEncoder().encode(categoriesQuery));
    await expectGraphQLRequestError(untyped, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  // /graphql reads the body first: it must see whether the operation is the public `login`.
  it('reads the body before authenticating: a keyless oversized body is 413', async () => {
    const res = await server.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(LIMIT * 4),
    });
    await expectGraphQLRequestError(res, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('request bodies on a REST route that takes one (test-only route table)', () => {
  const EchoInput = new GraphQLInputObjectType({
    name: 'EchoInput',
    fields: { name: { type: new GraphQLNonNull(GraphQLString) } },
  });
  const Echo = new GraphQLObjectType({ name: 'Echo', fields: { name: { type: GraphQLString } } });
  const echoSchema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ping: { type: GraphQLString } } }),
    mutation: new GraphQLObjectType({
      name: 'Mutation',
      fields: {
        echo: {
          type: new GraphQLNonNull(Echo),
          args: { input: { type: new GraphQLNonNull(EchoInput) } },
          resolve: (_root, args: { input: { name: string } }) => args.input,
        },
      },
    }),
  });
  const routes = [
    route({
      method: 'POST',
      path: '/echo',
      tag: 'Test',
      summary: 'Echoes its body',
      auth: 'none',
      operation: 'mutation Echo($input: EchoInput!) { echo(input: $input) { name } }',
      body: 'input',
      result: { kind: 'item', field: 'echo' },
    }),
  ];

  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const app = express();
    app.use(requestState(createLogger('silent')));
    app.use(
      '/api/v1',
      createRestHandler({
        pipeline: createPipeline({
          schema: echoSchema,
          // auth: 'none' routes never authenticate, and the echo schema reads nothing from the context
          services: {} as RequestServices,
          authenticate: () => Promise.reject(new Error('not used')),
          readCache: noReadCache,
          limits: loadConfig({}).queryLimits,
          logger: createLogger('silent'),
          graphiql: false,
          secretBox: createSecretBox(loadConfig({}).webhook.secretKey),
        }),
        routes: compileRoutes(echoSchema, routes),
        bodyLimitBytes: LIMIT,
        // A public route is only asked about its origin, which these requests do not name.
        authenticate: async (_req, _res, options) => {
          if (!options?.isPublic) throw new Error('not used');
        },
      }),
    );
    const listener = await listen(app, 0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    close = () => new Promise<void>((resolve) => listener.close(() => resolve()));
  });

  afterAll(() => close());

  const echo = (body: BodyInit, contentType?: string) =>
    fetch(`${baseUrl}/api/v1/echo`, {
      method: 'POST',
      headers: contentType ? { 'content-type': contentType } : {},
      body,
    });

  it('passes a JSON object body to the operation’s body variable, up to exactly the limit', async () => {
    const name = 'x'.repeat(LIMIT - '{"name":""}'.length);
    const res = await echo(JSON.stringify({ name }), 'application/json; charset=utf-8');
    expect({ status: res.status, body: await res.json() }).toEqual({
      status: 200,
      body: { success: true, data: { name } },
    });
    const vendor = await echo('{"name":"v"}', 'application/vnd.api+json');
    expect(await vendor.json()).toEqual({ success: true, data: { name: 'v' } });
  });

  it('rejects malformed JSON with 400 INVALID_JSON', async () => {
    await expectRestError(await echo('{"name":', 'application/json'), 400, 'INVALID_JSON');
    await expectRestError(await echo("{'name': 'x'}", 'application/json'), 400, 'INVALID_JSON');
  });

  it('rejects JSON that is not an object with 400 VALIDATION_ERROR at path body', async () => {
    const res = await echo('["x"]', 'application/json');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      success: false,
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'body: must be a JSON object',
      requestId: res.headers.get('x-request-id'),
      details: [{ path: 'body', message: 'must be a JSON object' }],
    });
  });

  it('rejects a body one byte over BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE', async () => {
    const name = 'x'.repeat(LIMIT + 1 - '{"name":""}'.length);
    await expectRestError(await echo(JSON.stringify({ name }), 'application/json'), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('counts a body sent without Content-Length (chunked) against the limit too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > LIMIT) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${baseUrl}/api/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectRestError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('reads an empty chunked body as {} (so the operation names what is missing)', async () => {
    const res = await fetch(`${baseUrl}/api/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({ start: (controller) => controller.close() }),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('VALIDATION_ERROR');
  });

  it('reads a gzip-encoded body, and one that starts with a byte order mark', async () => {
    const gzipped = await fetch(`${baseUrl}/api/v1/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync('{"name":"zipped"}'),
    });
    expect(await gzipped.json()).toEqual({ success: true, data: { name: 'zipped' } });
    const marked = await echo('\uFEFF{"name":"marked"}', 'application/json');
    const onlyMark = await echo('\uFEFF', 'application/json');
    expect((await onlyMark.json()).code).toBe('VALIDATION_ERROR');
    expect(await marked.json()).toEqual({ success: true, data: { name: 'marked' } });
  });

  it('rejects a non-JSON content type, or none, with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    await expectRestError(await echo('{"name":"x"}', 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectRestError(
      await echo('name=x', 'application/x-www-form-urlencoded'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectRestError(
      await echo('{"name":"x"}', 'application/json; charset=latin1'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectRestError(
      await echo(new TextEncoder().encode('{"name":"x"}')),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
});

describe('X-Request-Id', () => {
  it('equals body.requestId on REST and GraphQL errors, and is a generated req_ id by default', async () => {
    const rest = await server.request('/api/v1/nowhere');
    const graphql = await server.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: categoriesQuery,
    });
    const restId = rest.headers.get('x-request-id');
    const graphqlId = graphql.headers.get('x-request-id');
    expect(restId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(graphqlId).toMatch(/^req_[0-9a-f]{32}$/);
    expect(restId).not.toBe(graphqlId);
    expect((await rest.json()).requestId).toBe(restId);
    expect((await graphql.json()).errors[0].extensions.requestId).toBe(graphqlId);
  });

  it('is set on successful responses too', async () => {
    const res = await server.request('/api/v1/category', { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it('echoes a sane incoming X-Request-Id, in the header and in the body', async () => {
    const id = 'client-trace.42:abc_DEF';
    const res = await server.request('/api/v1/nowhere', { headers: { 'x-request-id': id } });
    expect(res.headers.get('x-request-id')).toBe(id);
    expect((await res.json()).requestId).toBe(id);
  });

  it.each([
    ['one with a space', 'a b'],
    ['one with a semicolon', 'a;b'],
    ['one longer than 128 characters', 'x'.repeat(129)],
  ])('replaces %s with a generated id', async (_name, id) => {
    const res = await server.request('/api/v1/nowhere', { headers: { 'x-request-id': id } });
    const generated = res.headers.get('x-request-id');
    expect(generated).toMatch(/^req_[0-9a-f]{32}$/);
    expect((await res.json()).requestId).toBe(generated);
  });
});

describe('unexpected errors', () => {
  /** Runs `fn` while a table is renamed away, so Prisma fails with an SQL error naming it. */
  async function withoutTable(table: string, fn: () => Promise<void>) {
    await server.prisma.$executeRawUnsafe(`ALTER TABLE "${table}" RENAME TO "${table}_away"`);
    try {
      await fn();
    } finally {
      await server.prisma.$executeRawUnsafe(`ALTER TABLE "${table}_away" RENAME TO "${table}"`);
    }
  }

  const leaks = /Category|ApiKeySecret|_away|relation|prisma|SELECT|stack|\bat \/|\.ts\b|node_modules/i;
  const internalRest = (requestId: string | null) => ({
    success: false,
    status: 500,
    code: 'INTERNAL_ERROR',
    message: 'Internal server error',
    requestId,
  });

  function loggedWith(requestId: string | null) {
    return logLines.filter((line) => line.requestId === requestId && line.level === 50);
  }

  it('answers a failing resolver with 500 INTERNAL_ERROR on REST, without SQL, stack or path text', async () => {
    await withoutTable('Category', async () => {
      const res = await server.request('/api/v1/category', { key });
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(JSON.parse(text)).toEqual(internalRest(res.headers.get('x-request-id')));
      expect(text).not.toMatch(leaks);
      const logged = loggedWith(res.headers.get('x-request-id'));
      expect(logged).toHaveLength(1);
      // …while the log keeps what the client must not see.
      expect(JSON.stringify(logged)).toMatch(/Category/);
    });
  });

  it('answers a failing resolver with INTERNAL_ERROR in extensions.code on GraphQL (HTTP 200, execution error)', async () => {
    await withoutTable('Category', async () => {
      const res = await server.graphql('{ categories { items { id } } }', {}, key);
      const text = await res.text();
      expect({ status: res.status, body: JSON.parse(text) }).toEqual({
        status: 200,
        body: {
          data: null,
          errors: [
            {
              message: 'Internal server error',
              locations: [{ line: 1, column: 3 }],
              path: ['categories'],
              extensions: expect.objectContaining({ code: 'INTERNAL_ERROR' }),
            },
          ],
          // What the query asked for (a page of 25 categories) and what came back (nothing).
          extensions: { cost: expect.objectContaining({ requestedQueryCost: 26, actualQueryCost: 0 }) },
        },
      });
      expect(text).not.toMatch(leaks);
      expect(loggedWith(res.headers.get('x-request-id'))).toHaveLength(1);
    });
  });

  it('answers a failure inside authentication with 500 INTERNAL_ERROR on both doors', async () => {
    await withoutTable('ApiKeySecret', async () => {
      const rest = await server.request('/api/v1/category', { key });
      const restText = await rest.text();
      expect(rest.status).toBe(500);
      expect(JSON.parse(restText)).toEqual(internalRest(rest.headers.get('x-request-id')));
      expect(restText).not.toMatch(leaks);

      const graphql = await server.graphql('{ categories { items { id } } }', {}, key);
      const graphqlText = await graphql.text();
      expect(graphql.status).toBe(500);
      expect(JSON.parse(graphqlText)).toEqual({
        errors: [
          {
            message: 'Internal server error',
            extensions: {
              code: 'INTERNAL_ERROR',
              status: 500,
              requestId: graphql.headers.get('x-request-id'),
            },
          },
        ],
        extensions: { cost: expect.objectContaining({ requestedQueryCost: 26, actualQueryCost: 0 }) },
      });
      expect(graphqlText).not.toMatch(leaks);
      expect(loggedWith(rest.headers.get('x-request-id'))).toHaveLength(1);
      expect(loggedWith(graphql.headers.get('x-request-id'))).toHaveLength(1);
    });
  });

  it('logs each unexpected error once, always with its request id', () => {
    const errors = logLines.filter((line) => line.level === 50);
    expect(errors).toHaveLength(4);
    expect(errors.filter((line) => typeof line.requestId !== 'string')).toEqual([]);
  });

  it('serves normally again once the cause is gone', async () => {
    const res = await server.request('/api/v1/category', { key });
    expect(res.status).toBe(200);
  });
});
