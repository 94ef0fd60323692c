import { makeStoreWithKey } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * README "Request log": the buffer never blocks a request. Past REQUEST_LOG_BUFFER_MAX waiting
 * entries new ones are dropped and counted (request_log_dropped_total), and the requests are
 * answered as ever; what was kept is written at the next flush.
 */
let server: TestServer;

beforeAll(async () => {
  // A flush interval far beyond the test: nothing is written unless the test flushes.
  server = await startTestServer({ REQUEST_LOG_BUFFER_MAX: '3', REQUEST_LOG_FLUSH_MS: '60000' });
});
afterAll(() => server.close());

it('drops and counts entries past a full buffer, and answers every request', async () => {
  const store = await makeStoreWithKey(server.prisma);
  const log = server.runtime.requestLog;
  const before = log.dropped();
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++)
    statuses.push((await server.request('/api/v1/category', { key: store.key })).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(log.waiting()).toBe(3);
  expect(log.dropped() - before).toBe(2);

  const metrics = await (await server.request('/metrics')).text();
  expect(metrics).toMatch(new RegExp(`^request_log_dropped_total ${log.dropped()}$`, 'm'));

  expect(await log.flush()).toBe(3);
  expect(log.waiting()).toBe(0);
  expect(await server.prisma.requestLogEntry.count({ where: { storeId: store.id } })).toBe(3);
});

it('writes what it holds when the process stops (SIGTERM drain)', async () => {
  const other = await startTestServer({ REQUEST_LOG_FLUSH_MS: '60000' });
  const store = await makeStoreWithKey(other.prisma);
  await other.request('/api/v1/category', { key: store.key });
  await new Promise((resolve) => setImmediate(resolve));
  expect(other.runtime.requestLog.waiting()).toBe(1);
  await other.runtime.stop();
  expect(await other.prisma.requestLogEntry.count({ where: { storeId: store.id } })).toBe(1);
  await other.close();
});
