import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * The benchmark's HTTPS webhook receiver, in a process of its own as any real receiver would be (it
 * must not share the worker's event loop). It tells its parent its port, and the arrival time of
 * each request to `/latency`; other requests are read whole and answered `200 ok`, nothing kept (the
 * tests' receiver keeps every request, which is not what is measured here).
 */
export interface ReceiverProcess {
  url(pathname: string): string;
  /** The arrival time (ms since epoch) of the next request to /latency. */
  nextLatencyArrival(): Promise<number>;
  close(): Promise<void>;
}

export async function startReceiverProcess(): Promise<ReceiverProcess> {
  const child = fork(__filename, ['--serve'], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const arrivals: number[] = [];
  const waiting: Array<(at: number) => void> = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: { port?: number; at?: number }) => {
      if (message.port !== undefined) resolve(message.port);
      if (message.at !== undefined) {
        const waiter = waiting.shift();
        if (waiter) waiter(message.at);
        else arrivals.push(message.at);
      }
    });
  });
  return {
    url: (pathname) => `https://127.0.0.1:${port}${pathname}`,
    nextLatencyArrival: () => {
      const ready = arrivals.shift();
      return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv.includes('--serve') && process.send) {
  const tls = path.join(__dirname, '..', 'test', 'fixtures', 'tls');
  const server = createServer(
    { key: readFileSync(path.join(tls, 'receiver.key')), cert: readFileSync(path.join(tls, 'receiver.crt')) },
    (req, res) => {
      const at = Date.now();
      req.resume();
      req.on('end', () => {
        if (req.url === '/latency') process.send?.({ at });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      });
    },
  );
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
