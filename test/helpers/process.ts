import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

export const root = path.join(__dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

/**
 * Compiles the service as `npm run build` does (npm ci runs it), once per jest run: the first test
 * file to ask builds under a lock (dist/.building) and stamps dist with the run's id; the others wait
 * for the lock and find the stamp. Three e2e files had each compiled it (~6 s of CPU, 20 s on a busy
 * machine), and a compile could rewrite dist/ under another file's running service.
 */
export function buildService(): void {
  const dist = path.join(root, 'dist');
  const stamp = path.join(dist, '.built-for-test-run');
  const lock = path.join(dist, '.building');
  // Set by global-setup for the run; without it (no jest run around), it builds every time.
  const run = process.env.COMMERCE_TEST_BUILD;
  const built = () => run !== undefined && existsSync(stamp) && readFileSync(stamp, 'utf8') === run;
  mkdirSync(dist, { recursive: true });
  for (;;) {
    if (built()) return;
    try {
      mkdirSync(lock);
    } catch {
      // A lock left by a run that was killed mid-build is taken over after five minutes.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 300_000) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      continue;
    }
    try {
      if (built()) return;
      execFileSync(
        process.execPath,
        [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
        { cwd: root, stdio: 'inherit' },
      );
      if (run !== undefined) writeFileSync(stamp, run);
      return;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * Runs the built `dist/src/main.js` (what `npm start` runs) as a child process with its own environment.
 * `group`: the child leads a process group of its own, so a test can signal the whole group as a
 * terminal's Ctrl-C does (process.kill(-pid, 'SIGINT')).
 */
export function startService(
  args: string[],
  env: Record<string, string>,
  options: { group?: boolean } = {},
): ServiceProcess {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.group ?? false,
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        check();
        void exited.then(() => {
          if (listeners.has(check)) {
            listeners.delete(check);
            clearTimeout(timer);
            reject(new Error(`process exited before ${pattern}; output:\n${output}`));
          }
        });
      });
    },
  };
}

/** Runs the built admin CLI (`dist/src/cli/index.js`) to completion: its exit code and output. */
export function runBuiltCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'dist', 'src', 'cli', 'index.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}
