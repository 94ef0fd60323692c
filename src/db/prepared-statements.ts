/**
 * Named (prepared) statements (README "Architecture", Prepared statements and the count). pg sends a parameterised statement as
 * an unnamed one, which PostgreSQL parses and plans on every execution; a statement sent with a name
 * is parsed once per connection and then only bound and executed, and after five executions
 * PostgreSQL may keep a generic plan for it (plan_cache_mode stays `auto`: docs/design.md).
 *
 * Written here rather than taken from @prisma/adapter-pg's `statementNameGenerator`, because the bound
 * is per connection and that hook does not see the connection.
 *
 * Both bounds keep a stream of one-off statements (a filter of a shape never seen again) from growing
 * without end, since pg has no call to forget a name and PostgreSQL keeps each one until the
 * connection closes:
 * - the process names at most NAMED_TEXTS distinct texts, the first ones it sees (on a running
 *   server: the same few hundred texts of its routes, sent again and again); later texts go unnamed;
 * - a connection is sent at most PER_CONNECTION of those names; later ones go unnamed on it.
 */
export const NAMED_TEXTS = 2000;
export const PER_CONNECTION = 200;

const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined || names.size >= NAMED_TEXTS) return known;
  const name = `s${names.size + 1}`;
  names.set(text, name);
  return name;
}

interface QueryConfig {
  text?: unknown;
  values?: unknown;
  name?: unknown;
  submit?: unknown;
}

/**
 * Gives a parameterised query config (what Prisma's adapter sends) the name of its text, when the
 * bounds allow; `prepared` is the names this connection has been sent. A plain string, a query without
 * values (sent as a simple query: BEGIN, COMMIT) or one already named is left as it is.
 */
export function nameStatement(query: unknown, prepared: Set<string>): void {
  if (typeof query !== 'object' || query === null) return;
  const config = query as QueryConfig;
  if (typeof config.text !== 'string' || config.name !== undefined || typeof config.submit === 'function')
    return;
  if (!Array.isArray(config.values) || config.values.length === 0) return;
  const name = nameOf(config.text);
  if (name === undefined) return;
  if (!prepared.has(name)) {
    if (prepared.size >= PER_CONNECTION) return;
    prepared.add(name);
  }
  config.name = name;
}
