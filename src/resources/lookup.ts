/**
 * The options of every single-item root lookup (`product(id:)`, `apiKey(keyId:)`, …): nullable, so a
 * missing or foreign id is `null` for that field with a NOT_FOUND error, and the query's other fields
 * keep their data. REST and MCP answer the same NOT_FOUND as a 404 / tool error.
 */
export const lookup = (what: string) =>
  ({
    nullable: true,
    description: `The ${what} with this id; null, with a NOT_FOUND error, when the store has none`,
  }) as const;
