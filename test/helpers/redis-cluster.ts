import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './process';

const run = promisify(execFile);

export interface RedisCluster {
  /** The primaries as REDIS_CLUSTER_NODES takes them ("127.0.0.1:port"). */
  nodes: string[];
  /** Stops one primary (SIGTERM, nothing persisted but its nodes file) and waits for it to exit. */
  stopNode(index: number): Promise<void>;
  /** Starts a stopped primary again: it rejoins with its slots (from its nodes file), empty. */
  startNode(index: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Redis Cluster of three primaries on free loopback ports, each in its own directory of a temporary
 * one (no replicas, no persistence). `cluster-require-full-coverage no`, as README "Redis Cluster"
 * advises: while a primary is down, the others keep serving their slots.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-cluster-'));
  const ports: Array<{ port: number; bus: number }> = [];
  for (let i = 0; i < 3; i++) ports.push({ port: await freePort(), bus: await freePort() });
  const children: Array<ChildProcess | null> = [null, null, null];

  const startNode = async (index: number) => {
    const { port, bus } = ports[index]!;
    const nodeDir = path.join(dir, String(port));
    await run('mkdir', ['-p', nodeDir]);
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--cluster-port',
        String(bus),
        '--bind',
        '127.0.0.1',
        '--dir',
        nodeDir,
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        '2000',
        '--cluster-require-full-coverage',
        'no',
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    children[index] = child;
    await until(async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return (await cli(port, 'ping').catch(() => '')) === 'PONG';
    }, `redis-server on port ${port} to answer`);
  };
  const stopNode = async (index: number) => {
    const child = children[index];
    children[index] = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const stop = async () => {
    for (let i = 0; i < 3; i++) await stopNode(i);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await Promise.all([0, 1, 2].map(startNode));
    const nodes = ports.map(({ port }) => `127.0.0.1:${port}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    await until(async () => {
      const infos = await Promise.all(ports.map(({ port }) => cli(port, 'cluster', 'info')));
      return infos.every((info) => info.includes('cluster_state:ok'));
    }, 'the cluster to be ok on every node');
    return {
      nodes,
      stopNode,
      async startNode(index) {
        await startNode(index);
        const { port } = ports[index]!;
        await until(
          async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'),
          `port ${port} to rejoin the cluster`,
        );
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout.trim();
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
