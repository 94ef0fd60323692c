// The pieces every multi-process benchmark shares: the load generator in its own process, an app
// process of a given tree, CPU time read from /proc, and a store's keys.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { PrismaClient } from '../prisma/generated/client/client';
import { issueApiKey } from '../src/modules/api-keys/issue';
import { allScopes } from '../test/helpers/factories';
import type { LoadInput, LoadResult } from './load-client';

export type { LoadInput, LoadResult };

/** Runs bench/load-client.ts (closed loop, keep-alive) in a process of its own against one target. */
export function runLoad(input: LoadInput): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'load-client.ts')],
      { maxBuffer: 1 << 20 },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult)),
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

const TICK_MS = 10; // /proc clock ticks (USER_HZ 100)

/** User + system CPU time of a process so far, in ms (`task`: one of its threads). */
export function cpuMsOf(pid: number, task?: number): number {
  const file = task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`;
  const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU time (ms) of a process's threads other than its main one: in node, V8's GC helpers and libuv's pool. */
export function otherThreadsCpuMs(pid: number): number {
  let ms = 0;
  for (const task of readdirSync(`/proc/${pid}/task`).map(Number))
    if (task !== pid) {
      try {
        ms += cpuMsOf(pid, task);
      } catch {
        // a thread that ended meanwhile
      }
    }
  return ms;
}

/**
 * The whole machine's CPU time so far (ms, all cores) from /proc/stat: busy (user, nice, system, irq,
 * softirq, steal) and idle (idle, iowait). What share of the cores a run left idle tells a bench whether
 * its processes were short of CPU or waiting on one another (bench/request-log-cost.ts).
 */
export function machineCpuMs(): { busy: number; idle: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  return { busy: (user + nice + system + irq + softirq + steal) * TICK_MS, idle: (idle + iowait) * TICK_MS };
}

/** Every process's parent and CPU time so far (ms), from /proc/<pid>/stat. */
function processTable(): Map<number, { ppid: number; cpuMs: number }> {
  const table = new Map<number, { ppid: number; cpuMs: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // gone since the listing
    }
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    table.set(Number(entry), {
      ppid: Number(fields[1]),
      cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
    });
  }
  return table;
}

/** CPU time (ms) of a process and every process below it: a node:cluster primary and its workers. */
export function treeCpuMsOf(pid: number): number {
  const table = processTable();
  const below = new Map<number, number[]>();
  for (const [child, { ppid }] of table) below.set(ppid, [...(below.get(ppid) ?? []), child]);
  let total = 0;
  const queue = [pid];
  while (queue.length > 0) {
    const next = queue.pop() as number;
    total += table.get(next)?.cpuMs ?? 0;
    queue.push(...(below.get(next) ?? []));
  }
  return total;
}

export interface AppProcess {
  child: ChildProcess;
  base: string;
  stop(): void;
}

/** One API process of the tree (bench/app-process.ts there) with this environment, on a free port. */
export function startApp(tree: string, env: Record<string, string>): Promise<AppProcess> {
  return startServer(path.join(tree, 'bench/app-process.ts'), { BENCH_APP_ENV: JSON.stringify(env) }, tree);
}

/**
 * A server script in a process of its own (TypeScript through tsx; .cjs as it is), which prints
 * `{ "port": … }` as its first line once it listens and ends when its stdin does.
 */
export async function startServer(
  script: string,
  env: Record<string, string>,
  cwd = path.dirname(script),
): Promise<AppProcess> {
  const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script];
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    child,
    base: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`,
    stop: () => child.stdin?.end(),
  };
}

/** `count` production keys with every scope for the store. */
export async function issueKeys(prisma: PrismaClient, storeId: string, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let k = 0; k < count; k++) {
    const { secret } = await issueApiKey(
      prisma,
      storeId,
      { keyName: `bench ${k}`, environment: 'production', scopes: allScopes() },
      { now: new Date() },
    );
    keys.push(secret);
  }
  return keys;
}

/** The peers (bench/peers: PostGraphile 4 in node_modules of its own, as it needs graphql 15), installed once. */
export function ensurePeersInstalled(): string {
  const peersDir = path.join(__dirname, 'peers');
  if (existsSync(path.join(peersDir, 'node_modules', 'postgraphile'))) return peersDir;
  console.log('installing the peers (bench/peers: npm ci)…');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: peersDir, stdio: 'inherit' });
  return peersDir;
}
