import type { Request, Response } from 'express';
import type { Principal } from '../../access/principal';

/**
 * What the cost's plugins use of an execution's context. The pipeline's context
 * (src/graphql/pipeline-context.ts) has all of it; it is named here so that the cost does not import
 * the pipeline that assembles its plugins.
 */
export interface CostContext {
  req: Request;
  res: Response;
  principal: Principal | null;
  now: () => Date;
  /** The operation's requested cost: set by query-limits, or handed on by a door that costed it first. */
  requestedCost?: number;
}
