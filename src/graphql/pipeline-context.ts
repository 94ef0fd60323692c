import type { Request, Response } from 'express';
import type { Context } from '../context';

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
