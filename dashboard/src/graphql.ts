import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

/** GraphQL documents typed against schema.graphql at build time (gql.tada). */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { DateTime: string; Long: number; JSON: unknown; ID: string };
  /** Fragments are for saying a resource's fields once, not for hiding them from the page that asks. */
  disableMasking: true;
}>();

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
