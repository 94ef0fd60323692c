import type { GraphQLField, GraphQLObjectType } from 'graphql';
import { scopeActions, scopeResources } from '../../src/access/scopes';
import { schema } from '../../src/schema';

/**
 * docs/design.md "Scopes": each endpoint declares exactly one required (resource, action) pair. Every root field is
 * an endpoint (REST routes and MCP tools run them), so each must carry `authScopes: { scope }` with
 * one valid pair, set through requireScope().
 */

/** Root fields that are public on purpose, as "Type.field", each with the reason. */
const publicFields: Record<string, string> = {
  'Mutation.login': 'signing in needs no credential yet',
  'Mutation.logout': 'a dashboard session ends itself; a session carries a role, not scopes',
  'Query.session': 'a dashboard session reads itself; a session carries a role, not scopes',
  'Mutation.changePassword': 'a staff member changes their own password; a key has none (refused)',
  'Mutation.signOutOtherSessions': 'a staff member ends their own other sessions; a key has none (refused)',
  'Query.staffInvitation': 'an invitation link is the credential: public, throttled like sign-in',
  'Mutation.acceptStaffInvitation': 'an invitation link is the credential: public, throttled like sign-in',
  'Query.node':
    "its pair depends on the id's type: the resolver checks that type's own lookup pair (test/graphql/lookups.test.ts)",
};

const rootTypes = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(
  (type): type is GraphQLObjectType => type != null,
);

const rootFields = rootTypes.flatMap((type) =>
  Object.values(type.getFields()).map((field) => ({ name: `${type.name}.${field.name}`, field })),
);

const authScopesOf = (field: GraphQLField<unknown, unknown>) =>
  (field.extensions as { pothosOptions?: { authScopes?: unknown } } | undefined)?.pothosOptions?.authScopes;

describe('root field scopes', () => {
  it('finds the root fields (the schema has a Query type with fields)', () => {
    expect(rootFields.length).toBeGreaterThan(0);
  });

  it.each(rootFields.filter(({ name }) => !(name in publicFields)))(
    '$name declares exactly one (resource, action) pair',
    ({ field }) => {
      const authScopes = authScopesOf(field);
      expect(authScopes).toEqual({ scope: expect.any(String) });
      const [resource, action, ...rest] = (authScopes as { scope: string }).scope.split(':');
      expect(rest).toEqual([]);
      expect(scopeResources).toContain(resource);
      expect(scopeActions).toContain(action);
    },
  );

  it('lists only existing root fields as public', () => {
    const names = rootFields.map(({ name }) => name);
    for (const name of Object.keys(publicFields)) expect(names).toContain(name);
  });
});
