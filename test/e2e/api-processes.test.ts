import { get } from 'node:http';
import { connect } from 'node:net';
import { connectDatabase, type Database } from '../../src/db/client';
import { createDatabaseFromTemplate, redisUrl } from '../helpers/databases';
import { makeStoreWithKey } from '../helpers/factories';
import { buildService, freePort, type ServiceProcess, startService } from '../helpers/process';

/**
 * README "API processes": API_PROCESSES=2 runs two full API processes on one port (node:cluster),
 * each answering requests (their log lines name their pid; answers do not); one that crashes is
 * replaced; SIGTERM drains them all (a request in flight finishes) and the service exits 0; without
 * REDIS_URL the setting is refused in one line.
 */
jest.setTimeout(180_000);

let database: { url: string; drop(): Promise<void> };
let db: Database;
let port: number;
let service: ServiceProcess;

beforeAll(async () => {
  buildService();
  database = await createDatabaseFromTemplate();
  db = connectDatabase(database.url, { max: 2 });
  port = await freePort();
});
afterAll(async () => {
  if (service?.child.exitCode === null && service.child.signalCode === null) {
    service.child.kill('SIGKILL');
    await service.exited;
  }
  await db.close();
  await database.drop();
});

const env = (extra: Record<string, string> = {}) => ({
  API_PROCESSES: '2',
  DATABASE_URL: database.url,
  PORT: String(port),
  HOST: '127.0.0.1',
  ...extra,
});

/** GET on a connection of its own (the primary hands each new connection to the next process). */
const fresh = (path: string) =>
  new Promise<number>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });

/** The pids of the processes that logged answering `path`. */
const answeredBy = (path: string) =>
  new Set(
    service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"request"') && line.includes(`"path":"${path}"`))
      .map((line) => JSON.parse(line).pid as number),
  );

it('refuses API_PROCESSES above 1 without REDIS_URL, in one line', async () => {
  service = startService(['api'], env());
  expect(await service.exited).toBe(1);
  expect(service.output().trim().split('\n')).toEqual([
    "Error: API_PROCESSES=2 needs REDIS_URL: API processes share rate limits, usage counts and the read cache's versions through Redis (set REDIS_URL, or API_PROCESSES=1)",
  ]);
});

describe('two API processes', () => {
  beforeAll(async () => {
    service = startService(['api'], env({ REDIS_URL: redisUrl }));
    await service.waitFor(/2 API processes listening/);
  });

  it('both answer on the one port', async () => {
    for (let i = 0; i < 12; i++) expect(await fresh('/healthz')).toBe(200);
    await service.waitFor(/"path":"\/healthz"[^\n]*\n(?:[^\n]*\n)*[^\n]*"path":"\/healthz"/);
    expect(answeredBy('/healthz').size).toBe(2);
  });

  it('replaces a process that crashed, with a log line, and keeps answering', async () => {
    const [victim] = answeredBy('/healthz');
    process.kill(victim as number, 'SIGKILL');
    await service.waitFor(/API process exited: starting another/);
    // The replacement listens too: a third pid says so.
    await service.waitFor(/listening on http(?:[\s\S]*listening on http){2}/);
    for (let i = 0; i < 6; i++) expect(await fresh('/readyz')).toBe(200);
  });

  it('drains on SIGTERM: a request in flight is answered, then every process exits and the service exits 0', async () => {
    const store = await makeStoreWithKey(db.prisma);
    const body = JSON.stringify({ query: '{ products(limit: 1) { items { id } } }' });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // `Expect: 100-continue`: the API process says it holds the request before the body is sent.
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\ntt-api-key: ${store.key}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\nExpect: 100-continue\r\n\r\n`,
    );
    while (!answer.includes('100 Continue')) await new Promise((resolve) => socket.once('data', resolve));
    service.child.kill('SIGTERM');
    await service.waitFor(
      /SIGTERM received: draining[\s\S]*SIGTERM received: draining[\s\S]*SIGTERM received: draining/,
    );
    socket.write(body);
    await closed;
    expect(answer).toMatch(/HTTP\/1\.1 200 OK/);
    expect(answer).toMatch(/"products":\{"items":\[\]\}/);
    expect(await service.exited).toBe(0);
    expect(service.output()).not.toMatch(/did not stop cleanly/);
  });
});
