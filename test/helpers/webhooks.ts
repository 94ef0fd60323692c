import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { SMTPServer } from 'smtp-server';
import type { WebhookWorkerOptions } from '../../jobs/registry';
import { createMailer } from '../../jobs/tasks/send_email';
import { startWorker } from '../../jobs/worker';
import { createSecretBox } from '../../src/auth/secret-box';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createWebhookHttpClient } from '../../src/outbound-http/http-client';
import { createDeliveryRateGate } from '../../src/webhook-delivery/rate';
import { payloadMismatch } from './event-schemas';
import { makeKey, makeStore } from './factories';
import type { TestServer } from './server';

const tls = path.join(__dirname, '..', 'fixtures', 'tls');
export const receiverCa = readFileSync(path.join(tls, 'receiver.crt'));
const receiverKey = readFileSync(path.join(tls, 'receiver.key'));

/** Only loopback: the test receiver's host is on the URL policy's test allow-list, nothing else is. */
export const ALLOWED_HOSTS = '127.0.0.1';
export const serverEnv = { WEBHOOK_ALLOWED_HOSTS: ALLOWED_HOSTS };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Reply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait before answering (ms). */
  delayMs?: number;
  /** Never answer. */
  stall?: boolean;
}

/**
 * An HTTPS webhook receiver on 127.0.0.1 with the test certificate; `reply` decides each answer.
 * Every body it receives is checked against the published schema of its event type
 * (test/helpers/event-schemas.ts): a mismatch makes `waitFor` and `close` fail, so no test that
 * delivers a wrong payload passes.
 */
export async function startReceiver(reply: (request: ReceivedRequest) => Reply = () => ({ status: 200 })) {
  const requests: ReceivedRequest[] = [];
  const mismatches: string[] = [];
  const unpublished = () =>
    mismatches.length
      ? new Error(`delivered payloads outside their schema:\n${mismatches.join('\n')}`)
      : null;
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer({ key: receiverKey, cert: receiverCa }, (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(request);
      const mismatch = payloadMismatch(request.body);
      if (mismatch) mismatches.push(mismatch);
      for (const waiter of waiters) waiter();
      const answer = reply(request);
      if (answer.stall) return;
      const send = () => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      };
      if (answer.delayMs) {
        const timer = setTimeout(send, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (pathname = '/hooks') => `https://127.0.0.1:${port}${pathname}`,
    requests,
    /** Resolves once `count` requests (matching `filter`) have arrived. */
    waitFor(count: number, filter: (r: ReceivedRequest) => boolean = () => true, timeoutMs = 20_000) {
      return new Promise<ReceivedRequest[]>((resolve, reject) => {
        const check = () => {
          const mismatch = unpublished();
          if (mismatch) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(mismatch);
            return;
          }
          const matching = requests.filter(filter);
          if (matching.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(matching);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${requests.filter(filter).length} of ${count} requests`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    /** Why received bodies did not match their schemas (empty when all did). */
    mismatches,
    /** Stops the receiver; rejects when any body it received did not match its schema. */
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const mismatch = unpublished();
      if (mismatch) throw mismatch;
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A local SMTP server that keeps every message. */
export async function startSmtpServer() {
  const messages: Array<{ to: string[]; raw: string }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.pipe(
        new Writable({
          write(chunk: Buffer, _encoding, next) {
            chunks.push(chunk);
            next();
          },
        }),
      );
      stream.on('end', () => {
        messages.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A pino logger whose every line is kept, to check that no secret is ever logged. */
export function capturingLogger(level = 'debug') {
  const lines: string[] = [];
  const logger = createLogger(
    level,
    new Writable({
      write(chunk: Buffer, _encoding, next) {
        lines.push(chunk.toString());
        next();
      },
    }),
  );
  return { logger, text: () => lines.join('') };
}

/** The worker's webhook options for tests: the test CA, loopback allowed, the same secret key as the API. */
export function testWorkerOptions(
  overrides: Partial<WebhookWorkerOptions> & { smtpUrl?: string } = {},
): WebhookWorkerOptions {
  const config = loadConfig({ NODE_ENV: 'test', ...serverEnv });
  const { smtpUrl, ...rest } = overrides;
  return {
    secrets: createSecretBox(config.webhook.secretKey),
    httpClient: createWebhookHttpClient({ ca: receiverCa, allowHosts: [ALLOWED_HOSTS] }),
    // Per process: a test of the rate across worker processes passes a gate over its own Redis keys.
    rateGate: createDeliveryRateGate({ redis: null, logger: createLogger('silent'), keyPrefix: 'test:' }),
    mailer: createMailer({
      url: smtpUrl,
      from: 'Webhooks <webhooks@example.test>',
      logger: createLogger('silent'),
    }),
    publicUrl: config.publicUrl,
    timeoutMs: config.webhook.timeoutMs,
    leaseSeconds: config.webhook.leaseSeconds,
    sweepIntervalMs: 60_000,
    logRetentionDays: config.webhook.logRetentionDays,
    ...rest,
  };
}

/** A worker on the test server's database (two jobs at a time, the test's webhook options), polling often. */
export function startTestWorker(
  server: TestServer,
  options: { pollInterval?: number; webhooks?: Partial<WebhookWorkerOptions> & { smtpUrl?: string } } = {},
) {
  return startWorker({
    pgPool: server.db.pool,
    logger: createLogger('silent'),
    concurrency: 2,
    usageMeter: server.runtime.usage,
    prisma: server.prisma,
    webhooks: testWorkerOptions(options.webhooks),
    pollInterval: options.pollInterval ?? 200,
  });
}

export const jsonHeaders = (key: string) => ({ 'tt-api-key': key, 'content-type': 'application/json' });

/** Polls until `check` returns a truthy value (generous waits for asynchronous work, never timing assertions). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A new store with an API key and one webhook endpoint per URL, created through REST. */
export async function storeWithEndpoints(server: TestServer, urls: string[], events = ['category.created']) {
  const store = await makeStore(server.prisma);
  const { secret: key } = await makeKey(server.prisma, store.id);
  const endpoints: Array<{ id: string; url: string; secret: string }> = [];
  for (const url of urls) {
    const res = await server.request('/api/v1/store/webhooks/endpoints', {
      method: 'POST',
      headers: jsonHeaders(key),
      body: JSON.stringify({ url, events }),
    });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    endpoints.push({ id: data.id, url, secret: data.secret });
  }
  return { key, store, endpoints };
}

/** A new store with an API key and one webhook endpoint at `url`. */
export async function storeWithEndpoint(server: TestServer, url: string, events = ['category.created']) {
  const { key, store, endpoints } = await storeWithEndpoints(server, [url], events);
  const [endpoint] = endpoints as [(typeof endpoints)[number]];
  return { key, store, storeId: store.id, endpointId: endpoint.id, secret: endpoint.secret };
}

/** Creates a category through REST (so a `category.created` event is committed); answers it. */
export async function createCategory(server: TestServer, key: string, name: string) {
  const res = await server.request('/api/v1/category', {
    method: 'POST',
    headers: jsonHeaders(key),
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).data as { id: string; name: string };
}

/** The most of `times` (ms) that fall in any half-open window [t, t + 1000): a receiver's busiest second. */
export function mostInOneSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; start < sorted.length; start++) {
    while (end < sorted.length && (sorted[end] as number) < (sorted[start] as number) + 1000) end++;
    most = Math.max(most, end - start);
  }
  return most;
}
