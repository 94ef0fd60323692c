import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware that runs on the same paths, in turn, as one express layer: each calls `next()` to hand
 * over to the following one, and the last one's `next()` (or any `next(error)`) is the layer's. The
 * same as mounting them one by one for middleware that only calls `next()` or `next(error)` (none of
 * ours uses `next('route')`), minus the router's work of matching and entering a layer for each,
 * which a 304 pays on every request (bench/BASELINE.md "What stands between the 304 / cached page
 * and bare node:http").
 */
export function inTurn(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let at = 0;
    const step: NextFunction = (error?: unknown) => {
      // As express's router reads it: a falsy argument is no error.
      if (error) return next(error);
      const handler = handlers[at++];
      if (handler === undefined) return next();
      handler(req, res, step);
    };
    step();
  };
}
