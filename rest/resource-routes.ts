import { getNamedType, isEnumType, isObjectType } from 'graphql';
import { resourceFragmentOf } from '../src/field-extensions';
import {
  capitalize,
  itemQuery,
  pageQuery,
  passThrough,
  type RootField,
  rootField,
} from '../src/graphql/root-field-operation';
import { schema } from '../src/schema';
import { type RestRoute, route } from './route';

/**
 * The REST routes of a store resource, written from the schema rather than by hand (README "Adding a
 * field"): a list's query parameters are its field's arguments, an item's fields its type's fragment,
 * a write's summary the mutation's own description. A filter or field added in the domain reaches
 * REST, and its OpenAPI document, with no edit here.
 */

/** "List coupons (filter with q, isActive; sortBy createdAt, code or redemptionCount)". */
function listSummary(field: RootField, noun: string): string {
  const filters = field.args.filter(
    (arg) => !['page', 'limit', 'sortBy', 'sortDirection'].includes(arg.name),
  );
  const sortBy = getNamedType(field.args.find((arg) => arg.name === 'sortBy')!.type);
  const sorts = isEnumType(sortBy) ? sortBy.getValues().map((value) => value.name) : [];
  const sortText = `${sorts.slice(0, -1).join(', ')} or ${sorts.at(-1)}`;
  const filterText = filters.length > 0 ? `filter with ${filters.map((arg) => arg.name).join(', ')}; ` : '';
  return `List ${noun} (${filterText}sortBy ${sortText})`;
}

/**
 * GET <path>: a page of the list field's items; every argument of the field is a query parameter.
 * `noun` (default: the field's name) and `name` (default: List<Field>) where the field's name reads badly.
 */
export function listRoute(spec: {
  tag: string;
  path: string;
  field: string;
  noun?: string;
  name?: string;
}): RestRoute {
  const field = rootField(schema, 'query', spec.field);
  return route({
    method: 'GET',
    path: spec.path,
    tag: spec.tag,
    summary: listSummary(field, spec.noun ?? spec.field),
    operation: pageQuery(spec.name ?? `List${capitalize(spec.field)}`, field),
    result: { kind: 'list', field: spec.field },
  });
}

/** GET <path>/{id}: one item by the lookup field's `id`. */
export function itemRoute(spec: { tag: string; path: string; field: string; noun: string }): RestRoute {
  const field = rootField(schema, 'query', spec.field);
  const param = /\{(\w+)\}/.exec(spec.path)![1]!;
  return route({
    method: 'GET',
    path: spec.path,
    tag: spec.tag,
    summary: `Get ${spec.noun}`,
    operation: itemQuery(`Get${capitalize(spec.field)}`, field, { id: param }),
    result: { kind: 'item', field: spec.field },
  });
}

/**
 * A write: the mutation with its arguments (the path parameter as `id`, the body as `input`), the
 * resource it answers with, and its own description as the summary.
 */
export function writeRoute(spec: {
  tag: string;
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  field: string;
  status?: number;
}): RestRoute {
  const field = rootField(schema, 'mutation', spec.field);
  const param = /\{(\w+)\}/.exec(spec.path)?.[1];
  const { variables, args } = passThrough(field, param ? { id: param } : {});
  const answer = getNamedType(field.type);
  // A write answers its resource (with its fragment) or a receipt of deletion, `{ id deleted }` (204).
  const deleted = !resourceFragmentOf(answer);
  if (deleted && !(isObjectType(answer) && answer.getFields().deleted))
    throw new Error(`REST: ${spec.field} answers neither a resource nor a deletion`);
  if (!field.description)
    throw new Error(`REST: describe the mutation ${spec.field}; it is the route's summary`);
  return route({
    method: spec.method,
    path: spec.path,
    tag: spec.tag,
    summary: field.description,
    operation: `mutation ${capitalize(spec.field)}${variables} {
      ${spec.field}${args} { ${deleted ? 'id deleted' : `...${answer.name}Fields`} }
    }`,
    ...(field.args.some((arg) => arg.name === 'input') ? { body: 'input' } : {}),
    result: { kind: deleted ? 'empty' : 'item', field: spec.field },
    ...(spec.status ? { status: spec.status } : {}),
  });
}

/** The one query field answering `type` (a page of it, or one of it by `id`). */
function queryFieldAnswering(type: string, byId: boolean): string {
  const fields = Object.values(schema.getQueryType()?.getFields() ?? {}).filter((field) =>
    byId
      ? getNamedType(field.type).name === type && field.args.some((arg) => arg.name === 'id')
      : getNamedType(field.type).name === `${type}Page`,
  );
  if (fields.length !== 1)
    throw new Error(`REST: ${fields.length} query fields answer ${byId ? 'one' : 'a page of'} ${type}`);
  return fields[0]!.name;
}

/**
 * The usual five of a resource at `path` (docs/design.md "The REST surface"): list, get, create, update, delete — those its
 * schema has (the query fields answering a page of `type` and one by id; `create<Type>`,
 * `update<Type>`, `delete<Type>`).
 */
export function resourceRoutes(spec: {
  tag: string;
  path: string;
  type: string;
  noun?: string;
}): RestRoute[] {
  const { tag, path, type } = spec;
  const mutations = schema.getMutationType()?.getFields() ?? {};
  const write = (method: 'POST' | 'PATCH' | 'DELETE', verb: string, at: string, status?: number) =>
    mutations[`${verb}${type}`]
      ? [writeRoute({ tag, method, path: at, field: `${verb}${type}`, status })]
      : [];
  return [
    listRoute({ tag, path, field: queryFieldAnswering(type, false) }),
    itemRoute({
      tag,
      path: `${path}/{id}`,
      field: queryFieldAnswering(type, true),
      noun: spec.noun ?? `a ${type.toLowerCase()}`,
    }),
    ...write('POST', 'create', path, 201),
    ...write('PATCH', 'update', `${path}/{id}`),
    ...write('DELETE', 'delete', `${path}/{id}`),
  ];
}
