import type { CombinedError } from '@urql/core';

/** An API error as the dashboard shows it: its code, its message, and field messages by field name. */
export interface ApiError {
  code: string;
  message: string;
  fields: Record<string, string>;
  status?: number;
}

interface Detail {
  path: string;
  message: string;
}

/** `input.name` → `name`, `input.scopes.0.resource` → `scopes`: the form field a detail is about. */
const fieldOf = (path: string) => path.replace(/^input\./, '').split('.')[0] ?? path;

function fieldsOf(details: unknown): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!Array.isArray(details)) return fields;
  for (const detail of details as Detail[]) {
    const field = fieldOf(detail.path);
    fields[field] ??= detail.message;
  }
  return fields;
}

/** From a GraphQL answer's error (urql). */
export function fromCombined(error: CombinedError): ApiError {
  const first = error.graphQLErrors[0];
  if (first) {
    const extensions = first.extensions as { code?: string; details?: unknown; status?: number };
    return {
      code: extensions.code ?? 'ERROR',
      message: first.message,
      fields: fieldsOf(extensions.details),
      status: extensions.status,
    };
  }
  return { code: 'NETWORK_ERROR', message: 'The service could not be reached; try again', fields: {} };
}

/** From a REST error envelope. */
export function fromEnvelope(body: unknown, status: number): ApiError {
  const envelope = (body ?? {}) as { code?: string; message?: string; details?: unknown };
  return {
    code: envelope.code ?? 'ERROR',
    message: envelope.message ?? `The service answered ${status}`,
    fields: fieldsOf(envelope.details),
    status,
  };
}

export const isSignedOut = (error: ApiError) => error.code === 'UNAUTHENTICATED' || error.status === 401;
