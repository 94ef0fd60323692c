import { parse } from 'graphql';
import type { RestRoute } from '../../rest/route';
import { routeTable } from '../../rest/routes';
import { declaredScope } from '../../src/field-extensions';
import { expandResourceFragments } from '../../src/graphql/resource-fragment';
import { schema } from '../../src/schema';

/** A REST route together with the root field its operation runs and the scope that field declares. */
export interface RouteUnderTest {
  route: RestRoute;
  /** The route's operation as the server runs it (resource fragments spelled out), for /graphql. */
  query: string;
  name: string;
  rootField: string;
  /** `RESOURCE:ACTION`, or null for the public session fields. */
  scope: string | null;
  pathParams: string[];
}

function rootFieldOf(route: RestRoute): { rootField: string; isMutation: boolean } {
  const document = parse(expandResourceFragments(schema, route.operation));
  const operation = document.definitions[0];
  if (operation?.kind !== 'OperationDefinition') throw new Error(`${route.path}: no operation`);
  const selection = operation.selectionSet.selections[0];
  if (selection?.kind !== 'Field') throw new Error(`${route.path}: no root field`);
  return { rootField: selection.name.value, isMutation: operation.operation === 'mutation' };
}

export function scopeOf(rootField: string, isMutation = false) {
  const type = isMutation ? schema.getMutationType() : schema.getQueryType();
  const field = type?.getFields()[rootField];
  if (!field) throw new Error(`no root field ${rootField}`);
  return declaredScope(field);
}

export const routesUnderTest: RouteUnderTest[] = routeTable.map((route) => {
  const { rootField, isMutation } = rootFieldOf(route);
  return {
    route,
    query: expandResourceFragments(schema, route.operation),
    name: `${route.method} ${route.path}`,
    rootField,
    scope: scopeOf(rootField, isMutation),
    pathParams: [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
  };
});

/** Fills `{name}` path parameters. */
export const pathOf = (route: RestRoute, params: Record<string, string>) =>
  `/api/v1${route.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(value);
  })}`;
