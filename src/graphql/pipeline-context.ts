import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Principal } from '../access/principal';
import { type SessionCookie, sessionCookieOf, sessionCookiePolicy } from '../auth/session-cookie';
import type { Context, RequestServices } from '../context';

/** The three front doors; each hands operations to the one pipeline. */
export type Door = 'graphql' | 'rest' | 'mcp';

/** What a door gives the pipeline along with an operation: its HTTP exchange and who it is. */
export interface DoorRequest {
  req: Request;
  res: Response;
  door: Door;
  /** REST's `Idempotency-Key` header (POST and PATCH); GraphQL's form is the `idempotencyKey` argument. */
  idempotencyKey?: string;
  /**
   * The operation's requested cost, once known: a door that costed it before admission (pipeline.costOf)
   * hands it on; otherwise the query-limits plugin sets it before execution.
   */
  requestedCost?: number;
}

/** The context of one execution: the resolvers' Context and the door's request. */
export interface PipelineContext extends Context, DoorRequest {
  /** Set by the idempotency plugin when a key was given: whether this answer is a replay. */
  idempotentReplay?: boolean;
}

/** Makes the context of each execution of one pipeline. */
export type DoorContextClass = new (request: DoorRequest) => PipelineContext;

/**
 * Every field a context holds itself (all but the services), the optional ones too: a field the class
 * leaves out fails tsc, rather than being added to each context later (another hidden class).
 */
type OwnFields = {
  [K in Exclude<keyof PipelineContext, keyof RequestServices>]-?: PipelineContext[K] | undefined;
};

/** Services made by hand (tests) name no cookie policy: development's. */
const DEVELOPMENT_COOKIE = sessionCookiePolicy({ isProduction: false });

/**
 * The class of one pipeline's contexts. The services are one object, the prototype every context
 * shares, so a service added to RequestServices and made in src/runtime.ts is in every context with
 * no other edit; a context holds only its request's own fields, each set in the constructor. So every
 * context has one fixed shape: adding the fields to a plain object as the request went made a new
 * hidden class per request (measured: a third of the pipeline's cost on a cached read).
 */
export function doorContextClass(services: RequestServices): DoorContextClass {
  const cookiePolicy = services.sessionCookiePolicy ?? DEVELOPMENT_COOKIE;

  class DoorContext implements OwnFields {
    req: Request;
    res: Response;
    door: Door;
    idempotencyKey: string | undefined;
    requestedCost: number | undefined;
    idempotentReplay: boolean | undefined;
    principal: Principal | null;
    requestId: string;
    clientAddress: string | undefined;
    userAgent: string | undefined;
    log: Logger;
    sessionCookie: SessionCookie;

    constructor(request: DoorRequest) {
      const { req } = request;
      const state = req.state;
      this.req = req;
      this.res = request.res;
      this.door = request.door;
      this.idempotencyKey = request.idempotencyKey;
      this.requestedCost = request.requestedCost;
      this.idempotentReplay = undefined;
      this.principal = state.principal;
      this.requestId = state.requestId;
      this.clientAddress = state.clientAddress;
      this.userAgent = req.headers['user-agent'];
      this.log = state.log;
      this.sessionCookie = sessionCookieOf(req, cookiePolicy);
    }
  }
  // Not `extends` a base holding the services: a derived class's constructor measured slower
  // (bench/BASELINE.md, "The door context's services on its prototype").
  Object.setPrototypeOf(DoorContext.prototype, { ...services });
  // Own fields and services together must make a whole PipelineContext, or this fails tsc.
  return DoorContext as new (
    request: DoorRequest,
  ) => DoorContext & RequestServices;
}
