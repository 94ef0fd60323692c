import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Runner } from 'graphile-worker';
import { taskName } from '../../src/task-catalog';
import { root } from '../helpers/process';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  createCategory,
  eventually,
  type Receiver,
  serverEnv,
  startReceiver,
  startTestWorker,
  storeWithEndpoint,
} from '../helpers/webhooks';

/**
 * Crash safety (docs/design.md "Crash safety"): a worker process killed mid-delivery loses nothing; a live worker
 * attempts the delivery again once its lease has expired. SIGTERM lets an attempt in flight finish.
 */
jest.setTimeout(90_000);

let server: TestServer;
let receiver: Receiver;
const stalled = new Set<string>();
/** Deliveries whose first request the receiver never answers (the worker is killed meanwhile). */
let stallFirst = true;
const LEASE_SECONDS = 4;

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  receiver = await startReceiver((request) => {
    const id = request.headers['x-service-delivery'] ?? '';
    if (request.path === '/slow') return { status: 200, delayMs: 1500, body: 'slow but fine' };
    if (stallFirst && !stalled.has(id)) {
      stalled.add(id);
      return { stall: true };
    }
    return { status: 200 };
  });
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

/** `npm run start:worker`'s entry (src/main.ts worker) as its own process against the test database. */
function spawnWorker(): {
  child: ChildProcess;
  output: () => string;
  ready: Promise<void>;
  exited: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'main.ts'), 'worker'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: server.databaseUrl,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      // The child uses the system CAs as production does; the test receiver's certificate is added to them.
      NODE_EXTRA_CA_CERTS: path.join(root, 'test', 'fixtures', 'tls', 'receiver.crt'),
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
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
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = eventually(async () => output.includes('worker running'), 60_000).then(() => undefined);
  return { child, output: () => output, ready, exited };
}

describe('a worker that dies mid-delivery', () => {
  it('loses nothing: after SIGKILL another worker delivers every delivery it held', async () => {
    const dying = spawnWorker();
    await dying.ready;
    const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/crash'));
    for (const name of ['A', 'B', 'C']) await createCategory(server, key, name);
    await receiver.waitFor(3, (r) => r.path === '/crash', 60_000);
    dying.child.kill('SIGKILL');
    await dying.exited;

    const held = await server.prisma.webhookDelivery.findMany({ where: { endpointId } });
    expect(held).toHaveLength(3);
    for (const delivery of held) {
      expect(delivery).toEqual(
        expect.objectContaining({ status: 'pending', attempt: 0, leaseExpiresAt: expect.any(Date) }),
      );
    }

    // The jobs the dead worker holds locked (each event's fan-out, which makes the first attempts):
    // graphile-worker alone would leave them locked for 4 hours.
    const { rows: deadJobs } = await server.db.pool.query<{ id: string }>(
      `SELECT id::text FROM graphile_worker.jobs WHERE task_identifier = $1 AND key = ANY($2) AND locked_at IS NOT NULL`,
      [taskName.fan_out_event, held.map((d) => d.eventId)],
    );
    expect(deadJobs).toHaveLength(3);

    let survivor: Runner | undefined;
    try {
      survivor = await startTestWorker(server, {
        webhooks: { leaseSeconds: LEASE_SECONDS, sweepIntervalMs: 500 },
      });
      const done = await eventually(async () => {
        const rows = await server.prisma.webhookDelivery.findMany({
          where: { endpointId },
          include: { attempts: true },
        });
        return rows.every((row) => row.status === 'success') ? rows : null;
      }, 60_000);
      for (const delivery of done) {
        expect(delivery).toEqual(
          expect.objectContaining({ attempt: 1, httpStatus: 200, leaseExpiresAt: null }),
        );
        expect(delivery.attempts).toHaveLength(1);
        const sent = receiver.requests.filter((r) => r.headers['x-service-delivery'] === delivery.id);
        expect(sent).toHaveLength(2);
        expect(sent[0]?.body).toBe(sent[1]?.body);
      }
      // The dead worker's jobs were detached and used up: they never run again, even after 4 hours
      // (graphile-worker takes a job only while attempts < max_attempts).
      const { rows: detached } = await server.db.pool.query<{
        id: string;
        key: string | null;
        spent: boolean;
      }>(
        `SELECT id::text, key, attempts >= max_attempts AS spent FROM graphile_worker.jobs WHERE id = ANY($1::bigint[])`,
        [deadJobs.map((job) => job.id)],
      );
      expect(detached).toHaveLength(3);
      for (const job of detached) expect(job).toEqual({ id: job.id, key: null, spent: true });
      // The survivor's own jobs finish just after the delivery is recorded (the job is removed once the
      // task returns); then no job is left for these deliveries or their events.
      await eventually(async () => {
        const { rows } = await server.db.pool.query(
          `SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ANY($1)`,
          [[...held.map((d) => d.id), ...held.map((d) => d.eventId)]],
        );
        return rows[0].n === 0;
      }, 10_000);
    } finally {
      await survivor?.stop();
    }
  });

  it('SIGTERM lets a delivery in flight finish before the worker exits', async () => {
    stallFirst = false;
    const stopping = spawnWorker();
    await stopping.ready;
    const { key, endpointId } = await storeWithEndpoint(server, receiver.url('/slow'));
    await createCategory(server, key, 'Slow');
    await receiver.waitFor(1, (r) => r.path === '/slow', 60_000);
    stopping.child.kill('SIGTERM');
    expect(await stopping.exited).toBe(0);
    const delivery = await server.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    expect(delivery).toEqual(
      expect.objectContaining({
        status: 'success',
        attempt: 1,
        responseBody: 'slow but fine',
        leaseExpiresAt: null,
      }),
    );
  });
});
