import { type ChildProcess, spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { freePort } from '../helpers/process';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM; nothing is persisted) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** A redis-server of the test's own on a free loopback port, which the test may stop and restart. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = started;
    await untilAnswering(port, started);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, start, stop };
}

async function untilAnswering(port: number, child: ChildProcess) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('error', () => resolve(false));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('connect', () => socket.write('PING\r\n'));
    });
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A TCP proxy to Redis that accepts connections at once but passes nothing either way until `open()`:
 * a Redis whose first handshake is slow to complete.
 */
export async function gatedProxy(
  targetPort: number,
): Promise<{ port: number; open(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const waiting: Array<() => void> = [];
  let opened = false;
  const server: Server = createServer((client) => {
    client.pause();
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    for (const socket of [client, upstream]) socket.on('error', () => {});
    const pass = () => {
      client.pipe(upstream).pipe(client);
      client.resume();
    };
    if (opened) pass();
    else waiting.push(pass);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    open: () => {
      opened = true;
      for (const pass of waiting.splice(0)) pass();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
