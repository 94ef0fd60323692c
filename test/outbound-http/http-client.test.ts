import { readFileSync } from 'node:fs';
import { createServer as createPlainServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server } from 'node:https';
import net from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import {
  createPolicyConnector,
  createWebhookHttpClient,
  type DeliveryRequest,
  decodeLimited,
  type WebhookHttpClient,
} from '../../src/outbound-http/http-client';
import { assertWebhookUrl, type LookupFn } from '../../src/outbound-http/url-policy';

// Every socket in this file is on 127.0.0.1. Public addresses appear only in stub DNS answers that
// the policy refuses (or that only assertWebhookUrl sees), so nothing is ever sent off the machine.
// A guard on net.connect makes sure of it even if the policy regressed: any other destination
// throws instead of connecting, and the suite checks the guard never fired.
const realConnect = net.connect;
const offMachineAttempts: string[] = [];
const LOOPBACK = new Set(['127.0.0.1', '::1']);
const networkGuard = jest.spyOn(net, 'connect').mockImplementation(((...args: unknown[]) => {
  const options = args[0] as { host?: string } | undefined;
  const host = typeof options === 'object' && options !== null ? options.host : String(args[1]);
  if (!host || !LOOPBACK.has(host)) {
    offMachineAttempts.push(String(host));
    throw new Error(`test network guard: refused to connect to ${host}`);
  }
  return (realConnect as (...a: unknown[]) => net.Socket)(...args);
}) as typeof net.connect);

const tlsDir = join(__dirname, '..', 'fixtures', 'tls');
const key = readFileSync(join(tlsDir, 'receiver.key'));
const cert = readFileSync(join(tlsDir, 'receiver.crt'));

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
  servername: string | false | null | undefined;
}

