import { connect, type Socket } from 'node:net';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 19 item 6, with raw sockets: a client that is slow with its headers or its body, or holds
 * an idle connection, is cut off by the server's clocks (HTTP_HEADERS_TIMEOUT_MS,
 * HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS) with a coded answer where one can still be
 * given; oversized and malformed requests get their codes too; everyone else is served meanwhile.
 */
jest.setTimeout(60_000);

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await startTestServer({
    HTTP_HEADERS_TIMEOUT_MS: '600',
    HTTP_REQUEST_TIMEOUT_MS: '1200',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '400',
  });
  port = Number(new URL(server.baseUrl).port);
});
afterAll(() => server.close());

/** A raw connection: what it received, and a promise of its close (generous: no timing assertion). */
async function rawSocket(): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still open after 15 s; received: ${text}`)), 15_000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, received: () => text, closed };
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('the HTTP server', () => {
  it('answers headers that never finish 408 REQUEST_TIMEOUT and closes the socket', async () => {
    const raw = await rawSocket();
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(raw.received())).toEqual(expect.objectContaining({ status: 408, code: 'REQUEST_TIMEOUT' }));
  });

  it('closes a connection that never sends a byte', async () => {
    const raw = await rawSocket();
    await raw.closed;
  });

  it('answers a body that stops arriving 408 and closes the socket', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    const raw = await rawSocket();
    raw.socket.write(
      `POST /api/v1/category HTTP/1.1\r\nHost: localhost\r\ntt-api-key: ${secret}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await server.prisma.category.count({ where: { storeId: store.id } })).toBe(0);
  });

  it('closes, without a second answer, a socket whose request was answered before its body arrived', async () => {
    const raw = await rawSocket();
    raw.socket.write(
      'POST /api/v1/category HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(raw.received().match(/HTTP\/1\.1/g)).toHaveLength(1);
  });

  it('closes an idle keep-alive connection after its request was answered', async () => {
    const raw = await rawSocket();
    raw.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await raw.closed;
    expect(raw.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers headers over the limit 431 HEADERS_TOO_LARGE, and garbage 400 MALFORMED_REQUEST', async () => {
    const large = await rawSocket();
    large.socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await large.closed;
    expect(large.received()).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(large.received())).toEqual(
      expect.objectContaining({
        status: 431,
        code: 'HEADERS_TOO_LARGE',
        requestId: expect.stringMatching(/^req_/),
      }),
    );
    const garbage = await rawSocket();
    garbage.socket.write('NOT HTTP AT ALL\r\n\r\n');
    await garbage.closed;
    expect(bodyOf(garbage.received())).toEqual(
      expect.objectContaining({ status: 400, code: 'MALFORMED_REQUEST' }),
    );
  });

  it('serves other clients while slow ones hold their sockets', async () => {
    const slow = await Promise.all(Array.from({ length: 20 }, () => rawSocket()));
    for (const raw of slow) raw.socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n');
    const res = await server.request('/healthz');
    expect(res.status).toBe(200);
    await Promise.all(slow.map((raw) => raw.closed));
  });
});
