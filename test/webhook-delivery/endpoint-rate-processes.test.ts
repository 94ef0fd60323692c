import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { redisUrl } from '../helpers/databases';
import { root } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  createCategory,
  eventually,
  jsonHeaders,
  mostInOneSecond,
  type Receiver,
  serverEnv,
  startReceiver,
  storeWithEndpoint,
} from '../helpers/webhooks';

/**
 * Issue 31 item 2 with the operator's shape: two `npm run start:worker` processes (src/main.ts worker),
 * each with its own PostgreSQL pool and Redis connection, deliver to one 3-per-second endpoint. The
 * receiver, a local HTTPS server, never sees more than 3 requests in any second; each delivery
 * arrives once, on its first attempt. (endpoint-rate.test.ts holds the same property with three
 * in-process workers and shows it failing without the gate.)
 */
jest.setTimeout(120_000);

const RATE = 3;
const EVENTS = 12;
let server: TestServer;
let receiver: Receiver;
const children: ChildProcess[] = [];

function spawnWorker(): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'main.ts'), 'worker'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: server.databaseUrl,
      REDIS_URL: redisUrl,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      NODE_EXTRA_CA_CERTS: path.join(root, 'test', 'fixtures', 'tls', 'receiver.crt'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  children.push(child);
  const ready = eventually(async () => output.includes('worker running'), 60_000).then(() => undefined);
  return { child, ready };
}

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver(() => ({ status: 200 }));
});
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null,
    ),
  );
  await receiver.close();
  await server.close();
});

it(`two worker processes deliver ${EVENTS} events to a ${RATE}-per-second endpoint with at most ${RATE} in any second, each once on its first attempt`, async () => {
  const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/rated'));
  const set = await server.request(`/api/v1/store/webhooks/endpoints/${endpointId}`, {
    method: 'PATCH',
    headers: jsonHeaders(key),
    body: JSON.stringify({ rateLimitPerSecond: RATE }),
  });
  expect(set.status).toBe(200);
  // The events are committed before either worker runs, so both find them due at once.
  await Promise.all(Array.from({ length: EVENTS }, (_, i) => createCategory(server, key, `Rated ${i}`)));
  const workers = [spawnWorker(), spawnWorker()];
  await Promise.all(workers.map((worker) => worker.ready));

  const arrivals = await receiver.waitFor(EVENTS, (r) => r.path === '/rated', 60_000);
  expect(mostInOneSecond(arrivals.map((r) => r.at))).toBeLessThanOrEqual(RATE);
  expect(new Set(arrivals.map((r) => r.headers['webhook-id'])).size).toBe(EVENTS);
  // The receiver has them all; each worker records its attempt once the response is in.
  const deliveries = await eventually(async () => {
    const rows = await server.prisma.webhookDelivery.findMany({
      where: { endpointId },
      select: { status: true, attempt: true, _count: { select: { attempts: true } } },
    });
    return rows.length === EVENTS && rows.every((row) => row.status !== 'pending') ? rows : null;
  });
  for (const delivery of deliveries)
    expect({
      status: delivery.status,
      attempt: delivery.attempt,
      attempts: delivery._count.attempts,
    }).toEqual({
      status: 'success',
      attempt: 1,
      attempts: 1,
    });
});
