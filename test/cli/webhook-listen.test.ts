import { runCli } from '../../src/cli/index';
import { loadConfig } from '../../src/config';
import { webhookServicesFrom } from '../../src/webhook-delivery/services';
import { payloadMismatch } from '../helpers/event-schemas';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { eventually, serverEnv, startTestWorker } from '../helpers/webhooks';

/**
 * Issue 15 item 14: receiving webhooks on localhost during development. `webhook listen` registers
 * a local plain-HTTP receiver, the service's worker delivers to it (127.0.0.1 on the test
 * allow-list, as .env would set it), each delivery is verified and printed, and Ctrl-C removes
 * the endpoint.
 */
jest.setTimeout(60_000);

let server: TestServer;
let worker: Awaited<ReturnType<typeof startTestWorker>>;
beforeAll(async () => {
  server = await startTestServer(serverEnv);
  worker = await startTestWorker(server, { pollInterval: 100 });
});
afterAll(async () => {
  await worker?.stop();
  await server?.close();
});

/** Runs `webhook listen` in-process; `stop()` is its Ctrl-C. */
function listen(args: string[], env: Record<string, string> = serverEnv) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const exit = runCli(['webhook', 'listen', ...args], {
    db: server.prisma,
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    webhooks: webhookServicesFrom(loadConfig({ NODE_ENV: 'test', ...env })),
    interrupted: () => stopped,
  });
  return { out, err, exit, stop: () => stop() };
}

describe('webhook listen', () => {
  it('registers a local endpoint, prints each verified delivery, and removes the endpoint on Ctrl-C', async () => {
    const store = await makeStore(server.prisma);
    const { secret: key } = await makeKey(server.prisma, store.id);
    const listener = listen(['--store', store.id, '--events', 'category.created,webhook.test']);
    const banner = await eventually(async () => listener.out.find((line) => line.startsWith('Listening on')));
    const [, url, endpointId] =
      banner.match(/^Listening on (http:\/\/127\.0\.0\.1:\d+\/webhooks) as endpoint (whe_\w+)/) ?? [];
    expect(url).toBeDefined();
    expect(await server.prisma.webhookEndpoint.findUnique({ where: { id: endpointId } })).toEqual(
      expect.objectContaining({ url, events: ['category.created', 'webhook.test'] }),
    );

    // A real change of the store, and the test ping, both through the API
    const created = await server.send('POST', '/api/v1/category', { name: 'Listened' }, key);
    expect(created.status).toBe(201);
    expect(
      (await server.send('POST', `/api/v1/store/webhooks/endpoints/${endpointId}/test`, {}, key)).status,
    ).toBe(202);
    const printed = await eventually(async () => {
      const deliveries = listener.out.filter((line) => /^\d{4}-\d\d-\d\dT/.test(line));
      return deliveries.length >= 2 ? deliveries : null;
    });
    expect(printed.map((line) => line.split('\n')[0]?.split(/\s+/).slice(1, 4))).toEqual(
      expect.arrayContaining([
        ['category.created', expect.stringMatching(/^msg_/), 'verified'],
        ['webhook.test', expect.stringMatching(/^msg_/), 'verified'],
      ]),
    );
    expect(printed.join('\n')).toContain('"name": "Listened"');
    // The service saw the receiver's 200s
    await eventually(
      async () =>
        (await server.prisma.webhookDelivery.count({ where: { endpointId, status: 'success' } })) === 2,
    );
    // what it received holds to the published schemas, as every test receiver's bodies do
    const sent = await server.prisma.webhookDelivery.findMany({
      where: { endpointId },
      select: { payload: true },
    });
    expect(sent.map((delivery) => payloadMismatch(delivery.payload))).toEqual([null, null]);

    listener.stop();
    expect(await listener.exit).toBe(0);
    expect(listener.out.at(-1)).toBe(`Removed endpoint ${endpointId}; received 2 deliveries (2 verified)`);
    expect(await server.prisma.webhookEndpoint.findUnique({ where: { id: endpointId } })).toBeNull();
  });

  it('answers a request with a bad signature 400 and says so', async () => {
    const store = await makeStore(server.prisma);
    const listener = listen(['--store', store.id, '--json']);
    const endpoint = await eventually(() =>
      server.prisma.webhookEndpoint.findFirst({ where: { storeId: store.id } }),
    );
    const forged = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'x-service-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}` },
      body: '{"type":"order.paid"}',
    });
    expect(forged.status).toBe(400);
    const line = await eventually(async () => listener.out.find((text) => text.startsWith('{"at"')));
    expect(JSON.parse(line)).toEqual(
      expect.objectContaining({
        verified: false,
        problem: 'the signature does not match the endpoint secret',
      }),
    );
    listener.stop();
    expect(await listener.exit).toBe(0);
    expect(JSON.parse(listener.out.at(-1) as string)).toEqual(
      expect.objectContaining({ endpointId: endpoint.id, received: 1, verified: 0 }),
    );
  });

  it('says in one line what to set when 127.0.0.1 is not on WEBHOOK_ALLOWED_HOSTS, registering nothing', async () => {
    const store = await makeStore(server.prisma);
    const listener = listen(['--store', store.id], {});
    expect(await listener.exit).toBe(1);
    expect(listener.err).toEqual([
      'Error: WEBHOOK_ALLOWED_HOSTS does not list 127.0.0.1, so nothing would be delivered here: put WEBHOOK_ALLOWED_HOSTS=127.0.0.1 in .env and restart the service (development only)',
    ]);
    expect(await server.prisma.webhookEndpoint.count({ where: { storeId: store.id } })).toBe(0);
  });
});
