import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import type { GraphQLField, GraphQLNamedType } from 'graphql';
import type PrismaTypes from '../prisma/generated/pothos-types';
import { getDatamodel } from '../prisma/generated/pothos-types';
import { holdsPair, refusal } from './auth/principal';
import type { ScopeAction, ScopePair, ScopeResource } from './auth/scopes';
import type { Context } from './context';
import { AppError } from './errors';

export interface Types {
  Context: Context;
  PrismaTypes: PrismaTypes;
  AuthScopes: { scope: ScopePair };
  Scalars: {
    // graphql-js hands every ID argument to resolvers as a string (GraphQLID parses numbers to text).
    ID: { Input: string; Output: string | number };
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    Long: { Input: number; Output: number | bigint };
  };
  DefaultFieldNullability: false;
}

export const builder = new SchemaBuilder<Types>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (ctx) => ({
      scope: (pair: ScopePair) => holdsPair(ctx.principal, pair),
    }),
    unauthorizedError: (_parent, ctx, _info, result) => refusal(ctx.principal, requiredPair(result.failure)),
  },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
  },
});

/** The (resource, action) pair a failed check asked for, to name it in the error. */
function requiredPair(failure: AuthFailure): string | undefined {
  if ('parameter' in failure && typeof failure.parameter === 'string') return failure.parameter;
  if ('failures' in failure) return failure.failures.map(requiredPair).find(Boolean);
  return undefined;
}

/** Each root field declares exactly one (resource, action) pair through this. */
export const requireScope = (resource: ScopeResource, action: ScopeAction) => ({
  scope: `${resource}:${action}` as ScopePair,
});

/** The pair a built schema field declared through requireScope, or null for a public field. */
export function declaredScope(field: GraphQLField<unknown, unknown> | undefined): string | null {
  const options = (field?.extensions as { pothosOptions?: { authScopes?: { scope?: unknown } } } | undefined)
    ?.pothosOptions;
  const scope = options?.authScopes?.scope;
  return typeof scope === 'string' ? scope : null;
}

/**
 * A root query field's `extensions` when its answer depends only on its arguments and the store's
 * data, which only the store's mutations change (no clock, no background job): README "Read cache".
 */
export const cacheableRead = { cacheableRead: true } as const;

export function isCacheableRead(field: GraphQLField<unknown, unknown> | undefined): boolean {
  return (field?.extensions as { cacheableRead?: unknown } | undefined)?.cacheableRead === true;
}

/**
 * A list field's `extensions` when no argument sizes it but its length is bounded (an order's lines):
 * the query cost counts it at this length (src/graphql/cost.ts, README "Query limits and cost").
 */
export const listSize = (n: number) => ({ listSize: n });

builder.queryType({});
builder.mutationType({});

builder.scalarType('DateTime', {
  description: 'An ISO 8601 date-time in UTC',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(date.getTime()))
      throw new AppError('VALIDATION_ERROR', 'Expected an ISO 8601 date-time');
    return date;
  },
});

builder.scalarType('JSON', {
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType('Long', {
  description: 'A whole number up to 2^53 - 1 (counts that can outgrow a 32-bit Int)',
  serialize: (value) => Number(value),
  parseValue: (value) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      throw new AppError('VALIDATION_ERROR', 'Expected a whole number');
    }
    return value;
  },
});

/** What a resource's fragment selects beyond its own scalar and enum fields, and what it leaves out. */
export interface ResourceFragment {
  /** Relations to select: `true` for every scalar of the related type, or a selection of them. */
  relations?: Record<string, true | string>;
  /** Fields GraphQL clients may ask for that REST and MCP leave out (large, or a query per row). */
  omit?: string[];
}

/**
 * An object type's `extensions` that make it a resource with a fragment, `...<Type>Fields`, for the
 * REST routes and MCP tools (src/graphql/resource-fragment.ts): every field that takes no argument
 * and holds a scalar or enum, plus the relations named here. Declared once, on the type: a field
 * added to the type appears in REST, MCP and the OpenAPI document with no other edit.
 */
export const resourceFragment = (fragment: ResourceFragment = {}) => ({ resourceFragment: fragment });

export function resourceFragmentOf(type: GraphQLNamedType | undefined): ResourceFragment | null {
  return (type?.extensions as { resourceFragment?: ResourceFragment } | undefined)?.resourceFragment ?? null;
}
