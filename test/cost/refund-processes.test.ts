import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { redisUrl } from '../helpers/databases';
import { makeKey, makeProducts, makeStore } from '../helpers/factories';
import { freePort, root } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Issue 32 item 3, done when: the refund across two API processes on Redis. Two real `src/main.ts api`
 * processes share one key's window: each charges the requested cost in its admission script and gives
 * back the difference after execution, and what is left is the budget less the actual costs of every
 * request either process answered — also when their requests interleave.
 */
jest.setTimeout(150_000);

const BUDGET = 500;
let server: TestServer;
const apis: Array<{ child: ChildProcess; url: string }> = [];

/** `npm run start:api`'s entry as its own process, on the test database and the shared Redis. */
async function spawnApi(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'main.ts'), 'api'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: server.databaseUrl,
      REDIS_URL: redisUrl,
      // A loaded CI machine must not make a round trip look like an outage (100 ms by default).
      REDIS_TIMEOUT_MS: '2000',
      COST_BUDGET_POINTS: String(BUDGET),
      COST_BUDGET_WINDOW_SECONDS: '60',
      READ_CACHE_TTL_MS: '0',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on http')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

beforeAll(async () => {
  server = await startTestServer();
  apis.push(...(await Promise.all([spawnApi(), spawnApi()])));
});
afterAll(async () => {
  for (const { child } of apis) child.kill('SIGKILL');
  await server.close();
});

it('gives back the difference in the one window two API processes share', async () => {
  const store = await makeStore(server.prisma);
  await makeProducts(server.prisma, store.id, 3);
  const { secret: key } = await makeKey(server.prisma, store.id);
  const page = '{ products(limit: 100) { items { id name } } }';
  const read = (n: number) =>
    fetch(`${apis[n % 2]?.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'tt-api-key': key },
      body: JSON.stringify({ query: page }),
    });
  const costOf = async (res: Response) =>
    ((await res.json()) as { extensions: { cost: { requestedQueryCost: number; actualQueryCost: number } } })
      .extensions.cost;

  const first = await read(0);
  const { requestedQueryCost: requested, actualQueryCost: actual } = await costOf(first);
  expect(actual).toBeLessThan(requested);
  expect(Number(first.headers.get('x-cost-remaining'))).toBe(BUDGET - actual);

  // Far more pages than the requested cost alone would let through, alternating between the processes
  const pages = 3 * Math.ceil(BUDGET / requested);
  for (let n = 1; n <= pages; n++) {
    const res = await read(n);
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('x-cost-remaining'))).toBe(BUDGET - (n + 1) * actual);
  }

  // Interleaved: each process charges while the other refunds; those that fit their reservation pass
  const burst = await Promise.all(Array.from({ length: 8 }, (_, n) => read(n)));
  const passed = burst.filter((res) => res.status === 200).length;
  expect(passed).toBeGreaterThanOrEqual(Math.min(8, Math.floor((BUDGET - (pages + 1) * actual) / requested)));
  const last = await read(1);
  expect(last.status).toBe(200);
  expect(Number(last.headers.get('x-cost-remaining'))).toBe(BUDGET - (pages + 2 + passed) * actual);
});
