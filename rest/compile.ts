import { type GraphQLInputType, type GraphQLSchema, typeFromAST } from 'graphql';
import { validationError } from '../src/errors';
import { compileOperation, type PreparedOperation } from '../src/graphql/operation';
import { versionedReadScopes } from '../src/read-cache/operation';
import type { RestRoute } from './route';

export interface CompiledRoute extends PreparedOperation {
  route: RestRoute;
  pattern: RegExp;
  pathParams: string[];
  /** Variables read from the query string: all but path parameters and the body variable. */
  queryParams: string[];
  variableTypes: Map<string, { type: GraphQLInputType; required: boolean }>;
  /**
   * A GET whose operation the store's data version vouches for (a version ETag, the read cache for
   * catalogue reads): its root fields' scope pairs.
   */
  readScopes: string[] | null;
}

/** Parses and validates each route's operation once, at start-up; a broken table fails loudly. */
export function compileRoutes(schema: GraphQLSchema, routes: readonly RestRoute[]): CompiledRoute[] {
  return routes.map((route) => compileRoute(schema, route));
}

function compileRoute(schema: GraphQLSchema, route: RestRoute): CompiledRoute {
  const where = `${route.method} ${route.path}`;
  const { document, operation } = compileOperation(schema, route.operation, (message) => {
    throw new Error(`REST route ${where}: ${message}`);
  });

  const variableTypes = new Map<string, { type: GraphQLInputType; required: boolean }>();
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`REST route ${where}: unknown type of $${definition.variable.name.value}`);
    variableTypes.set(definition.variable.name.value, {
      type,
      required: definition.type.kind === 'NonNullType',
    });
  }
  const pathParams = [...route.path.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1] as string);
  for (const name of [...pathParams, ...(route.body ? [route.body] : [])]) {
    if (!variableTypes.has(name)) throw new Error(`REST route ${where}: the operation declares no $${name}`);
  }
  const pattern = new RegExp(`^${route.path.replace(/\{[A-Za-z0-9_]+\}/g, '([^/]+)')}/?$`);
  const queryParams = [...variableTypes.keys()].filter(
    (name) => !pathParams.includes(name) && name !== route.body,
  );
  return {
    route,
    document,
    operation,
    pattern,
    pathParams,
    queryParams,
    variableTypes,
    readScopes: route.method === 'GET' ? versionedReadScopes(schema, document, operation.name.value) : null,
  };
}

export type RouteMatch =
  | { kind: 'found'; compiled: CompiledRoute; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export function matchRoute(routes: readonly CompiledRoute[], method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const compiled of routes) {
    const match = compiled.pattern.exec(path);
    if (!match) continue;
    if (compiled.route.method !== method && !(method === 'HEAD' && compiled.route.method === 'GET')) {
      allowed.push(compiled.route.method);
      continue;
    }
    const params: Record<string, string> = {};
    compiled.pathParams.forEach((name, i) => {
      params[name] = decodePathParam(name, match[i + 1] as string);
    });
    return { kind: 'found', compiled, params };
  }
  return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}

/** A malformed %-escape (`/category/%E0%A4`) is the client's mistake: 400, not an unexpected URIError. */
function decodePathParam(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw validationError([{ path: name, message: 'is not valid percent-encoding' }]);
  }
}
