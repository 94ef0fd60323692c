import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './process';

/** Redis Cluster's slots, split over the three primaries as `redis-cli --cluster create` does. */
const SLOT_RANGES: Array<[number, number]> = [
  [0, 5460],
  [5461, 10922],
  [10923, 16383],
];

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
    mkdirSync(nodeDir, { recursive: true });
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
      return (await command(port, 'PING').catch(() => '')) === 'PONG';
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
    // What `redis-cli --cluster create … --cluster-replicas 0` does (no redis-cli needed): each
    // primary takes its slots, then the first meets the others.
    for (const [index, [from, to]] of SLOT_RANGES.entries())
      await command(ports[index]!.port, 'CLUSTER', 'ADDSLOTSRANGE', from, to);
    for (const { port, bus } of ports.slice(1))
      await command(ports[0]!.port, 'CLUSTER', 'MEET', '127.0.0.1', port, bus);
    await until(async () => {
      const infos = await Promise.all(ports.map(({ port }) => command(port, 'CLUSTER', 'INFO')));
      return infos.every(
        (info) => info.includes('cluster_state:ok') && info.includes('cluster_known_nodes:3'),
      );
    }, 'the cluster to be ok on every node');
    return {
      nodes,
      stopNode,
      async startNode(index) {
        await startNode(index);
        const { port } = ports[index]!;
        await until(
          async () => (await command(port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
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

/** One command to one node, on a connection of its own. */
async function command(port: number, name: string, ...args: Array<string | number>): Promise<string> {
  const redis = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return String(await redis.call(name, ...args));
  } finally {
    redis.disconnect();
  }
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
