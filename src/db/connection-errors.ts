/**
 * One line for a database that cannot be used, naming the cause and the setting to change: for
 * `npm start`, the API and worker roles, migrations and the admin CLI alike. Null when the error is
 * something else (the caller reports it as it is).
 */
export function describeDatabaseError(error: unknown, url: string, embeddedDir?: string): string | null {
  const where = describeUrl(url);
  const setting = embeddedDir ? `the embedded database under ${embeddedDir}` : 'DATABASE_URL';
  switch (databaseErrorCode(error)) {
    case 'unreachable':
      return embeddedDir
        ? `The embedded database under ${embeddedDir} is not running: start the service (\`npm start\`) in another terminal first, or set DATABASE_URL`
        : `No PostgreSQL answers at ${where.host}: start it, or fix the host and port in DATABASE_URL`;
    case 'unknown-host':
      return `The database host ${where.hostname} is unknown: fix the host in DATABASE_URL`;
    case 'login-refused':
      return `The database at ${where.host} refused the login of user "${where.user}": fix the user and password in ${setting}`;
    case 'needs-password':
      return `The database at ${where.host} asks user "${where.user}" for a password and ${setting} gives none: add it (postgresql://user:password@host/db)`;
    case 'no-database':
      return `The database "${where.database}" does not exist at ${where.host}: create it (createdb ${where.database}), or fix DATABASE_URL`;
    case 'not-migrated':
      return `The database "${where.database}" at ${where.host} has no tables yet: run \`npm run db:migrate\` (npm start migrates too)`;
    case 'starting':
      return `The database at ${where.host} is starting up or shutting down: try again in a moment`;
    default:
      return null;
  }
}

type Cause =
  | 'unreachable'
  | 'unknown-host'
  | 'login-refused'
  | 'needs-password'
  | 'no-database'
  | 'not-migrated'
  | 'starting';

const BY_CODE: Record<string, Cause> = {
  // pg's socket errors
  ECONNREFUSED: 'unreachable',
  ETIMEDOUT: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENOTFOUND: 'unknown-host',
  EAI_AGAIN: 'unknown-host',
  // SQLSTATEs
  '28P01': 'login-refused',
  '28000': 'login-refused',
  '3D000': 'no-database',
  '42P01': 'not-migrated',
  '57P03': 'starting',
  // Prisma's codes and its PostgreSQL adapter's error kinds
  P1000: 'login-refused',
  P1001: 'unreachable',
  P1003: 'no-database',
  P1010: 'login-refused',
  P2021: 'not-migrated',
  DatabaseNotReachable: 'unreachable',
  AuthenticationFailed: 'login-refused',
  DatabaseAccessDenied: 'login-refused',
  DatabaseDoesNotExist: 'no-database',
  TableDoesNotExist: 'not-migrated',
};

/** The cause of a database error, from pg's code, the SQLSTATE, or Prisma's wrapping, most specific first. */
function databaseErrorCode(error: unknown, depth = 0): Cause | undefined {
  if (error === null || typeof error !== 'object' || depth > 5) return undefined;
  const candidate = error as {
    code?: unknown;
    originalCode?: unknown;
    kind?: unknown;
    cause?: unknown;
    errors?: unknown;
    message?: unknown;
    meta?: { driverAdapterError?: { cause?: unknown } };
  };
  // pg's SCRAM client says so without a code when the server wants a password and the URL has none
  if (typeof candidate.message === 'string' && candidate.message.includes('client password must be a string'))
    return 'needs-password';
  const nested =
    databaseErrorCode(candidate.meta?.driverAdapterError?.cause, depth + 1) ??
    databaseErrorCode(candidate.cause, depth + 1) ??
    // pg reports a host with several addresses as an AggregateError of each attempt
    (Array.isArray(candidate.errors) ? databaseErrorCode(candidate.errors[0], depth + 1) : undefined);
  for (const code of [candidate.originalCode, candidate.code, candidate.kind]) {
    if (typeof code === 'string' && BY_CODE[code])
      return nested && nested !== 'unreachable' ? nested : BY_CODE[code];
  }
  return nested;
}

/** host:port, user and database of a postgres URL, never its password. */
function describeUrl(url: string) {
  try {
    const parsed = new URL(url);
    return {
      host: `${parsed.hostname}:${parsed.port || '5432'}`,
      hostname: parsed.hostname,
      user: decodeURIComponent(parsed.username) || 'postgres',
      database: decodeURIComponent(parsed.pathname.slice(1)) || 'postgres',
    };
  } catch {
    const unknown = 'the configured one';
    return { host: unknown, hostname: unknown, user: unknown, database: unknown };
  }
}
