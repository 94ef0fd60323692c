import { parseCrontab, quickAddJob, runOnce } from 'graphile-worker';
import { crontab, taskList, type WebhookWorkerOptions } from '../../jobs/registry';
import { workerLogger } from '../../jobs/worker';
import type { Prisma } from '../../prisma/generated/client/client';
import { createLogger } from '../../src/logger';
import { createStaffUser } from '../../src/modules/stores/provision';
import { taskName } from '../../src/task-catalog';
import { makeKey } from '../helpers/factories';
import { mailSubject, mailText } from '../helpers/mail';
import { startTestServer, type TestServer } from '../helpers/server';
import {
  type ReceivedRequest,
  type Receiver,
  serverEnv,
  startReceiver,
  startSmtpServer,
  storeWithEndpoint,
  testWorkerOptions,
} from '../helpers/webhooks';

/**
 * README "Key notices": 7 days before a key expires and once its usage reaches 80 % of its limit, every
 * active owner and admin gets one e-mail and subscribed endpoints an `api_key.*` event, once per key and
 * subject. Jobs run through graphile-worker's runOnce on the real database, e-mails reach a local SMTP
 * server and events a local HTTPS receiver.
 */
let server: TestServer;
let receiver: Receiver;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let options: WebhookWorkerOptions;
const DAY = 86_400_000;
const secrets: string[] = [];

