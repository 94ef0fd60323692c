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
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  QUERY_TOO_COMPLEX: 400,
  BATCHING_NOT_SUPPORTED: 400,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 409,
  ORDER_NOT_CANCELLABLE: 409,
  LAST_OWNER: 409,
  ORDER_NOT_PAYABLE: 409,
  ORDER_NOT_FULFILLABLE: 409,
  INSUFFICIENT_STOCK: 409,
  COUPON_REDEMPTION_LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
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
    },
  });
}

/** The REST error envelope (DESIGN §3 Envelopes). */
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
 * The one classification of any error that reaches a front door: an AppError (possibly wrapped by
 * graphql-js), a GraphQL request error (parse, validation, variable coercion → VALIDATION_ERROR),
 * or anything else, which is unexpected and must be masked.
 */
export function classifyError(error: unknown): { appError: AppError; unexpected: boolean } {
  let current: unknown = error;
  // Unwrap graphql-js's wrappers down to what was thrown.
  while (current instanceof GraphQLError && current.originalError) current = current.originalError;
  if (current instanceof AppError) return { appError: current, unexpected: false };
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

/** Prisma's P2002: a write lost a race on a unique index (the service checks first; this is the race). */
function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { name?: unknown; code?: unknown } | null;
  return candidate?.name === 'PrismaClientKnownRequestError' && candidate.code === 'P2002';
}
