import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin, { type AuthFailure } from '@pothos/plugin-scope-auth';
import type PrismaTypes from '../prisma/generated/pothos-types';
import { getDatamodel } from '../prisma/generated/pothos-types';
import { holdsPair, refusal } from './access/principal';
import type { ScopePair } from './access/scopes';
import type { Context } from './context';

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
