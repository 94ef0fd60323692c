import type { Request, Response } from 'express';

/** The three doors, as the log names them (README "Request log"). */
export type RequestDoor = 'GRAPHQL' | 'REST' | 'MCP';

/**
 * One row of the request log. Only what the request's state knew when it finished: never a body,
 * a query string, a header, a cookie or a secret (test/request-log/secrets.test.ts).
 */
export interface RequestLogRow {
  at: Date;
  storeId: string;
  keyId: string | null;
  staffUserId: string | null;
  door: RequestDoor;
  method: string;
  route: string;
  status: number;
  errorCode: string | null;
  durationMs: number;
  requestId: string;
  clientIp: string | null;
  cost: number | null;
}

/** Paths that name a door without a route of their own; a request elsewhere is `other`, never its raw path. */
const DOOR_OF_PATH: Record<string, RequestDoor> = {
  '/graphql': 'GRAPHQL',
  '/mcp': 'MCP',
  '/api/v1/mcp': 'MCP',
};

/** The door of a request no operation of the pipeline ran for (refused before: a 429, a bad body, a syntax error). */
const doorOfPath = (path: string): RequestDoor =>
  DOOR_OF_PATH[path] ?? (path.startsWith('/api/v1') ? 'REST' : 'GRAPHQL');

/**
 * The row of a finished request, or null when it is not to be recorded: only authenticated
 * requests (a key or a staff session) have a store to log them under.
 */
export function requestLogRow(
  req: Request,
  res: Response,
  durationMs: number,
  at: Date,
): RequestLogRow | null {
  const state = req.state;
  const principal = state.principal;
  if (!principal || principal.kind === 'system') return null;
  const door = state.door ?? doorOfPath(req.originalUrl.split('?')[0] ?? '');
  return {
    at,
    storeId: principal.storeId,
    keyId: principal.kind === 'apiKey' ? principal.keyId : null,
    staffUserId: principal.kind === 'session' ? principal.staffUserId : null,
    door,
    method: req.method,
    // A REST route template (its ids as `{id}`), or the GraphQL operation or MCP tool's operation name.
    route: state.route ?? state.operation ?? 'other',
    status: res.statusCode,
    errorCode: state.errorCode ?? null,
    durationMs: Math.round(durationMs * 100) / 100,
    requestId: state.requestId,
    clientIp: state.clientAddress ?? null,
    cost: state.cost ?? null,
  };
}
