import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemContext } from '../context';
import { AppError, notFound } from '../errors';
import { createLogger } from '../logger';
import { createEndpoint, deleteEndpoint } from '../modules/webhooks/service';
import { isAllowedHost } from '../outbound-http/url-policy';
import { signatureProblem } from '../webhook-delivery/signing';
import { type Command, command, stringOption } from './args';
import { webhookRecoverCommand } from './webhook-recover';

/** One delivery as `webhook listen` saw it. */
interface Received {
  at: string;
  event: string;
  delivery: string;
  verified: boolean;
  problem: string | null;
  body: unknown;
}

/** The longest body kept of a request (a delivery is a few kB; anything far larger is not one). */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * `webhook listen`: webhooks on a developer's machine, as `stripe listen` does. A plain-HTTP
 * receiver on 127.0.0.1 is registered as an endpoint of the store (plain HTTP is delivered only to
 * hosts on WEBHOOK_ALLOWED_HOSTS, which production refuses); each delivery is checked against the
 * endpoint's secret, printed, and answered 200 (400 when the signature fails); Ctrl-C removes the
 * endpoint again.
 */
export const webhookCommands: Command[] = [
  command({
    name: 'webhook listen',
    summary:
      'Receives a store’s webhooks on this machine: registers a local endpoint, prints each verified delivery, removes it on Ctrl-C.',
    options: {
      store: { type: 'string', value: '<storeId>', description: 'The store (str_…)' },
      events: {
        type: 'string',
        value: '<types>',
        description: 'Event types, comma-separated (default: all, `*`)',
      },
      port: { type: 'string', value: '<port>', description: 'Port on 127.0.0.1 (default: any free one)' },
    },
    required: ['store'],
    notes: [
      'The service delivers to 127.0.0.1 only when WEBHOOK_ALLOWED_HOSTS lists it: put',
      'WEBHOOK_ALLOWED_HOSTS=127.0.0.1 in .env (development only; production refuses it) and start the service.',
      'With --json, one JSON line per delivery, then the summary.',
    ],
    async run({ db, writer, now, invalidateAuth, webhooks, progress, interrupted }, input) {
      if (!webhooks || !progress || !interrupted)
        throw new Error('webhook listen needs a terminal (src/cli/index.ts)');
      const storeId = stringOption(input, 'store') as string;
      const events = (stringOption(input, 'events') ?? '*').split(',').map((type) => type.trim());
      const store = await db.store.findUnique({ where: { id: storeId }, select: { id: true, plan: true } });
      if (!store) throw notFound('Store');

      const received: Received[] = [];
      let secret = '';
      const server = createServer((req, res) => {
        void receive(req, res, secret).then((delivery) => {
          received.push(delivery);
          progress(input.json ? JSON.stringify(delivery) : describe(delivery));
        });
      });
      const port = await listen(server, Number(stringOption(input, 'port') ?? 0));
      try {
        if (!isAllowedHost('127.0.0.1', port, webhooks.urlPolicy.allowHosts)) {
          throw new AppError(
            'VALIDATION_ERROR',
            'WEBHOOK_ALLOWED_HOSTS does not list 127.0.0.1, so nothing would be delivered here: put WEBHOOK_ALLOWED_HOSTS=127.0.0.1 in .env and restart the service (development only)',
          );
        }
        const ctx = systemContext(
          { prisma: db, now: () => new Date(), invalidateAuth, storeChanged: writer.storeChanged, webhooks },
          store,
          createLogger('silent'),
        );
        const url = `http://127.0.0.1:${port}/webhooks`;
        const endpoint = await createEndpoint(ctx, { url, events, description: 'webhook listen (CLI)' });
        secret = endpoint.secret;
        if (!input.json) {
          progress(
            [
              `Listening on ${url} as endpoint ${endpoint.id} of store ${storeId} (${events.join(', ')})`,
              `Signing secret ${secret}: every delivery is checked against it. Ctrl-C removes the endpoint.`,
              `Send a test event: POST /api/v1/store/webhooks/endpoints/${endpoint.id}/test, or the dashboard's Send test event`,
            ].join('\n'),
          );
        }
        await interrupted();
        await deleteEndpoint(ctx, endpoint.id);
        const verified = received.filter((delivery) => delivery.verified).length;
        return {
          json: {
            endpointId: endpoint.id,
            url,
            received: received.length,
            verified,
            since: now.toISOString(),
          },
          text: [
            `Removed endpoint ${endpoint.id}; received ${received.length} deliveries (${verified} verified)`,
          ],
        };
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    },
  }),
  webhookRecoverCommand,
];

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new AppError(
              'VALIDATION_ERROR',
              `Port ${port} on 127.0.0.1 is already in use: choose another --port`,
            )
          : error,
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function receive(req: IncomingMessage, res: ServerResponse, secret: string): Promise<Received> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const problem =
    size > MAX_BODY_BYTES
      ? `a body over ${MAX_BODY_BYTES} bytes`
      : signatureProblem({
          secret,
          header: header('x-service-signature'),
          body: text,
          nowSeconds: Math.floor(Date.now() / 1000),
        });
  res.writeHead(problem ? 400 : 200, { 'content-type': 'text/plain' }).end(problem ?? 'ok');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return {
    at: new Date().toISOString(),
    event: header('x-service-event') ?? '(no event header)',
    delivery: header('x-service-delivery') ?? '(no delivery header)',
    verified: problem === null,
    problem,
    body,
  };
}

function describe(delivery: Received): string {
  const status = delivery.verified ? 'verified' : `NOT VERIFIED (${delivery.problem}), answered 400`;
  return `${delivery.at}  ${delivery.event}  ${delivery.delivery}  ${status}\n${JSON.stringify(delivery.body, null, 2)}`;
}
