import type { GraphQLField, GraphQLNamedType } from 'graphql';
import type { ScopeAction, ScopePair, ScopeResource } from './access/scopes';

/*
 * What the schema's fields and types say about themselves beyond GraphQL, written where they are
 * declared and read by the pipeline, the read cache, the doors and the tests: each extension's maker
 * and its reader side by side. A leaf: it imports no part of the schema or the builder.
 */

/**
 * A field's `extensions` when it holds a secret shown once (a new key's secret, a signing secret, a
 * session token): whatever remembers an answer that selects it — idempotent replays — seals it with
 * the server's key rather than store it in clear (README "Security model").
 */
export const shownOnce = { shownOnce: true } as const;

export function isShownOnce(field: GraphQLField<unknown, unknown> | null | undefined): boolean {
  return (field?.extensions as { shownOnce?: unknown } | undefined)?.shownOnce === true;
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
 * Such a field is a versioned read too.
 */
export const cacheableRead = { cacheableRead: true } as const;

export function isCacheableRead(field: GraphQLField<unknown, unknown> | undefined): boolean {
  return (field?.extensions as { cacheableRead?: unknown } | undefined)?.cacheableRead === true;
}

/**
 * A root query field's `extensions` when its answer changes only through writeStore
 * (src/resources/store-writes.ts, which replaces the store's data version after every write), or
 * with the clock within the read cache's window its tag names: no job, sign-in or request log writes
 * what it shows. Its reads get the version ETag and the 304 before any resolver (README "Conditional
 * requests"), not the read cache: remembering answers is `cacheableRead`'s decision. Each field
 * declaring it is in the reviewed list of test/read-cache/versioned-fields.test.ts.
 */
export const versionedRead = { versionedRead: true } as const;

/** Whether a field's answer the store's data version vouches for: a versioned or a cacheable read. */
export function isVersionedRead(field: GraphQLField<unknown, unknown> | undefined): boolean {
  return (
    (field?.extensions as { versionedRead?: unknown } | undefined)?.versionedRead === true ||
    isCacheableRead(field)
  );
}

/**
 * A list field's `extensions` when no argument sizes it but its length is bounded (an order's lines):
 * the query cost counts it at this length (src/cost/query-cost.ts, README "Query limits and cost").
 */
export const listSize = (n: number) => ({ listSize: n });

export function declaredListSize(field: GraphQLField<unknown, unknown>): number | undefined {
  return (field.extensions as { listSize?: number } | undefined)?.listSize;
}

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
