import { randomFillSync } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Principal } from '../access/principal';
import type { CostDecision } from '../cost/budget';
import type { RequestDoor } from '../request-log/entry';
import type { RequestLog } from '../request-log/recorder';

export interface RequestState {
  requestId: string;
  log: Logger;
  clientAddress: string | undefined;
  principal: Principal | null;
  /** Authentication (and admission) passed for this request: no door or plugin runs it again. */
  authenticated?: boolean;
  startedAt: bigint;
  /** The caller's store data version, read during authentication for a cacheable read. */
  dataVersion?: string;
  /**
   * The caller's cost budget after the charge admission carried: the door knew its one operation's
   * cost before authenticating (src/cost/charge.ts). The cost-budget plugin applies it.
   */
  costBudget?: CostDecision;
  /**
   * What is left of the caller's cost budget once the operation ran and was refunded: the
   * X-Cost-Remaining header's figure, and a GraphQL answer's `extensions.cost.budget` (src/cost/balance.ts).
   */
  costBalance?: CostDecision;
  /** What the read cache did for a cacheable read: answered it, will remember it, or stood aside. */
  readCache?: 'hit' | 'miss' | 'off';
  /** A conditional read whose ETag is current: the door answers 304 (src/graphql/plugins/conditional-read.ts). */
  notModified?: boolean;
  /** The route template that answered (`GET /api/v1/product/{id}`), for metrics. */
  route?: string;
  /** What the pipeline ran, for the request log (src/graphql/plugins/request-log.ts): door, operation name, cost. */
  door?: RequestDoor;
  operation?: string;
  cost?: number;
  /** The code of the error the request answered with, if any. */
  errorCode?: string;
}

declare global {
  namespace Express {
    interface Request {
      state: RequestState;
    }
  }
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// Random bytes drawn 4 KiB at a time, as node:crypto's randomUUID does: a draw per id
// (randomBytes(10)) cost 2.9 µs, five times the whole id's cost.
const entropy = Buffer.alloc(4096);
let drawn = entropy.length;

/**
 * A new request id, for a request that brought none (or one not worth keeping): `req_` and 32 hex
 * digits, the first 12 the time in ms and 80 random bits after them (as a UUIDv7 orders). Ids made
 * later sort later, so the request log's (storeId, requestId) index takes each new entry at its
 * right edge instead of a random page of a day's index (bench/request-log-write.ts: less WAL per
 * entry, and no page of a large index dirtied per entry).
 */
export function newRequestId(): string {
  if (drawn + 10 > entropy.length) {
    randomFillSync(entropy);
    drawn = 0;
  }
  const random = entropy.toString('hex', drawn, drawn + 10);
  drawn += 10;
  return `req_${Date.now().toString(16).padStart(12, '0')}${random}`;
}

/**
 * The request's child logger, made when something first logs through it: the request line itself
 * names the request id, and most requests log nothing else. A plain value (not a getter), so that
 * contexts can copy it cheaply. One handler for every request's proxy (its target holds the
 * request's own), so a request allocates the proxy and its target only.
 */
function lazyChild(logger: Logger, requestId: string): Logger {
  return new Proxy({ logger, requestId } as LazyLogger, lazyLogger) as unknown as Logger;
}

interface LazyLogger {
  logger: Logger;
  requestId: string;
  child?: Logger;
}

const lazyLogger: ProxyHandler<LazyLogger> = {
  get(target, property) {
    target.child ??= target.logger.child({ requestId: target.requestId });
    const child = target.child;
    const value = Reflect.get(child, property, child);
    return typeof value === 'function' ? value.bind(child) : value;
  },
};

/**
 * Gives every request an id (a sane incoming X-Request-Id is kept), a child logger and one log line,
 * and hands each finished request to the request log (which keeps the authenticated ones).
 */
export function requestState(logger: Logger, requestLog?: RequestLog) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : newRequestId();
    req.state = {
      requestId,
      log: lazyChild(logger, requestId),
      clientAddress: req.ip,
      principal: null,
      startedAt: process.hrtime.bigint(),
    };
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - req.state.startedAt) / 1e6;
      requestLog?.record(req, res, ms);
      if (!logger.isLevelEnabled('info')) return;
      logger.info(
        {
          requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round(ms * 100) / 100,
          ...principalLogFields(req.state.principal),
          ...(req.state.readCache ? { readCache: req.state.readCache } : {}),
          ip: req.state.clientAddress,
        },
        'request',
      );
    });
    next();
  };
}

function principalLogFields(principal: Principal | null) {
  if (principal?.kind === 'apiKey') return { keyId: principal.keyId };
  if (principal?.kind === 'session') return { staffUserId: principal.staffUserId };
  return {};
}
