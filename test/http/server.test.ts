import { Agent, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { listen } from '../../src/http/server';

describe("the app's HTTP server", () => {
  const app = express();
  app.set('query parser', 'simple');
  app.get('/echo/:name', (req, res) => {
    res.status(201).json({ path: req.path, name: req.params.name, q: req.query.q, host: req.hostname });
  });
  let server: Server;
  let base: string;
  const arrived: Array<{ req: object | null; res: object | null; port: number | undefined }> = [];
  // V8's own answer to whether an object keeps fast (shape-based) properties or fell back to a
  // dictionary, which makes every property access on it slow.
  setFlagsFromString('--allow-natives-syntax');
  const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (
    o: object,
  ) => boolean;
  const fast: boolean[] = [];
  app.get('/fast', (req, res) => {
    fast.push(hasFastProperties(req), hasFastProperties(res));
    res.end();
  });

  beforeAll(async () => {
    server = await listen(app, 0, '127.0.0.1');
    // Runs before express sees the request: what the objects were born with.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      arrived.push({
        req: Object.getPrototypeOf(req),
        res: Object.getPrototypeOf(res),
        port: req.socket.remotePort,
      });
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("makes requests and responses with the app's prototypes, so express never swaps them", async () => {
    const res = await fetch(`${base}/echo/ada?q=1`);
    expect(arrived.at(-1)?.req).toBe(app.request);
    expect(arrived.at(-1)?.res).toBe(app.response);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ path: '/echo/ada', name: 'ada', q: '1', host: '127.0.0.1' });
  });

  it('keeps fast properties on requests and responses', async () => {
    for (let i = 0; i < 3; i++) await fetch(`${base}/fast`);
    expect(fast).toEqual([true, true, true, true, true, true]);
  });

  it('serves keep-alive requests one after another on one connection', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        request(`${base}${path}`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    try {
      for (let i = 0; i < 3; i++) expect(await get(`/echo/n${i}`)).toBe(201);
    } finally {
      agent.destroy();
    }
    const last = arrived.slice(-3);
    expect(last.every((each) => each.req === app.request && each.res === app.response)).toBe(true);
    expect(new Set(last.map((each) => each.port)).size).toBe(1);
  });

  it('rejects when the port is taken', async () => {
    const port = (server.address() as AddressInfo).port;
    await expect(listen(express(), port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
  });
});
