import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildService, freePort, runBuiltCli, type ServiceProcess, startService } from '../helpers/process';

/**
 * Issue 15, as a new user meets it, with real processes: settings from a `.env` file (the
 * environment wins), the start banner, the admin CLI finding the embedded database, Ctrl-C to the
 * whole process group draining cleanly (usage counts written, exit 0, no error line, PostgreSQL
 * stopped last), the second start's banner, and start-up failures as one line each.
 */
jest.setTimeout(240_000);

let dataDir: string;
let envFile: string;
let port: number;
let pgPort: number;
let service: ServiceProcess;
const env = () => ({ ENV_FILE: envFile, LOG_LEVEL: 'info', DATA_DIR: dataDir });

beforeAll(async () => {
  buildService();
  dataDir = await mkdtemp(path.join(tmpdir(), 'commerce-first-hour-'));
  [port, pgPort] = [await freePort(), await freePort()];
  envFile = path.join(dataDir, 'settings.env');
  // The file sets the ports; its LOG_LEVEL loses to the environment's.
  await writeFile(
    envFile,
    [`PORT=${port}`, 'HOST=127.0.0.1', `EMBEDDED_PG_PORT=${pgPort}`, 'LOG_LEVEL=silent', ''].join('\n'),
  );
});
/** A test that failed half-way leaves no service behind for the next (it would hold the ports). */
async function stopLeftover() {
  if (service?.child.exitCode === null && service.child.signalCode === null) {
    process.kill(service.child.pid as number, 'SIGTERM');
    await service.exited;
  }
}
afterAll(async () => {
  await stopLeftover();
  await rm(dataDir, { recursive: true, force: true });
});

/** Log lines at error level or above (pino's JSON: level ≥ 50). */
const errorLines = (output: string) =>
  output.split('\n').filter((line) => /^\{.*"level":(5\d|60)/.test(line));

const postgresRunningOn = (dir: string) => {
  try {
    return (
      execFileSync('pgrep', ['-f', `postgres -D ${path.join(dir, 'postgres')}`])
        .toString()
        .trim() !== ''
    );
  } catch {
    return false;
  }
};

describe('the first start', () => {
  let key: string;

  it('reads .env, prints the key once and a banner with every URL, the data directory and Redis', async () => {
    service = startService([], env(), { group: true });
    key = (await service.waitFor(/Demo API key[^\n]*: (tt_[0-9a-f]{64})/, 120_000))[1] as string;
    await service.waitFor(/is running/);
    // LOG_LEVEL=info from the environment beat the file's silent.
    await service.waitFor(/"msg":"listening on http/);
    const base = `http://127.0.0.1:${port}`;
    const text = service.output();
    for (const line of [
      `Dashboard  ${base}/   sign in as owner@demo.store`,
      `GraphQL    ${base}/graphql`,
      `REST       ${base}/api/v1   reference: ${base}/docs`,
      `MCP        ${base}/mcp`,
      `Database   embedded PostgreSQL, data in ${dataDir} (127.0.0.1:${pgPort})`,
      'Redis      not configured',
    ])
      expect(text).toContain(line);
    const res = await fetch(`${base}/api/v1/category`, { headers: { 'tt-api-key': key } });
    expect(res.status).toBe(200);
  });

  it('lets the CLI find the embedded database with the same settings, and list the stores', async () => {
    const listed = await runBuiltCli(['store', 'list'], env());
    expect(listed).toEqual(expect.objectContaining({ code: 0, stderr: '' }));
    expect(listed.stdout).toMatch(/^ID\s+NAME\s+PLAN\s+STATUS\s+OWNER/);
    expect(listed.stdout).toMatch(/str_\w+\s+Demo Outfitters\s+PRO\s+ACTIVE\s+owner@demo\.store/);
  });

  it('drains on Ctrl-C to the whole process group: usage written, exit 0, no error line, PostgreSQL stopped last', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/product?limit=1`, {
        headers: { 'tt-api-key': key },
      });
      expect(res.status).toBe(200);
    }
    // As a terminal does: every process of the foreground group gets SIGINT (the embedded
    // PostgreSQL runs in a group of its own and must not).
    process.kill(-(service.child.pid as number), 'SIGINT');
    expect(await service.exited).toBe(0);
    const output = service.output();
    expect(output).toMatch(/SIGINT received: draining/);
    expect(output).toMatch(/usage counts of 1 key\(s\) written/);
    expect(output).toMatch(/"msg":"stopped"/);
    expect(errorLines(output)).toEqual([]);
    expect(postgresRunningOn(dataDir)).toBe(false);
  });

  it('has the CLI say in one line that the embedded database is not running', async () => {
    const result = await runBuiltCli(['store', 'list'], env());
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      `Error: The embedded database under ${dataDir} is not running: start the service (\`npm start\`) in another terminal first, or set DATABASE_URL`,
    ]);
  });
});

describe('the second start', () => {
  beforeAll(stopLeftover);
  it('prints no key but the CLI command that makes one; the usage counted before Ctrl-C was kept', async () => {
    service = startService([], env(), { group: true });
    await service.waitFor(/is running/, 120_000);
    const text = service.output();
    expect(text).not.toMatch(/Demo API key/);
    const hint = text.match(
      /API key\s+the demo key was printed on the first start; a new one: (npm run cli -- key create --store (str_\w+)[^\n]*)/,
    );
    expect(hint).not.toBeNull();
    const storeId = hint?.[2] as string;
    const keys = await runBuiltCli(['key', 'list', '--store', storeId, '--json'], env());
    expect(keys.code).toBe(0);
    const [demoKey] = JSON.parse(keys.stdout).keys as Array<{ usageCount: number }>;
    expect(demoKey?.usageCount).toBeGreaterThanOrEqual(4);
    process.kill(-(service.child.pid as number), 'SIGTERM');
    expect(await service.exited).toBe(0);
  });
});

describe('a start that cannot finish', () => {
  beforeAll(stopLeftover);
  it('names a port in use in one line, exits 1, and leaves no PostgreSQL running', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      service = startService([], env());
      expect(await service.exited).toBe(1);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
    const stderrLines = service
      .output()
      .split('\n')
      .filter((line) => line.startsWith('Error: '));
    expect(stderrLines).toEqual([
      `Error: Port ${port} on 127.0.0.1 is already in use: stop the other process, or set PORT`,
    ]);
    expect(service.output()).not.toMatch(/^\s+at /m);
    expect(postgresRunningOn(dataDir)).toBe(false);
  });

  it('names a database that refuses the login, and one that is not there', async () => {
    const cases: Array<[url: string, message: string]> = [
      [
        'postgresql://nobody:wrong@127.0.0.1:5432/postgres',
        'Error: The database at 127.0.0.1:5432 refused the login of user "nobody": fix the user and password in DATABASE_URL',
      ],
      [
        `postgresql://postgres@127.0.0.1:${pgPort}/commerce`,
        `Error: No PostgreSQL answers at 127.0.0.1:${pgPort}: start it, or fix the host and port in DATABASE_URL`,
      ],
    ];
    for (const [url, message] of cases) {
      service = startService([], { ...env(), DATABASE_URL: url });
      expect(await service.exited).toBe(1);
      expect(
        service
          .output()
          .split('\n')
          .filter((line) => line.startsWith('Error: ')),
      ).toEqual([message]);
      expect(service.output()).not.toMatch(/^\s+at /m);
    }
  });
});
