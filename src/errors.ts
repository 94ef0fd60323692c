import { GraphQLError } from 'graphql';

/** Every error the service reports, with its HTTP status. The one mapping for GraphQL, REST and MCP. */
export const errorStatus = {
  API_KEY_REQUIRED: 401,
  INVALID_API_KEY_FORMAT: 401,
  INVALID_API_KEY: 401,
  API_KEY_REVOKED: 401,
  API_KEY_INACTIVE: 401,
  API_KEY_EXPIRED: 401,
  API_KEY_GRACE_PERIOD_EXPIRED: 401,
  UNAUTHENTICATED: 401,
  STORE_SUSPENDED: 402,
  INSUFFICIENT_SCOPE: 403,
  IP_NOT_WHITELISTED: 403,
  PLAN_NOT_ELIGIBLE: 403,
  WEBHOOKS_NOT_AVAILABLE: 403,
  FORBIDDEN: 403,
  ORIGIN_NOT_ALLOWED: 403,
  API_KEY_USAGE_LIMIT_REACHED: 429,
  RATE_LIMIT_EXCEEDED: 429,
  COST_LIMIT_EXCEEDED: 429,
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  JSON_TOO_DEEP: 400,
  MALFORMED_REQUEST: 400,
  QUERY_TOO_COMPLEX: 400,
  RESPONSE_TOO_LARGE: 400,
  BATCHING_NOT_SUPPORTED: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  API_KEY_STATE_CONFLICT: 409,
  WEBHOOK_ENDPOINT_STATE_CONFLICT: 409,
  STAFF_STATE_CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 409,
  WEBHOOK_RECOVERY_IN_PROGRESS: 409,
  ORDER_NOT_CANCELLABLE: 409,
  LAST_OWNER: 409,
  CATEGORY_CYCLE: 409,
  INVITATION_NOT_PENDING: 409,
  ORDER_NOT_PAYABLE: 409,
  ORDER_NOT_FULFILLABLE: 409,
  INSUFFICIENT_STOCK: 409,
  COUPON_REDEMPTION_LIMIT_REACHED: 409,
  INVITATION_INVALID: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  IDEMPOTENCY_KEY_REUSED: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  QUERY_TIMEOUT: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const errorCodes = Object.keys(errorStatus) as ErrorCode[];

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorStatus[code];
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

export function validationError(details: ErrorDetail[]): AppError {
  const first = details[0];
  const message = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'Invalid input';
  return new AppError('VALIDATION_ERROR', message, details);
}

/** The GraphQL form of an AppError: the code in extensions.code, details beside it. */
export function toGraphQLError(error: AppError, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: {
      code: error.code,
      status: error.status,
      ...(error.details ? { details: error.details } : {}),
      ...extra,
      ...withRetryAfter(error, extra.http),
    },
  });
}

/** An error that knows when to come back (an unreachable database) says so in the HTTP answer yoga sends. */
function withRetryAfter(error: AppError, http: unknown): { http?: Record<string, unknown> } {
  const retryAfter = (error as AppError & { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter === undefined || typeof http !== 'object' || http === null) return {};
  const headers = (http as { headers?: Record<string, string> }).headers;
  return {
    http: {
      ...(http as Record<string, unknown>),
      headers: { ...headers, 'Retry-After': String(retryAfter) },
    },
  };
}

/** The REST error envelope (docs/design.md "Envelopes"). */
export function errorEnvelope(error: AppError, requestId: string) {
  return {
    success: false as const,
    status: error.status,
    code: error.code,
    message: error.message,
    requestId,
    ...(error.details ? { details: error.details } : {}),
  };
}

export const internalError = () => new AppError('INTERNAL_ERROR', 'Internal server error');

/**
 * 409 for a state change asked of a resource no longer in a state it applies to (another request won
 * the race, or it was never so): `details` names the current state, e.g. `[{ path: 'status', message:
 * 'revoked' }]`, which reads "status: revoked".
 */
export function stateConflict(
  code: ErrorCode,
  message: string,
  current: Record<string, string | number | boolean | null>,
): AppError {
  return new AppError(
    code,
    message,
    Object.entries(current).map(([path, value]) => ({ path, message: String(value) })),
  );
}

/** Seconds a client is asked to wait (Retry-After) while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** 429: a principal's query-cost budget is spent; `retryAfterSeconds` until enough of it is back. */
export class CostLimitExceededError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    cost: number,
    remaining: number,
  ) {
    super(
      'COST_LIMIT_EXCEEDED',
      `This query costs ${cost} points and ${remaining} are left of this window's budget; retry in ${retryAfterSeconds} s or ask for less`,
    );
  }
}

