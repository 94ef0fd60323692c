import { spawn } from 'node:child_process';
import path from 'node:path';
import { root } from '../helpers/process';

export interface RunningService {
  baseUrl: string;
  output(): string;
  /** Whether the process has exited (with its code or signal). */
  exit(): { code: number | null; signal: NodeJS.Signals | null } | null;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Until /readyz answers 200. */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGTERM, then the exit. */
  stop(): Promise<void>;
  /** SIGKILL (a crash: nothing drains), then the exit. */
  kill(): Promise<void>;
}

/**
 * The service's process entry (src/main.ts, what `npm start` runs once built) as a real child process,
 * run from source so the test needs no build. `port` is where it listens on 127.0.0.1.
 */
export function startServiceProcess(
  args: string[],
  port: number,
  env: Record<string, string>,
): RunningService {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'main.ts'), ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      PORT: String(port),
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    exit: () => exit,
    async waitFor(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output)) {
        if (exit)
          throw new Error(`the service exited (${JSON.stringify(exit)}) before ${pattern}:\n${output}`);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async ready(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exit) throw new Error(`the service exited (${JSON.stringify(exit)}):\n${output}`);
        const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) return;
        if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async stop() {
      if (!exit) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (!exit) child.kill('SIGKILL');
      await exited;
    },
  };
}
