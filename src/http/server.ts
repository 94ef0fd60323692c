import { createServer, IncomingMessage, type Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';
import { AppError, errorEnvelope } from '../errors';
import { API_HEADERS } from './api-headers';
import { newRequestId } from './request-state';

/**
 * The HTTP server for the app. Use this, not app.listen: its requests and responses are born with
 * the app's request and response prototypes (Node's IncomingMessage and ServerResponse options).
 *
 * Express otherwise swaps both prototypes on every request (Object.setPrototypeOf in app.handle).
 * V8 then treats every request as an object of a new shape, and each property access on it, in
 * express, in Node's HTTP code and in ours, misses its inline cache: that was a large part of a
 * cached read's CPU (bench/BASELINE.md, "Born with the app's prototypes"). With the prototypes already in
 * place, express's swap changes nothing.
 */
export function createAppServer(app: Express, timeouts?: HttpTimeouts): Server {
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
  const server = createServer(
    {
      IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
      ServerResponse: AppResponse as unknown as typeof ServerResponse,
      ...(timeouts
        ? {
            headersTimeout: timeouts.headersTimeoutMs,
            requestTimeout: timeouts.requestTimeoutMs,
            keepAliveTimeout: timeouts.keepAliveTimeoutMs,
            // Node looks at the two clocks above this often (its default, 30 s, would let a slow
            // client hold a socket up to 30 s past its deadline)
            connectionsCheckingInterval: Math.min(1000, Math.floor(timeouts.headersTimeoutMs / 2)),
          }
        : {}),
    },
    app,
  );
  // The request a socket carries now, so a timeout can tell whether the app has answered it.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    (req.socket as SocketWithRequest)[CURRENT_REQUEST] = res;
  });
  server.on('clientError', answerClientError);
  return server;
}

const CURRENT_REQUEST = Symbol('currentRequest');
type SocketWithRequest = Socket & { [CURRENT_REQUEST]?: ServerResponse };

/** The server's clocks (config.http): all headers, the whole request, an idle keep-alive socket. */
export interface HttpTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

/**
 * A request Node refuses before the app sees it (headers too large, too slow, not HTTP) is answered
 * in the API's error envelope with its code, like every other error, then the socket is closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: SocketWithRequest): void {
  // A request whose headers arrived belongs to the app until its body is in: if the app has
  // answered already (a 401 before reading the body), a second answer would be garbage.
  const current = socket[CURRENT_REQUEST];
  const answered = current !== undefined && !current.req.complete && current.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || answered) {
    socket.destroy();
    return;
  }
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError('HEADERS_TOO_LARGE', 'The request headers are too large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('REQUEST_TIMEOUT', 'The request took too long to arrive')
        : new AppError('MALFORMED_REQUEST', 'The request is not valid HTTP');
  const body = JSON.stringify(errorEnvelope(appError, newRequestId()));
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${RAW_API_HEADERS}Connection: close\r\n\r\n${body}`,
  );
}

/** The app's answers carry these (src/http/api-headers.ts); so do the ones the server writes itself. */
const RAW_API_HEADERS = API_HEADERS.map(([name, value]) => `${name}: ${value}\r\n`).join('');

type Init = { call(self: object, ...args: unknown[]): void };

/** Listens on `port` and `host`; resolves once listening, rejects if it cannot. */
export function listen(app: Express, port: number, host: string, timeouts?: HttpTimeouts): Promise<Server> {
  const server = createAppServer(app, timeouts);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}