/** 503 while PostgreSQL is unreachable; `retryAfterSeconds` becomes the Retry-After header. */
export class ServiceUnavailableError extends AppError {
  readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
  constructor() {
    super('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly');
  }
}

/**
 * The one classification of any error that reaches a front door: an AppError (possibly wrapped by
 * graphql-js), a GraphQL request error (parse, validation, variable coercion → VALIDATION_ERROR),
 * or anything else, which is unexpected and must be masked.
 */
export function classifyError(error: unknown): { appError: AppError; unexpected: boolean } {
  let current: unknown = error;
  // Unwrap graphql-js's wrappers down to what was thrown.
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  if (current instanceof AppError) return { appError: current, unexpected: false };
  if (isDatabaseUnavailable(current)) return { appError: new ServiceUnavailableError(), unexpected: false };
  if (isStatementTimeout(current)) {
    return {
      appError: new AppError(
        'QUERY_TIMEOUT',
        'A database statement of this request ran past the time limit and was stopped; ask for less, or try again',
      ),
      unexpected: false,
    };
  }
  if (isUniqueViolation(current)) {
    return {
      appError: new AppError('CONFLICT', 'A record with the same unique value already exists'),
      unexpected: false,
    };
  }
  if (current instanceof GraphQLError) {
    const code = current.extensions?.code;
    if (isErrorCode(code))
      return {
        appError: new AppError(code, current.message, detailsOf(current.extensions.details)),
        unexpected: false,
      };
    // A syntax or validation error of the document (variables are checked, with their paths, by the
    // pipeline's input boundary before graphql-js sees them: src/graphql/plugins/input-boundary.ts).
    return {
      appError: new AppError('VALIDATION_ERROR', current.message, [{ path: '', message: current.message }]),
      unexpected: false,
    };
  }
  return { appError: internalError(), unexpected: true };
}

/** `extensions.details` of a coded GraphQL error (a replayed or masked one), when it has the shape. */
function detailsOf(value: unknown): ErrorDetail[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.every((d) => typeof d?.path === 'string' && typeof d?.message === 'string')
    ? value
    : undefined;
}

/** SQLSTATE 57014: PostgreSQL ended the statement at its statement_timeout (DB_STATEMENT_TIMEOUT_MS). */
function isStatementTimeout(error: unknown): boolean {
  const candidate = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
  } | null;
  return candidate?.code === '57014' || candidate?.meta?.driverAdapterError?.cause?.originalCode === '57014';
}

/** Prisma's P2002: a write lost a race on a unique index (the service checks first; this is the race). */
function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return candidate?.name === 'PrismaClientKnownRequestError' && candidate.code === 'P2002';
}

/**
 * Whether an error means PostgreSQL cannot be reached or is not accepting work (stopped, restarting,
 * out of connections), judged by codes only: socket errors of pg, SQLSTATE class 08 (connection
 * exception), 57P01–57P03 (shutdown, crash, starting up), 53300 (too many connections), Prisma's
 * connection error codes and its PostgreSQL adapter's error kinds, anywhere in the cause chain.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > 5) return false;
  const candidate = error as {
    code?: unknown;
    errorCode?: unknown;
    syscall?: unknown;
    kind?: unknown;
    originalCode?: unknown;
    cause?: unknown;
    meta?: { driverAdapterError?: { cause?: unknown } };
  };
  const code = typeof candidate.code === 'string' ? candidate.code : undefined;
  if (code && typeof candidate.syscall === 'string' && SOCKET_ERRORS.has(code)) return true;
  if (code && (/^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_SQLSTATES.has(code))) return true;
  for (const prismaCode of [candidate.code, candidate.errorCode]) {
    if (typeof prismaCode === 'string' && PRISMA_UNAVAILABLE.has(prismaCode)) return true;
  }
  if (typeof candidate.kind === 'string' && ADAPTER_UNAVAILABLE.has(candidate.kind)) return true;
  if (typeof candidate.originalCode === 'string' && isDatabaseUnavailable({ code: candidate.originalCode }))
    return true;
  return (
    isDatabaseUnavailable(candidate.meta?.driverAdapterError?.cause, depth + 1) ||
    isDatabaseUnavailable(candidate.cause, depth + 1)
  );
}

const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** P1001 can't reach, P1002 timed out, P1017 server closed the connection, P2024 pool timeout. */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
const ADAPTER_UNAVAILABLE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
