import { isIP, type Socket, connect as tcpConnect } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { Agent, type buildConnector } from 'undici';
import { AppError } from '../errors';
import { addressRefusal } from './address-policy';
import {
  defaultLookup,
  isAllowedHost,
  type LookupFn,
  parseWebhookUrl,
  type UrlPolicyOptions,
} from './url-policy';

/**
 * The HTTP client for webhook deliveries (docs/design.md "Delivery request"): POST, one total
 * deadline, no redirects, at most 1 KB of the response body kept, never throws.
 *
 * SSRF: undici's connect step is ours. It resolves the name itself, checks every address with the
 * address policy (unless the host is on the test allow-list), then opens the TCP connection to the
 * very address it checked and runs TLS over it with SNI and certificate verification against the
 * URL's hostname. There is no second resolution between check and connect, so DNS rebinding has no
 * window; IP literals are checked the same way.
 */

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface DeliveryResponse {
  ok: boolean; // 2xx
  httpStatus: number; // 0 when no HTTP response (network error, timeout, refused, policy)
  responseBody: string; // at most 1024 bytes of the response body (UTF-8, cut safely), the rest discarded without being read into memory
  errorMessage: string | null; // null on 2xx; e.g. 'HTTP 500', 'redirect (307) not followed', 'timeout after 10000 ms', 'connection refused', 'address 127.0.0.1 is not allowed (loopback)'
  durationMs: number;
}

export interface WebhookHttpClient {
  post(request: DeliveryRequest): Promise<DeliveryResponse>;
  close(): Promise<void>;
}

export type WebhookHttpClientOptions = UrlPolicyOptions & {
  /** Trusted CA certificate(s) instead of the system roots. Tests only. */
  ca?: string | Buffer;
  userAgent?: string;
  /** Limit on DNS + TCP + TLS for one connection, independent of the request deadline. Default 10 s. */
  connectTimeoutMs?: number;
};

export const DEFAULT_USER_AGENT = 'Service-Webhooks/1.0';
export const RESPONSE_BODY_LIMIT_BYTES = 1024;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** Request headers the caller may not set: the client owns framing, connection handling and Host. */
const DROPPED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);

/** A connection refused by the address policy (or any other delivery rule) before it was opened. */
export class WebhookPolicyError extends Error {
  readonly code = 'ERR_WEBHOOK_POLICY';
  constructor(message: string) {
    super(message);
    this.name = 'WebhookPolicyError';
  }
}

class WebhookConnectError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'WebhookConnectError';
  }
}

/** TCP errors after which the next resolved address is worth trying. */
const TRY_NEXT_ADDRESS = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
]);

export interface PolicyConnectorOptions {
  allowHosts: readonly string[] | undefined;
  lookup: LookupFn;
  ca: string | Buffer | undefined;
  connectTimeoutMs: number;
}

/**
 * undici's connect step with the address policy: resolve, check every address, connect to a checked
 * address, TLS with SNI + verification against the hostname. Exported for tests.
 */
