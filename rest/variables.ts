import {
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isScalarType,
} from 'graphql';
import { type ErrorDetail, validationError } from '../src/errors';
import type { CompiledRoute } from './compile';

/**
 * The operation's variables from path parameters, the query string and the JSON body. Query strings
 * are coerced by the variable's GraphQL type; unknown query parameters are refused, so a typo
 * (`sort_by`) is an error and not a silently ignored option.
 */
export function variablesFor(
  compiled: CompiledRoute,
  params: Record<string, string>,
  query: Record<string, unknown>,
  body: unknown,
): Record<string, unknown> {
  const variables: Record<string, unknown> = { ...params };
  const details: ErrorDetail[] = [];
  for (const [name, raw] of Object.entries(query)) {
    if (!compiled.queryParams.includes(name)) {
      const known = compiled.queryParams.length ? ` (known: ${compiled.queryParams.join(', ')})` : '';
      details.push({ path: name, message: `unknown query parameter${known}` });
      continue;
    }
    const type = compiled.variableTypes.get(name)?.type as GraphQLInputType;
    const value = Array.isArray(raw) ? raw.map(String) : String(raw);
    const coerced = coerceQueryValue(type, value);
    if (coerced.ok) variables[name] = coerced.value;
    else details.push({ path: name, message: coerced.message });
  }
  if (compiled.route.body) {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      details.push({ path: 'body', message: 'must be a JSON object' });
    } else {
      variables[compiled.route.body] = body ?? {};
    }
  }
  if (details.length > 0) throw validationError(details);
  return variables;
}

type Coerced = { ok: true; value: unknown } | { ok: false; message: string };

function coerceQueryValue(type: GraphQLInputType, raw: string | string[]): Coerced {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const parts = (Array.isArray(raw) ? raw : [raw])
      .flatMap((part) => part.split(','))
      .filter((p) => p !== '');
    const values: unknown[] = [];
    for (const part of parts) {
      const item = coerceQueryValue(inner.ofType, part);
      if (!item.ok) return item;
      values.push(item.value);
    }
    return { ok: true, value: values };
  }
  if (Array.isArray(raw)) return { ok: false, message: 'may be given only once' };
  const named = getNamedType(inner);
  if (isEnumType(named)) {
    const allowed = named.getValues().map((v) => v.name);
    return allowed.includes(raw)
      ? { ok: true, value: raw }
      : { ok: false, message: `must be one of ${allowed.join(', ')}` };
  }
  if (isScalarType(named)) {
    switch (named.name) {
      case 'Int':
        return /^-?\d{1,10}$/.test(raw) && Number.isSafeInteger(Number(raw))
          ? { ok: true, value: Number(raw) }
          : { ok: false, message: 'must be an integer' };
      case 'Float':
        return raw.trim() !== '' && Number.isFinite(Number(raw))
          ? { ok: true, value: Number(raw) }
          : { ok: false, message: 'must be a number' };
      case 'Boolean':
        return raw === 'true' || raw === 'false'
          ? { ok: true, value: raw === 'true' }
          : { ok: false, message: 'must be true or false' };
      default:
        return { ok: true, value: raw };
    }
  }
  return { ok: false, message: 'cannot be given in the query string' };
}