beforeAll(async () => {
  server = await startTestServer(serverEnv);
  smtp = await startSmtpServer();
  receiver = await startReceiver();
  options = testWorkerOptions({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await options.httpClient.close();
  options.mailer.close();
  await receiver.close();
  await smtp.close();
  await server.close();
});

/** Runs every job that is due: the notices, then the e-mails, fan-outs and deliveries they queued. */
const runJobs = () =>
  runOnce({
    pgPool: server.db.pool,
    taskList: taskList({
      prisma: server.prisma,
      pool: server.db.pool,
      usageMeter: server.runtime.usage,
      webhooks: options,
    }),
    logger: workerLogger(createLogger('silent')),
  });

async function runNotices() {
  await quickAddJob({ pgPool: server.db.pool }, taskName.send_key_notices, {});
  await runJobs();
}

/** A store with an endpoint for both notice events, an active admin, a staff member and a deactivated admin. */
async function noticedStore() {
  const store = await storeWithEndpoint(server, receiver.url(`/notices-${Date.now()}`), [
    'api_key.expiring',
    'api_key.usage_threshold',
  ]);
  secrets.push(store.key);
  const owner = await server.prisma.staffUser.findUniqueOrThrow({ where: { id: store.store.ownerId! } });
  const member = (role: 'ADMIN' | 'STAFF', name: string) =>
    createStaffUser(server.prisma, {
      storeId: store.storeId,
      email: `${name}-${Date.now()}@example.test`,
      name,
      role,
    });
  const admin = await member('ADMIN', 'admin');
  await member('STAFF', 'staff');
  const away = await member('ADMIN', 'away');
  await server.prisma.staffUser.update({ where: { id: away.id }, data: { isActive: false } });
  return { ...store, owner, admin };
}

/** A key of the store, then set as the test needs it (usage, status, expiry) behind the API's back. */
async function keyOf(storeId: string, name: string, set: Prisma.ApiKeyUpdateInput) {
  const { keyId, secret } = await makeKey(server.prisma, storeId, { keyName: name });
  secrets.push(secret);
  await server.prisma.apiKey.update({ where: { id: keyId }, data: set });
  return keyId;
}

const mailsAbout = (keyId: string) => smtp.messages.filter((m) => mailText(m.raw).includes(keyId));
const deliveriesAbout = (keyId: string): ReceivedRequest[] =>
  receiver.requests.filter((r) => JSON.parse(r.body).data.object.keyId === keyId);

describe('send_key_notices', () => {
  it('tells each active owner and admin once, and subscribed endpoints once, about keys near expiry or their limit', async () => {
    const { storeId, key, owner, admin } = await noticedStore();
    const now = Date.now();
    const expiring = await keyOf(storeId, 'Expiring', { expiresAt: new Date(now + 3 * DAY) });
    const later = await keyOf(storeId, 'Later', { expiresAt: new Date(now + 8 * DAY) });
    const used = await keyOf(storeId, 'Used', { usageLimit: 10, usageCount: 8 });
    const under = await keyOf(storeId, 'Under', { usageLimit: 10, usageCount: 7 });
    const revoked = await keyOf(storeId, 'Revoked', {
      expiresAt: new Date(now + 2 * DAY),
      status: 'revoked',
      revokedAt: new Date(now),
    });
    const inactive = await keyOf(storeId, 'Inactive', { usageLimit: 10, usageCount: 9, status: 'inactive' });
    const expired = await keyOf(storeId, 'Expired', {
      expiresAt: new Date(now - DAY),
      usageLimit: 10,
      usageCount: 10,
    });

    // Marked on the keys page (REST shows the same field as GraphQL) before any job ran.
    const res = await server.request('/api/v1/api-key?limit=100', { key });
    expect(res.status).toBe(200);
    const listed = new Map(
      ((await res.json()).data as Array<{ keyId: string; notices: string[] }>).map((k) => [
        k.keyId,
        k.notices,
      ]),
    );
    expect([expiring, later, used, under, revoked, inactive, expired].map((id) => listed.get(id))).toEqual([
      ['expiring'],
      [],
      ['usage_threshold'],
      [],
      [],
      [],
      [],
    ]);

    await runNotices();
    await receiver.waitFor(2, (r) => r.body.includes(storeId));

    const people = [owner.email, admin.email].sort();
    for (const [keyId, subject] of [
      [expiring, /^API key "Expiring" expires in 3 days$/],
      [used, /^API key "Used" has used 80 % of its usage limit$/],
    ] as const) {
      const mails = mailsAbout(keyId);
      expect(mails.flatMap((m) => m.to).sort()).toEqual(people);
      for (const mail of mails) expect(mailSubject(mail.raw)).toMatch(subject);
    }
    for (const keyId of [later, under, revoked, inactive, expired]) {
      expect(mailsAbout(keyId)).toEqual([]);
      expect(deliveriesAbout(keyId)).toEqual([]);
    }
    const [expiryEvent] = deliveriesAbout(expiring).map((r) => JSON.parse(r.body));
    expect(expiryEvent).toEqual(
      expect.objectContaining({
        type: 'api_key.expiring',
        storeId,
        data: {
          object: expect.objectContaining({ keyId: expiring, keyName: 'Expiring', notices: ['expiring'] }),
        },
      }),
    );
    expect(deliveriesAbout(used).map((r) => JSON.parse(r.body).type)).toEqual(['api_key.usage_threshold']);

    // A re-run sends nothing twice.
    const mailed = smtp.messages.length;
    const delivered = receiver.requests.length;
    await runNotices();
    expect(smtp.messages.length).toBe(mailed);
    expect(receiver.requests.length).toBe(delivered);
    expect(await server.prisma.event.count({ where: { storeId, type: { startsWith: 'api_key.' } } })).toBe(2);
  });

  it('notices a key again once its expiry is extended or its limit raised and the new one nears', async () => {
    const { storeId } = await noticedStore();
    const now = Date.now();
    const keyId = await keyOf(storeId, 'Renewed', {
      expiresAt: new Date(now + 2 * DAY),
      usageLimit: 10,
      usageCount: 9,
    });
    await runNotices();
    expect(mailsAbout(keyId)).toHaveLength(4);

    await server.prisma.apiKey.update({
      where: { id: keyId },
      data: { expiresAt: new Date(now + 6 * DAY), usageLimit: 20 },
    });
    await runNotices(); // a new expiry, near again; 9 of 20 is below 80 %
    const expiryMails = mailsAbout(keyId).filter((m) => /expires in/.test(mailSubject(m.raw)));
    expect(expiryMails.map((m) => mailSubject(m.raw)).sort()).toEqual([
      'API key "Renewed" expires in 2 days',
      'API key "Renewed" expires in 2 days',
      'API key "Renewed" expires in 6 days',
      'API key "Renewed" expires in 6 days',
    ]);
    expect(mailsAbout(keyId)).toHaveLength(6);

    await server.prisma.apiKey.update({ where: { id: keyId }, data: { usageCount: 16 } });
    await runNotices();
    expect(mailsAbout(keyId)).toHaveLength(8);
    const notices = await server.prisma.apiKeyNotice.findMany({
      where: { apiKeyId: keyId },
      orderBy: { sentAt: 'asc' },
    });
    expect(notices.map((n) => [n.kind, n.subject]).sort()).toEqual(
      [
        ['expiring', new Date(now + 2 * DAY).toISOString()],
        ['expiring', new Date(now + 6 * DAY).toISOString()],
        ['usage_threshold', '10'],
        ['usage_threshold', '20'],
      ].sort(),
    );
  });

  it('sends the usage notice right after flush_usage moved the usage that reached 80 %', async () => {
    const { storeId } = await noticedStore();
    const { keyId, secret } = await makeKey(server.prisma, storeId, { keyName: 'Busy', usageLimit: 5 });
    secrets.push(secret);
    for (let i = 0; i < 4; i++)
      expect((await server.request('/api/v1/category', { key: secret })).status).toBe(200);

    await quickAddJob({ pgPool: server.db.pool }, taskName.flush_usage, {});
    await runJobs();

    expect((await server.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).usageCount).toBe(4n);
    expect(mailsAbout(keyId).map((m) => mailSubject(m.raw))).toEqual([
      'API key "Busy" has used 80 % of its usage limit',
      'API key "Busy" has used 80 % of its usage limit',
    ]);
    await receiver.waitFor(1, (r) => r.body.includes(keyId));
    expect(deliveriesAbout(keyId).map((r) => JSON.parse(r.body).type)).toEqual(['api_key.usage_threshold']);
  });

  it('never puts a key’s secret in an e-mail or an event', () => {
    expect(secrets.length).toBeGreaterThan(5);
    const sent = [...smtp.messages.map((m) => m.raw), ...receiver.requests.map((r) => r.body)].join('\n');
    for (const secret of secrets) expect(sent).not.toContain(secret);
  });

  it('runs hourly from the crontab', () => {
    expect(parseCrontab(crontab).find((item) => item.task === taskName.send_key_notices)?.options).toEqual(
      expect.objectContaining({ maxAttempts: 1 }),
    );
    expect(crontab).toMatch(/^30 \* \* \* \* send_key_notices /m);
  });
});
