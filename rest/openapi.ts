import {
  type FieldNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type SelectionSetNode,
} from 'graphql';
import { errorCodes } from '../src/errors';
import {
  describe,
  type JsonSchema,
  nonNull,
  nullable,
  scalarSchema,
  selectionSchema,
} from '../src/graphql/json-schema';
import { exampleOf } from '../src/graphql/json-schema-example';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../src/page-size';
import { type CompiledRoute, compileRoutes } from './compile';
import { webhooksSection } from './openapi-webhooks';
import type { RestRoute } from './route';

/**
 * The OpenAPI 3.1 document, generated from the route table and the GraphQL schema: parameters from
 * each operation's variables, response bodies from its selection set. There is no hand-kept copy.
 */
export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const compiledRoutes = compileRoutes(schema, routes);
  const named = new NamedSchemas(
    new Set(compiledRoutes.map((compiled) => getNamedType(routeResult(schema, compiled).type).name)),
  );
  for (const compiled of compiledRoutes) {
    paths[compiled.route.path] ??= {};
    const entry = paths[compiled.route.path] as Record<string, unknown>;
    entry[compiled.route.method.toLowerCase()] = operationObject(schema, compiled, named);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Commerce Service API',
      version,
      description:
        'REST door of the Commerce Service. Every route runs the same GraphQL operation as /graphql.',
    },
    servers: [{ url: '/api/v1' }],
    security: [{ apiKeyHeader: [] }, { bearer: [] }],
    paths,
    webhooks: webhooksSection(schema),
    components: {
      securitySchemes: {
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'tt-api-key' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (tt_…) or a dashboard session token (tts_…) as a bearer token',
        },
      },
      schemas: {
        ...named.schemas,
        Error: {
          type: 'object',
          required: ['success', 'status', 'code', 'message', 'requestId'],
          properties: {
            success: { const: false },
            status: { type: 'integer' },
            code: { type: 'string', enum: errorCodes },
            message: { type: 'string' },
            requestId: { type: 'string' },
            details: {
              type: 'array',
              items: {
                type: 'object',
                required: ['path', 'message'],
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
        Pagination: {
          type: 'object',
          required: ['results', 'totalResults', 'currentPage', 'page', 'limit', 'lastPage'],
          properties: {
            results: { type: 'array', maxItems: 0, items: {} },
            totalResults: { type: 'integer' },
            currentPage: { type: 'integer' },
            page: { type: 'integer' },
            limit: { type: 'integer' },
            lastPage: { type: 'integer' },
          },
        },
      },
      responses: Object.fromEntries(
        [
          [
            '400',
            'Invalid input (VALIDATION_ERROR, INVALID_JSON, JSON_TOO_DEEP), or an answer over the size cap (RESPONSE_TOO_LARGE)',
          ],
          ['401', 'Missing or invalid API key or session'],
          ['402', 'The store is suspended'],
          [
            '403',
            'Insufficient scope (a key) or role (a session: FORBIDDEN), IP not allowed, or not in the plan',
          ],
          ['404', 'Not found'],
          [
            '429',
            'Rate limit, usage quota, query cost budget, sign-in attempts or unknown credentials per address used up (Retry-After says when to come back)',
          ],
        ].map(([status, description]) => [
          `E${status}`,
          {
            description,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}

/** The bounds and defaults every list's page parameters share (docs/design.md "Pagination"). */
const pageParameterBounds: Record<string, JsonSchema> = {
  page: { minimum: 1, default: 1 },
  limit: { minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
  sortDirection: { default: 'desc' },
};

/**
 * The component schemas, one per GraphQL type, so generated clients get named types (Product,
 * CreateProductInput, …). Every route selects a resource through its one field list (rest/routes),
 * so a type has one shape; a route selecting a different shape of the same type gets the type's
 * name with its operation's appended, rather than a silent merge.
 */
class NamedSchemas {
  readonly schemas: Record<string, JsonSchema> = {};

  /** `resources`: the types routes return, which claim the plain name for their full shape. */
  constructor(readonly resources: ReadonlySet<string>) {}

  /** Each name's shape as first registered, to tell the same shape from another. */
  private readonly shapes = new Map<string, string>();

  /**
   * `otherName`: the name for a shape other than the type's first, e.g. ProductCategory for the
   * `category { id name }` a product carries, GetWebhookDelivery's own WebhookDelivery.
   */
  ref(typeName: string, schema: JsonSchema, otherName: string): JsonSchema {
    const shape = JSON.stringify(schema);
    let name = typeName;
    if (this.shapes.has(name) && this.shapes.get(name) !== shape) name = otherName;
    if (!this.shapes.has(name)) {
      this.shapes.set(name, shape);
      this.schemas[name] = { ...schema, examples: [exampleOf(schema, typeName, (ref) => this.example(ref))] };
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private example(ref: string): unknown {
    return (this.schemas[ref.slice('#/components/schemas/'.length)]?.examples as unknown[] | undefined)?.[0];
  }
}

function operationObject(schema: GraphQLSchema, compiled: CompiledRoute, named: NamedSchemas) {
  const shapes = new Shapes(named, compiled.operation.name.value);
  const { route } = compiled;
  const parameters = [
    ...compiled.pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...compiled.queryParams.map((name) => {
      const variable = compiled.variableTypes.get(name)!;
      // A query string cannot carry null: an optional parameter is simply left out.
      const schema = { ...nonNull(shapes.input(variable.type)), ...pageParameterBounds[name] };
      return { name, in: 'query', required: variable.required, schema };
    }),
    ...((route.method === 'POST' || route.method === 'PATCH') && route.auth !== 'none'
      ? [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description:
              'Repeats with the same key and body get the first response (kept 24 h); another body is 422',
            schema: { type: 'string', minLength: 1, maxLength: 255 },
          },
        ]
      : []),
  ];
  const status = String(route.status ?? (route.result.kind === 'empty' ? 204 : 200));
  const errorStatuses = ['400', ...(route.auth === 'none' ? [] : ['401', '402', '403', '429']), '404'];
  return {
    operationId: compiled.operation.name.value,
    summary: route.summary,
    tags: [route.tag],
    ...(route.auth === 'none' ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: compiled.variableTypes.get(route.body)!.required,
            content: {
              'application/json': { schema: shapes.input(compiled.variableTypes.get(route.body)!.type) },
            },
          },
        }
      : {}),
    responses: {
      [status]:
        route.result.kind === 'empty'
          ? { description: 'No content' }
          : {
              description: 'Success',
              content: { 'application/json': { schema: successSchema(schema, compiled, shapes) } },
            },
      ...Object.fromEntries(errorStatuses.map((s) => [s, { $ref: `#/components/responses/E${s}` }])),
    },
  };
}

/** The type and selection of what a route answers: a list's item, or the one object. */
function routeResult(schema: GraphQLSchema, compiled: CompiledRoute) {
  const { result } = compiled.route;
  const root = compiled.operation.operation === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  const field = compiled.operation.selectionSet.selections.find(
    (s): s is FieldNode => s.kind === 'Field' && (s.alias ?? s.name).value === result.field,
  )!;
  const fieldType = root.getFields()[field.name.value]!.type;
  if (result.kind !== 'list') return { type: fieldType, selectionSet: field.selectionSet };
  const items = field.selectionSet!.selections.find(
    (s): s is FieldNode => s.kind === 'Field' && s.name.value === 'items',
  )!;
  const pageType = getNamedType(fieldType);
  return {
    type: isObjectType(pageType) ? pageType.getFields().items!.type : fieldType,
    selectionSet: items.selectionSet,
  };
}

function successSchema(schema: GraphQLSchema, compiled: CompiledRoute, shapes: Shapes): JsonSchema {
  const { type, selectionSet } = routeResult(schema, compiled);
  if (compiled.route.result.kind === 'list') {
    return {
      type: 'object',
      required: ['success', 'data', 'pagination'],
      properties: {
        success: { const: true },
        data: shapes.output(type, selectionSet),
        pagination: { $ref: '#/components/schemas/Pagination' },
      },
    };
  }
  return {
    type: 'object',
    required: ['success', 'data'],
    // never null: REST answers a missing item 404 (GraphQL's lookups are nullable)
    properties: { success: { const: true }, data: nonNull(shapes.output(type, selectionSet)) },
  };
}

/** The JSON schemas of one operation's variables and selections; object types by reference. */
class Shapes {
  constructor(
    private readonly named: NamedSchemas,
    private readonly operationName: string,
  ) {}

  output(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined): JsonSchema {
    return selectionSchema(type, selectionSet, (objectType, object, parent) => {
      // A resource nested in another is named after where it sits (ProductCategory): its
      // selection is usually a summary; a type only ever nested (OrderItem) keeps its name.
      const nestedResource = parent !== undefined && this.named.resources.has(objectType.name);
      return this.named.ref(
        nestedResource ? parent : objectType.name,
        object,
        `${objectType.name}Of${this.operationName}`,
      );
    });
  }

  input(type: GraphQLInputType): JsonSchema {
    if (isNonNullType(type)) return nonNull(this.input(type.ofType));
    let schema: JsonSchema;
    if (isListType(type)) schema = { type: 'array', items: this.input(type.ofType) };
    else if (isScalarType(type)) schema = scalarSchema(type.name);
    else if (isEnumType(type)) schema = { type: 'string', enum: type.getValues().map((v) => v.name) };
    else if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      const object = {
        type: 'object',
        additionalProperties: false,
        required: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
        properties: Object.fromEntries(
          fields.map((f) => [f.name, describe(this.input(f.type), f.description)]),
        ),
      };
      schema = this.named.ref(
        type.name,
        describe(object, type.description),
        `${type.name}Of${this.operationName}`,
      );
    } else schema = {};
    return nullable(schema);
  }
}