/** A local HTTPS server that records every request and counts every TCP connection. */
class Receiver {
  readonly requests: Received[] = [];
  connections = 0;
  readonly server: Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void = okHandler) {
    this.server = createHttpsServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.requests.push({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body,
          servername: (req.socket as TLSSocket).servername,
        });
        handler(req, res, body);
      });
    });
    this.server.on('connection', (socket: net.Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  get hits(): number {
    return this.requests.length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function okHandler(_req: IncomingMessage, res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
}

const stubLookup =
  (...addresses: string[]): LookupFn =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

let receiver: Receiver;
let redirectTarget: Receiver;
let canary: Receiver;
let closedPort: number;
let client: WebhookHttpClient;
const timers = new Set<NodeJS.Timeout>();

const delivery = (url: string, extra: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  url,
  headers: {},
  body: '{"id":"evt_1"}',
  timeoutMs: 5000,
  ...extra,
});

beforeAll(async () => {
  redirectTarget = await new Receiver().listen();
  canary = await new Receiver().listen();
  receiver = await new Receiver((req, res) => {
    const later = (ms: number, fn: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    };
    switch (req.url) {
      case '/fail':
        res.writeHead(500).end('boom');
        return;
      case '/redirect':
        res.writeHead(307, { location: `https://127.0.0.1:${redirectTarget.port}/landing` }).end();
        return;
      case '/slow':
        later(3000, () => res.writeHead(200).end('too late'));
        return;
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        later(3000, () => res.end(' rest'));
        return;
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(1024 * 1024, 'a'));
        return;
      case '/utf8':
        // 1 ASCII byte, then 2-byte characters: byte 1024 falls in the middle of one.
        res.writeHead(200).end(`x${'é'.repeat(1000)}`);
        return;
      case '/nul':
        res.writeHead(202).end('a\u0000b');
        return;
      default:
        okHandler(req, res);
    }
  }).listen();
  const tcp = net.createServer();
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  closedPort = (tcp.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
  client = createWebhookHttpClient({ ca: cert, allowHosts: ['127.0.0.1'] });
});

afterAll(async () => {
  expect(offMachineAttempts).toEqual([]);
  expect(networkGuard).toHaveBeenCalled(); // the guard was really in the client's path
  networkGuard.mockRestore();
  for (const timer of timers) clearTimeout(timer);
  await client.close();
  await Promise.all([receiver.close(), redirectTarget.close(), canary.close()]);
});

const at = (path: string) => `https://127.0.0.1:${receiver.port}${path}`;

describe('webhook HTTP client: deliveries to an allowed local receiver', () => {
  test('2xx is a success, with the response body', async () => {
    const response = await client.post(delivery(at('/ok')));
    expect(response).toEqual({
      ok: true,
      httpStatus: 200,
      responseBody: 'received',
      errorMessage: null,
      durationMs: expect.any(Number),
    });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
  });

  test('headers and body arrive intact; POST, JSON content type, the service User-Agent', async () => {
    const body = JSON.stringify({
      id: 'dlv_1',
      type: 'order.placed',
      data: { object: { name: 'Café ☕ 𝄞' } },
    });
    const before = receiver.hits;
    const response = await client.post(
      delivery(at('/echo?x=1'), {
        body,
        headers: {
          'X-Service-Signature': 't=1700000000,v1=abc123',
          'X-Service-Event': 'order.placed',
          'X-Service-Delivery': 'dlv_1',
          'webhook-id': 'dlv_1',
          'Content-Type': 'text/plain', // the client owns these
          Host: 'evil.example',
          'Content-Length': '1',
        },
      }),
    );
    expect(response.ok).toBe(true);
    expect(receiver.hits).toBe(before + 1);
    const received = receiver.requests.at(-1)!;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/echo?x=1');
    expect(received.body).toBe(body);
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'x-service-signature': 't=1700000000,v1=abc123',
      'x-service-event': 'order.placed',
      'x-service-delivery': 'dlv_1',
      'webhook-id': 'dlv_1',
      host: `127.0.0.1:${receiver.port}`,
      'content-length': String(Buffer.byteLength(body)),
    });
  });

  test('a configured User-Agent replaces the default', async () => {
    const custom = createWebhookHttpClient({ ca: cert, allowHosts: ['127.0.0.1'], userAgent: 'Custom/2.0' });
    try {
      expect((await custom.post(delivery(at('/ua')))).ok).toBe(true);
      expect(receiver.requests.at(-1)?.headers['user-agent']).toBe('Custom/2.0');
    } finally {
      await custom.close();
    }
  });

  test('500 is a failure with its status and body', async () => {
    const response = await client.post(delivery(at('/fail')));
    expect(response).toMatchObject({
      ok: false,
      httpStatus: 500,
      responseBody: 'boom',
      errorMessage: 'HTTP 500',
    });
  });

  test('307 is a failure and the Location is not followed', async () => {
    const response = await client.post(delivery(at('/redirect')));
    expect(response).toMatchObject({
      ok: false,
      httpStatus: 307,
      errorMessage: 'redirect (307) not followed',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(redirectTarget.hits).toBe(0);
    expect(redirectTarget.connections).toBe(0);
  });

  test('a slow server hits the total deadline: no HTTP status, a timeout message', async () => {
    const started = Date.now();
    const response = await client.post(delivery(at('/slow'), { timeoutMs: 200 }));
    expect(response).toMatchObject({
      ok: false,
      httpStatus: 0,
      responseBody: '',
      errorMessage: 'timeout after 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(response.durationMs).toBeGreaterThanOrEqual(150);
  });

  test('the deadline covers the body too', async () => {
    const response = await client.post(delivery(at('/slow-body'), { timeoutMs: 300 }));
    expect(response.ok).toBe(false);
    expect(response.httpStatus).toBe(200);
    expect(response.errorMessage).toBe('timeout after 300 ms (response body incomplete)');
    expect(response.durationMs).toBeLessThan(2000);
  });

  test('connection refused: no HTTP status', async () => {
    const response = await client.post(delivery(`https://127.0.0.1:${closedPort}/`));
    expect(response).toMatchObject({ ok: false, httpStatus: 0, errorMessage: 'connection refused' });
  });

  test('a 1 MB response keeps exactly 1024 bytes', async () => {
    const response = await client.post(delivery(at('/big')));
    expect(response.ok).toBe(true);
    expect(Buffer.byteLength(response.responseBody)).toBe(1024);
    expect(response.responseBody).toBe('a'.repeat(1024));
    // The client is still usable afterwards (the truncated connection was dropped, not reused).
    expect((await client.post(delivery(at('/ok')))).responseBody).toBe('received');
  });

  test('the body is cut on a UTF-8 character boundary', async () => {
    const response = await client.post(delivery(at('/utf8')));
    expect(response.responseBody).toBe(`x${'é'.repeat(511)}`);
    expect(Buffer.byteLength(response.responseBody)).toBe(1023);
    expect(response.responseBody).not.toContain('\uFFFD');
  });

  test('NUL in the body is replaced (PostgreSQL text cannot hold it)', async () => {
    const response = await client.post(delivery(at('/nul')));
    expect(response).toMatchObject({ ok: true, httpStatus: 202, responseBody: 'a\uFFFDb' });
  });

  test('an untrusted certificate is a TLS failure', async () => {
    const strict = createWebhookHttpClient({ allowHosts: ['127.0.0.1'] }); // system roots only
    try {
      const before = receiver.hits;
      const response = await strict.post(delivery(at('/ok')));
      expect(response.ok).toBe(false);
      expect(response.httpStatus).toBe(0);
      expect(response.errorMessage).toMatch(/^TLS error: /);
      expect(receiver.hits).toBe(before);
    } finally {
      await strict.close();
    }
  });

  test('never throws: malformed input becomes a failed response', async () => {
    expect(await client.post(delivery('ftp://files.example.com/'))).toMatchObject({
      ok: false,
      httpStatus: 0,
      errorMessage: 'must be an https:// URL',
    });
    expect(await client.post(delivery(undefined as unknown as string))).toMatchObject({
      ok: false,
      httpStatus: 0,
    });
    expect(
      await client.post(delivery(at('/ok'), { headers: { 'x-bad': 'a\r\nInjected: 1' } })),
    ).toMatchObject({
      ok: false,
      httpStatus: 0,
    });
  });
});

describe('webhook HTTP client: SSRF defence at connect time', () => {
  const canaryUrl = (host: string) => `https://${host}:${canary.port}/hook`;

  afterEach(() => {
    expect(canary.connections).toBe(0);
    expect(canary.hits).toBe(0);
  });

  test('an IP literal that is not allowed is refused before connecting', async () => {
    const strict = createWebhookHttpClient({ ca: cert });
    try {
      const response = await strict.post(delivery(canaryUrl('127.0.0.1')));
      expect(response).toMatchObject({
        ok: false,
        httpStatus: 0,
        responseBody: '',
        errorMessage: 'host 127.0.0.1 is not allowed (loopback)',
      });
    } finally {
      await strict.close();
    }
  });

  test('the connect step itself refuses an IP literal that is not allowed', async () => {
    const connect = createPolicyConnector({
      allowHosts: undefined,
      lookup: stubLookup(),
      ca: cert,
      connectTimeoutMs: 2000,
    });
    const error = await new Promise<Error | null>((resolve) =>
      connect({ hostname: '127.0.0.1', protocol: 'https:', port: String(canary.port) }, (err, socket) => {
        socket?.destroy();
        resolve(err);
      }),
    );
    expect(error?.message).toBe('address 127.0.0.1 is not allowed (loopback)');
  });

  test('a name resolving to loopback is refused; the canary is never reached', async () => {
    const lookup = jest.fn(stubLookup('127.0.0.1'));
    const strict = createWebhookHttpClient({ ca: cert, lookup });
    try {
      const response = await strict.post(delivery(canaryUrl('hooks.example.com')));
      expect(response).toMatchObject({
        ok: false,
        httpStatus: 0,
        errorMessage: 'address 127.0.0.1 is not allowed (loopback)',
      });
      expect(lookup).toHaveBeenCalledWith('hooks.example.com');
    } finally {
      await strict.close();
    }
  });

  test('DNS rebinding: public when the URL is checked, loopback at delivery', async () => {
    let calls = 0;
    const lookup: LookupFn = async () => {
      calls += 1;
      return calls === 1 ? [{ address: '93.184.216.34', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
    };
    const url = canaryUrl('hooks.example.com');
    await expect(assertWebhookUrl(url, { lookup })).resolves.toBeUndefined();
    expect(calls).toBe(1);
    const strict = createWebhookHttpClient({ ca: cert, lookup });
    try {
      const response = await strict.post(delivery(url));
      expect(response).toMatchObject({
        ok: false,
        httpStatus: 0,
        errorMessage: 'address 127.0.0.1 is not allowed (loopback)',
      });
      expect(calls).toBe(2);
    } finally {
      await strict.close();
    }
  });

  test.each([
    ['[public, loopback]', ['93.184.216.34', '127.0.0.1'], 'address 127.0.0.1 is not allowed (loopback)'],
    ['[loopback, public]', ['127.0.0.1', '93.184.216.34'], 'address 127.0.0.1 is not allowed (loopback)'],
    [
      'IPv4-mapped loopback',
      ['::ffff:127.0.0.1'],
      'address ::ffff:127.0.0.1 is not allowed (IPv4-mapped IPv6)',
    ],
    ['IPv6 loopback', ['::1'], 'address ::1 is not allowed (loopback)'],
    ['metadata', ['169.254.169.254'], 'address 169.254.169.254 is not allowed (cloud metadata service)'],
  ])('a name resolving to %s is refused as a whole', async (_what, addresses, message) => {
    const strict = createWebhookHttpClient({ ca: cert, lookup: stubLookup(...addresses) });
    try {
      const response = await strict.post(delivery(canaryUrl('hooks.example.com')));
      expect(response).toMatchObject({ ok: false, httpStatus: 0, errorMessage: message });
    } finally {
      await strict.close();
    }
  });

  test('a name that does not resolve: no HTTP status, a DNS message', async () => {
    const nxdomain: LookupFn = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.com'), { code: 'ENOTFOUND' });
    };
    const strict = createWebhookHttpClient({ ca: cert, lookup: nxdomain });
    try {
      expect(await strict.post(delivery(canaryUrl('hooks.example.com')))).toMatchObject({
        ok: false,
        httpStatus: 0,
        errorMessage: 'DNS lookup failed for hooks.example.com (ENOTFOUND)',
      });
    } finally {
      await strict.close();
    }
  });

  test('names refused by the URL policy are refused at delivery too', async () => {
    const lookup = jest.fn(stubLookup('127.0.0.1'));
    const strict = createWebhookHttpClient({ ca: cert, lookup });
    try {
      for (const host of ['localhost', 'receiver.test', 'metadata.google.internal']) {
        const response = await strict.post(delivery(canaryUrl(host)));
        expect(response).toMatchObject({ ok: false, httpStatus: 0 });
      }
      expect(lookup).not.toHaveBeenCalled();
    } finally {
      await strict.close();
    }
  });
});

describe('webhook HTTP client: allowHosts with a resolved name', () => {
  test('an allowed name resolved to 127.0.0.1 is delivered, with SNI and certificate checked for the name', async () => {
    const lookup = jest.fn(stubLookup('127.0.0.1'));
    const allowed = createWebhookHttpClient({ ca: cert, lookup, allowHosts: ['hooks.example.com'] });
    try {
      const before = receiver.hits;
      const response = await allowed.post(delivery(`https://hooks.example.com:${receiver.port}/named`));
      expect(response).toMatchObject({ ok: true, httpStatus: 200, responseBody: 'received' });
      expect(receiver.hits).toBe(before + 1);
      const received = receiver.requests.at(-1)!;
      expect(received.servername).toBe('hooks.example.com');
      expect(received.headers.host).toBe(`hooks.example.com:${receiver.port}`);
      expect(lookup).toHaveBeenCalledWith('hooks.example.com');
    } finally {
      await allowed.close();
    }
  });

  test('a name the certificate does not cover fails verification', async () => {
    const allowed = createWebhookHttpClient({
      ca: cert,
      lookup: stubLookup('127.0.0.1'),
      allowHosts: ['wrong-name.example.org'],
    });
    try {
      const before = receiver.hits;
      const response = await allowed.post(delivery(`https://wrong-name.example.org:${receiver.port}/`));
      expect(response.ok).toBe(false);
      expect(response.httpStatus).toBe(0);
      expect(response.errorMessage).toMatch(/^TLS error: .*wrong-name\.example\.org/);
      expect(receiver.hits).toBe(before);
    } finally {
      await allowed.close();
    }
  });

  test('an allow-list entry with a port allows that port only', async () => {
    const allowed = createWebhookHttpClient({ ca: cert, allowHosts: [`127.0.0.1:${receiver.port}`] });
    try {
      expect((await allowed.post(delivery(at('/ok')))).ok).toBe(true);
      const other = await allowed.post(delivery(`https://127.0.0.1:${canary.port}/`));
      expect(other).toMatchObject({ ok: false, httpStatus: 0 });
      expect(canary.connections).toBe(0);
    } finally {
      await allowed.close();
    }
  });
});

describe('webhook HTTP client: plain http:// for the allow-list only', () => {
  test('delivers over plain HTTP to a listed host (a local receiver), and refuses it to any other', async () => {
    const bodies: string[] = [];
    const plain = createPlainServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString());
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const port = (plain.address() as net.AddressInfo).port;
    const listed = createWebhookHttpClient({ allowHosts: [`127.0.0.1:${port}`] });
    const unlisted = createWebhookHttpClient({ allowHosts: ['127.0.0.1:1'] });
    try {
      const sent = await listed.post(delivery(`http://127.0.0.1:${port}/hooks`));
      expect(sent).toMatchObject({ ok: true, httpStatus: 200, responseBody: 'ok' });
      expect(bodies).toHaveLength(1);
      const refused = await unlisted.post(delivery(`http://127.0.0.1:${port}/hooks`));
      expect(refused).toMatchObject({ ok: false, httpStatus: 0 });
      expect(bodies).toHaveLength(1);
    } finally {
      await Promise.all([listed.close(), unlisted.close()]);
      await new Promise((resolve) => plain.close(resolve));
    }
  });

  test('the connect step refuses plain HTTP to a host that is not listed', async () => {
    const connect = createPolicyConnector({
      allowHosts: undefined,
      lookup: stubLookup('127.0.0.1'),
      ca: undefined,
      connectTimeoutMs: 1000,
    });
    const refusal = await new Promise<Error | null>((resolve) => {
      const options = { hostname: '127.0.0.1', host: '127.0.0.1', protocol: 'http:', port: '80' };
      connect(options as never, (...args: [Error | null, unknown?]) => resolve(args[0]));
    });
    expect(refusal?.message).toMatch(/only https/);
  });
});

describe('webhook HTTP client: lifecycle and helpers', () => {
  test('close() closes the agent; later posts fail without throwing', async () => {
    const shortLived = createWebhookHttpClient({ ca: cert, allowHosts: ['127.0.0.1'] });
    expect((await shortLived.post(delivery(at('/ok')))).ok).toBe(true);
    await shortLived.close();
    await shortLived.close();
    expect(await shortLived.post(delivery(at('/ok')))).toMatchObject({
      ok: false,
      httpStatus: 0,
      errorMessage: 'client closed',
    });
  });

  test('decodeLimited keeps at most the limit in UTF-8 bytes', () => {
    expect(decodeLimited(Buffer.from('hello'), 1024)).toBe('hello');
    expect(decodeLimited(Buffer.from('€€'), 4)).toBe('€'); // 6 bytes → the whole first character only
    expect(decodeLimited(Buffer.from('€€').subarray(0, 4), 4)).toBe('€'); // incomplete tail dropped
    const invalid = decodeLimited(Buffer.alloc(1024, 0xff), 1024); // each invalid byte is U+FFFD (3 bytes)
    expect(Buffer.byteLength(invalid)).toBeLessThanOrEqual(1024);
    expect(decodeLimited(Buffer.from('😀😀'), 5)).toBe('😀'); // no lone surrogate
  });
});