export function createPolicyConnector(options: PolicyConnectorOptions): buildConnector.connector {
  return (connectOptions, callback) => {
    let settled = false;
    let current: Socket | undefined;
    const timer = setTimeout(() => {
      current?.destroy();
      settle(
        new WebhookConnectError(
          `connect timeout after ${options.connectTimeoutMs} ms`,
          'ERR_CONNECT_TIMEOUT',
        ),
        null,
      );
    }, options.connectTimeoutMs);

    function settle(error: Error | null, socket: Socket | null) {
      if (settled) {
        socket?.destroy();
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (error || !socket) callback(error ?? new Error('connect failed'), null);
      else callback(null, socket);
    }

    const track = (socket: Socket) => {
      current = socket;
      if (settled) socket.destroy();
    };

    checkedConnect(connectOptions, options, track, () => settled).then(
      (socket) => settle(null, socket),
      (error: Error) => settle(error, null),
    );
  };
}

async function checkedConnect(
  connectOptions: buildConnector.Options,
  options: PolicyConnectorOptions,
  track: (socket: Socket) => void,
  abandoned: () => boolean,
): Promise<Socket> {
  const plain = connectOptions.protocol === 'http:';
  if (!plain && connectOptions.protocol !== 'https:')
    throw new WebhookPolicyError('only https:// URLs are delivered');
  // undici strips the brackets of an IPv6 literal; be robust to either form.
  const hostname = connectOptions.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = connectOptions.port === '' ? (plain ? 80 : 443) : Number(connectOptions.port);
  const literal = isIP(hostname) !== 0;
  const allowed = isAllowedHost(hostname, port, options.allowHosts);
  // Plain HTTP only to a host of the test allow-list (a local receiver in development)
  if (plain && !allowed) throw new WebhookPolicyError('only https:// URLs are delivered');

  let addresses: Array<{ address: string; family: 4 | 6 }>;
  if (literal) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await options.lookup(hostname);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EAI_FAIL';
      throw new WebhookConnectError(`DNS lookup failed for ${hostname} (${code})`, code);
    }
    if (!Array.isArray(addresses) || addresses.length === 0) {
      throw new WebhookConnectError(`DNS lookup failed for ${hostname} (no addresses)`, 'ENOTFOUND');
    }
  }
  if (!allowed) {
    // Every address must pass, not only the one used: a mixed answer is a rebinding attempt or a misconfiguration.
    for (const { address } of addresses) {
      const refusal = addressRefusal(address);
      if (refusal !== null) throw new WebhookPolicyError(refusal);
    }
  }

  let lastError: Error = new WebhookConnectError('connect failed', 'ECONNREFUSED');
  for (const { address } of addresses) {
    if (abandoned()) throw lastError;
    let tcp: Socket;
    try {
      tcp = await openTcp(address, port, track);
    } catch (error) {
      lastError = error as Error;
      if (TRY_NEXT_ADDRESS.has((error as NodeJS.ErrnoException).code ?? '')) continue;
      throw error;
    }
    return plain ? tcp : await startTls(tcp, { hostname, address, literal, ca: options.ca }, track);
  }
  throw lastError;
}

