import type { GraphQLField } from 'graphql';

/**
 * A field's `extensions` when it holds a secret shown once (a new key's secret, a signing secret, a
 * session token): whatever remembers an answer that selects it — idempotent replays — seals it with
 * the server's key rather than store it in clear (README "Security model").
 */
export const shownOnce = { shownOnce: true } as const;

export function isShownOnce(field: GraphQLField<unknown, unknown> | null | undefined): boolean {
  return (field?.extensions as { shownOnce?: unknown } | undefined)?.shownOnce === true;
}
