import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/**
 * The HTTP server for the app. Use this, not app.listen: its requests and responses are born with
 * the app's request and response prototypes (Node's IncomingMessage and ServerResponse options).
 *
 * Express otherwise swaps both prototypes on every request (Object.setPrototypeOf in app.handle).
 * V8 then treats every request as an object of a new shape, and each property access on it, in
 * express, in Node's HTTP code and in ours, misses its inline cache: that was ~40 % of a cached
 * read's CPU (bench/BASELINE.md, "Born with the app's prototypes"). With the prototypes already in
 * place, express's swap changes nothing.
 */
export function createAppServer(app: Express): Server {
  // Constructors in Node's own style, so that `new` makes the object with the app's prototype and
  // Node's constructor only initializes it.
  function AppRequest(this: IncomingMessage, socket: Socket) {
    (IncomingMessage as unknown as Init).call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options: unknown) {
    (ServerResponse as unknown as Init).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  // As `class extends` would: V8 sizes a constructor's objects by the constructors it inherits from,
  // so that Node's constructors find room for their fields; otherwise the objects fall back to
  // dictionary (slow) properties.
  Object.setPrototypeOf(AppRequest, IncomingMessage);
  Object.setPrototypeOf(AppResponse, ServerResponse);
  return createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
    },
    app,
  );
}

type Init = { call(self: object, ...args: unknown[]): void };

/** Listens on `port` and `host`; resolves once listening, rejects if it cannot. */
export function listen(app: Express, port: number, host: string): Promise<Server> {
  const server = createAppServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
