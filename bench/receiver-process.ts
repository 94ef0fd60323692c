import { fork } from 'node:child_process';
import { startReceiver } from '../test/webhooks/helpers';

/**
 * The benchmark's HTTPS webhook receiver, in a process of its own as any real receiver would be (it
 * must not share the worker's event loop). It tells its parent its port, and the arrival time of
 * each request to `/latency`; other requests are only answered.
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
  startReceiver((request) => {
    if (request.path === '/latency') process.send?.({ at: request.at });
    return { status: 200, body: 'ok' };
  }).then((receiver) => {
    process.send?.({ port: receiver.port });
    process.on('SIGTERM', () => receiver.close().then(() => process.exit(0)));
  });
}
