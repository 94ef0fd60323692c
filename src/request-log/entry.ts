import type { Request, Response } from 'express';
import type { ApiKeyPrincipal, SessionPrincipal } from '../access/principal';

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
 * Entries waiting for their write, held as one array per column (in the order of `COLUMN_TYPES`
 * below): a finished request adds thirteen values, not an
 * object that lives until the flush and is then copied into these arrays (README "Request log",
 * cost; bench/request-log-cost.ts). Times are kept as epoch ms and written as ISO text.
 */
export class RequestLogBatch {
  at: number[] = [];
  storeId: string[] = [];
  keyId: Array<string | null> = [];
  staffUserId: Array<string | null> = [];
  door: RequestDoor[] = [];
  method: string[] = [];
  route: string[] = [];
  status: number[] = [];
  errorCode: Array<string | null> = [];
  durationMs: number[] = [];
  requestId: string[] = [];
  clientIp: Array<string | null> = [];
  cost: Array<number | null> = [];

  get length(): number {
    return this.at.length;
  }

  add(row: RequestLogRow): void {
    this.at.push(row.at.getTime());
    this.storeId.push(row.storeId);
    this.keyId.push(row.keyId);
    this.staffUserId.push(row.staffUserId);
    this.door.push(row.door);
    this.method.push(row.method);
    this.route.push(row.route);
    this.status.push(row.status);
    this.errorCode.push(row.errorCode);
    this.durationMs.push(row.durationMs);
    this.requestId.push(row.requestId);
    this.clientIp.push(row.clientIp);
    this.cost.push(row.cost);
  }

  static of(rows: RequestLogRow[]): RequestLogBatch {
    const batch = new RequestLogBatch();
    for (const row of rows) batch.add(row);
    return batch;
  }

  /** Takes out the first `count` entries as a batch of their own. */
  take(count: number): RequestLogBatch {
    if (count >= this.length) {
      const all = Object.assign(new RequestLogBatch(), this);
      Object.assign(this, new RequestLogBatch());
      return all;
    }
    const taken = new RequestLogBatch();
    for (const column of COLUMN_NAMES)
      (taken[column] as unknown[]) = (this[column] as unknown[]).splice(0, count);
    return taken;
  }

  /**
   * The batch in COPY's text format: a line an entry, its columns in the order of `COLUMN_TYPES`
   * separated by tabs, null as `\N`. COPY costs PostgreSQL a third to a half less CPU an entry than
   * INSERT … unnest of thirteen arrays (bench/request-log-write.ts).
   */
  copyText(): string {
    const columns = COLUMN_NAMES.map((column) =>
      column === 'at' ? isoTimes(this.at) : (this[column] as ReadonlyArray<string | number | null>),
    );
    let text = '';
    for (let i = 0; i < this.length; i++) {
      let line = copyField(columns[0]?.[i] ?? null);
      for (let c = 1; c < columns.length; c++) line += `\t${copyField(columns[c]?.[i] ?? null)}`;
      text += `${line}\n`;
    }
    return text;
  }
}

/** Epoch ms as `timestamp(3)` text; entries of one millisecond share one string. */
function isoTimes(times: number[]): string[] {
  let lastMs = Number.NaN;
  let last = '';
  return times.map((ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      last = new Date(ms).toISOString().slice(0, 23);
    }
    return last;
  });
}

/** What COPY's text format gives meaning to (tested for, then replaced: one class, two flags). */
const COPY_SPECIAL = /[\\\t\n\r\0]/;
const COPY_SPECIAL_ALL = new RegExp(COPY_SPECIAL.source, 'g');
const COPY_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\t': '\\t',
  '\n': '\\n',
  '\r': '\\r',
  '\0': '\uFFFD',
};

/**
 * One value as a field of COPY's text format: null as `\N`, numbers as JavaScript prints them, text
 * with a backslash, tab, newline or carriage return escaped, so any text survives. PostgreSQL's text
 * cannot hold NUL: one is written as U+FFFD, since refusing it would drop the whole batch.
 */
export function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c] as string) : value;
}

/**
 * The log's columns in the order of a batch's COPY fields, each with its PostgreSQL type: the one
 * list the batch's COPY is built from (src/request-log/recorder.ts).
 */
export const COLUMN_TYPES = {
  at: 'timestamp(3)',
  storeId: 'text',
  keyId: 'text',
  staffUserId: 'text',
  door: 'text',
  method: 'text',
  route: 'text',
  status: 'int',
  errorCode: 'text',
  durationMs: 'float8',
  requestId: 'text',
  clientIp: 'text',
  cost: 'int',
} as const satisfies Record<keyof RequestLogRow, string>;

const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as Array<keyof typeof COLUMN_TYPES>;

/** Whom an entry is logged under: a key or a staff session (a store's principal, not the system's). */
export type LoggedPrincipal = ApiKeyPrincipal | SessionPrincipal;

/**
 * The principal a finished request is logged under, or null when it is not recorded: only
 * authenticated requests (a key or a staff session) have a store to log them under.
 */
export function loggedPrincipal(req: Request): LoggedPrincipal | null {
  const principal = req.state.principal;
  return principal && principal.kind !== 'system' ? principal : null;
}

/** Adds a finished request to `batch`, under the principal `loggedPrincipal` gave. */
export function recordRequest(
  batch: RequestLogBatch,
  req: Request,
  res: Response,
  principal: LoggedPrincipal,
  durationMs: number,
  atMs: number,
): void {
  const state = req.state;
  batch.at.push(atMs);
  batch.storeId.push(principal.storeId);
  batch.keyId.push(principal.kind === 'apiKey' ? principal.keyId : null);
  batch.staffUserId.push(principal.kind === 'session' ? principal.staffUserId : null);
  batch.door.push(state.door ?? doorOfPath(req.originalUrl.split('?')[0] ?? ''));
  batch.method.push(req.method);
  // A REST route template (its ids as `{id}`), or the GraphQL operation or MCP tool's operation name.
  batch.route.push(state.route ?? state.operation ?? 'other');
  batch.status.push(res.statusCode);
  batch.errorCode.push(state.errorCode ?? null);
  batch.durationMs.push(Math.round(durationMs * 100) / 100);
  batch.requestId.push(state.requestId);
  batch.clientIp.push(state.clientAddress ?? null);
  batch.cost.push(state.cost ?? null);
}