function openTcp(address: string, port: number, track: (socket: Socket) => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({
      host: address,
      port,
      noDelay: true,
      keepAlive: true,
      keepAliveInitialDelay: 60_000,
    });
    track(socket);
    const onError = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

function startTls(
  tcp: Socket,
  target: { hostname: string; address: string; literal: boolean; ca: string | Buffer | undefined },
  track: (socket: Socket) => void,
): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({
      socket: tcp,
      // The certificate is verified against the URL's hostname (SNI too); an IP literal has no SNI
      // (RFC 6066) and is verified against the address itself.
      host: target.literal ? target.address : target.hostname,
      ...(target.literal ? {} : { servername: target.hostname }),
      ...(target.ca !== undefined ? { ca: target.ca } : {}),
      rejectUnauthorized: true,
      ALPNProtocols: ['http/1.1'],
    });
    track(socket);
    const onError = (error: Error) => {
      socket.destroy();
      tcp.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('secureConnect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

export function createWebhookHttpClient(options: WebhookHttpClientOptions = {}): WebhookHttpClient {
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const policy: UrlPolicyOptions = options.allowHosts ? { allowHosts: options.allowHosts } : {};
  const agent = new Agent({
    connect: createPolicyConnector({
      allowHosts: options.allowHosts,
      lookup: options.lookup ?? defaultLookup,
      ca: options.ca,
      connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    }),
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 60_000,
    pipelining: 1,
  });
  let closed = false;

  async function post(request: DeliveryRequest): Promise<DeliveryResponse> {
    const started = performance.now();
    const timeoutMs =
      Number.isFinite(request.timeoutMs) && request.timeoutMs > 0 ? request.timeoutMs : 10_000;
    const signal = AbortSignal.timeout(timeoutMs);
    const result = (partial: Omit<DeliveryResponse, 'durationMs'>): DeliveryResponse => ({
      ...partial,
      durationMs: Math.round(performance.now() - started),
    });
    const failure = (errorMessage: string, httpStatus = 0, responseBody = ''): DeliveryResponse =>
      result({ ok: false, httpStatus, responseBody, errorMessage });

    if (closed) return failure('client closed');
    let url: URL;
    try {
      url = parseWebhookUrl(request.url, policy);
    } catch (error) {
      return failure(policyMessage(error));
    }

    let statusCode = 0;
    try {
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: requestHeaders(request.headers, userAgent),
        body: request.body,
        signal,
      });
      statusCode = response.statusCode;
      const { bytes, complete } = await readLimited(response.body, RESPONSE_BODY_LIMIT_BYTES);
      const responseBody = decodeLimited(bytes, RESPONSE_BODY_LIMIT_BYTES);
      if (!complete && signal.aborted) {
        return failure(`timeout after ${timeoutMs} ms (response body incomplete)`, statusCode, responseBody);
      }
      if (statusCode >= 200 && statusCode < 300) {
        return result({ ok: true, httpStatus: statusCode, responseBody, errorMessage: null });
      }
      if (statusCode >= 300 && statusCode < 400) {
        return failure(`redirect (${statusCode}) not followed`, statusCode, responseBody);
      }
      return failure(`HTTP ${statusCode}`, statusCode, responseBody);
    } catch (error) {
      if (signal.aborted) return failure(`timeout after ${timeoutMs} ms`, statusCode);
      return failure(describeError(error), statusCode);
    }
  }

  return {
    post: async (request) => {
      try {
        return await post(request);
      } catch (error) {
        // Unreachable in practice; the contract is "never throws".
        return {
          ok: false,
          httpStatus: 0,
          responseBody: '',
          errorMessage: describeError(error),
          durationMs: 0,
        };
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await agent.close();
    },
  };
}

function requestHeaders(headers: Record<string, string>, userAgent: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (DROPPED_HEADERS.has(lower) || lower === 'content-type' || lower === 'user-agent') continue;
    out[lower] = String(value);
  }
  out['content-type'] = 'application/json';
  out['user-agent'] = userAgent;
  return out;
}

/**
 * Reads at most `limit` bytes, then destroys the stream (the connection is closed, the rest is
 * never read). Resolves, never rejects; `complete` tells whether the body ended normally.
 */
function readLimited(body: NodeJS.ReadableStream & { destroy(): void }, limit: number) {
  return new Promise<{ bytes: Buffer; complete: boolean }>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (complete: boolean) => {
      if (done) return;
      done = true;
      body.removeListener('data', onData);
      resolve({ bytes: Buffer.concat(chunks, size), complete });
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      const take = buffer.subarray(0, limit - size);
      chunks.push(take);
      size += take.length;
      if (size >= limit) {
        finish(true);
        body.destroy();
      }
    };
    body.on('data', onData);
    body.once('end', () => finish(true));
    body.once('error', () => finish(false));
    body.once('close', () => finish(false));
  });
}

/**
 * At most `limit` bytes as UTF-8 text: an incomplete trailing sequence is dropped, invalid bytes
 * become U+FFFD, and NUL (which PostgreSQL text cannot hold) becomes U+FFFD, then whole code points
 * are dropped from the end until the UTF-8 form fits.
 */
export function decodeLimited(bytes: Buffer, limit: number): string {
  let text = new StringDecoder('utf8').write(bytes).replaceAll('\u0000', '\uFFFD');
  if (Buffer.byteLength(text) <= limit) return text;
  const codePoints = Array.from(text);
  let size = Buffer.byteLength(text);
  while (size > limit) size -= Buffer.byteLength(codePoints.pop() ?? '');
  text = codePoints.join('');
  return text;
}

function policyMessage(error: unknown): string {
  if (error instanceof AppError) return error.details?.[0]?.message ?? error.message;
  return describeError(error);
}

const ERRNO_MESSAGES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connect timeout',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'client closed',
  UND_ERR_DESTROYED: 'client closed',
  UND_ERR_HEADERS_OVERFLOW: 'response headers too large',
};

function describeError(error: unknown): string {
  if (error instanceof WebhookPolicyError || error instanceof WebhookConnectError) return error.message;
  const err = error as { code?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const message = typeof err?.message === 'string' && err.message ? err.message : String(error);
  if (code && ERRNO_MESSAGES[code]) return ERRNO_MESSAGES[code];
  if (
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    /CERT|SELF_SIGNED|UNABLE_TO_/.test(code)
  ) {
    return `TLS error: ${message}`;
  }
  return message;
}
