import type { JobHelpers, Runner } from 'graphile-worker';
import { createMailer } from '../../jobs/tasks/send_email';
import { makeSendStaffInvitation } from '../../jobs/tasks/send_staff_invitation';
import { roleScopes } from '../../src/access/roles';
import { toScopeObjects } from '../../src/access/scopes';
import { hashInvitationToken } from '../../src/auth/invitation-token';
import { makeKey, makeStore } from '../helpers/factories';
import { invitationLink, mailSubject, mailText } from '../helpers/mail';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';
import { capturingLogger, eventually, startSmtpServer, startTestWorker } from '../helpers/webhooks';

const PUBLIC_URL = 'https://shop-admin.example.test';
const HOUR = 60 * 60 * 1000;

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: Runner;
let counter = 0;

/** Every line the API logs, and every token an e-mail carried: no line may hold one. */
const apiLog = capturingLogger('info');
const tokensSeen = new Set<string>();

beforeAll(async () => {
  server = await startTestServer({}, { logger: apiLog.logger });
  smtp = await startSmtpServer();
  // Every payload ever queued, kept: a finished job leaves the queue, and its payload with it.
  await server.db.pool.query(`
    CREATE TABLE queued_payloads (payload json);
    CREATE FUNCTION keep_payload() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN INSERT INTO queued_payloads VALUES (NEW.payload); RETURN NEW; END $$;
    CREATE TRIGGER keep_payload AFTER INSERT OR UPDATE ON graphile_worker._private_jobs
      FOR EACH ROW EXECUTE FUNCTION keep_payload();`);
  worker = await startTestWorker(server, {
    webhooks: { smtpUrl: smtp.url, publicUrl: PUBLIC_URL, now: () => server.clock.now },
  });
});
afterAll(async () => {
  await worker.stop();
  await smtp.close();
  await server.close();
});

const address = (name: string) => `${name}-${counter++}-${Date.now()}@invite.test`;

async function ownerStore() {
  const store = await makeStore(server.prisma, { name: `Linen & Co ${counter++}` });
  return { id: store.id, name: store.name, key: (await makeKey(server.prisma, store.id)).secret };
}

/** Invites through REST without a password; answers the member and, once the worker sent it, the e-mail. */
async function invite(key: string, role = 'STAFF', name = 'Rosa Park') {
  const email = address('invitee');
  const res = await server.send('POST', '/api/v1/staff', { email, name, role }, key);
  expect(res.status).toBe(201);
  const member = (await res.json()).data as { id: string; email: string; invitation: unknown };
  return { member, email, mail: () => latestMail(email) };
}

/** The newest message to `email` after `after` messages to it (waits for the worker). */
async function latestMail(email: string, after = 0) {
  const messages = await eventually(async () => {
    const mine = smtp.messages.filter((message) => message.to.includes(email));
    return mine.length > after ? mine : null;
  });
  const raw = messages.at(-1)!.raw;
  const text = mailText(raw);
  const link = invitationLink(text);
  tokensSeen.add(link.token);
  return { subject: mailSubject(raw), text, ...link };
}

const lookup = (token: string) =>
  server.request(`/api/v1/auth/invitation?token=${encodeURIComponent(token)}`);
const accept = (body: Record<string, unknown>) => server.send('POST', '/api/v1/auth/accept-invite', body);
const login = (email: string, password: string) =>
  server.send('POST', '/api/v1/auth/login', { email, password });
const withSession = (token: string, method: string, path: string, body?: unknown) =>
  server.request(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('inviting without a password', () => {
  it('creates a member who cannot sign in yet, with a pending invitation, and e-mails a one-time link', async () => {
    const store = await ownerStore();
    const { member, email, mail } = await invite(store.key, 'ADMIN');
    expect(member.invitation).toEqual({ status: 'PENDING', sentAt: null, expiresAt: expect.any(String) });
    expect((await login(email, 'anything at all')).status).toBe(401);

    const message = await mail();
    expect(message.subject).toBe(`You are invited to ${store.name}`);
    expect(message.text).toContain(`The API key "test key" invited you to ${store.name} as an admin.`);
    expect(message.url).toBe(`${PUBLIC_URL}/accept-invite?token=${message.token}`);
    expect(message.text).toContain('The link expires in 72 hours');

    const listed = await server.send('GET', `/api/v1/staff/${member.id}`, undefined, store.key);
    expect((await listed.json()).data.invitation).toEqual({
      status: 'PENDING',
      sentAt: server.clock.now.toISOString(),
      expiresAt: new Date(server.clock.now.getTime() + 72 * HOUR).toISOString(),
    });
  });

  it('stores only the sha256 of the token: not in the database, the job queue or the audit log', async () => {
    const store = await ownerStore();
    const { member, mail } = await invite(store.key);
    const { token } = await mail();
    const invitation = await server.prisma.staffInvitation.findUniqueOrThrow({
      where: { staffUserId: member.id },
    });
    expect(invitation.tokenHash).toBe(hashInvitationToken(token));
    const everywhere = await server.db.pool.query<{ text: string }>(
      `SELECT concat_ws(' ',
         (SELECT string_agg(row_to_json(i)::text, ' ') FROM "StaffInvitation" i),
         (SELECT string_agg(payload::text, ' ') FROM queued_payloads),
         (SELECT string_agg(row_to_json(a)::text, ' ') FROM "AuditEntry" a),
         (SELECT string_agg(row_to_json(k)::text, ' ') FROM "IdempotencyRecord" k)) AS text`,
    );
    expect(everywhere.rows[0]!.text).toContain(invitation.id);
    expect(everywhere.rows[0]!.text).not.toContain(token);
  });

  it('without SMTP the e-mail is logged with its link redacted: no log line holds a token', async () => {
    const store = await ownerStore();
    const { member } = await invite(store.key);
    const invitation = await server.prisma.staffInvitation.findUniqueOrThrow({
      where: { staffUserId: member.id },
    });
    const log = capturingLogger();
    const send = makeSendStaffInvitation({
      prisma: server.prisma,
      mailer: createMailer({ from: 'Shop <shop@example.test>', logger: log.logger }),
      publicUrl: PUBLIC_URL,
      now: () => server.clock.now,
    });
    await send({ invitationId: invitation.id }, {} as JobHelpers);
    expect(log.text()).toContain(`${PUBLIC_URL}/accept-invite?token=[redacted]`);
    expect(log.text()).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
    const minted = await server.prisma.staffInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(minted.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('greets the invitee, accepts once with a new password and signs them in; the link then stops working', async () => {
    const store = await ownerStore();
    const { member, email, mail } = await invite(store.key, 'STAFF', 'Rosa Park');
    const { token } = await mail();

    const greeting = await lookup(token);
    expect(greeting.status).toBe(200);
    expect((await greeting.json()).data).toEqual({
      storeName: store.name,
      email,
      name: 'Rosa Park',
      role: 'STAFF',
      expiresAt: expect.any(String),
    });

    const short = await accept({ token, password: 'short' });
    expect(short.status).toBe(400);
    expect((await short.json()).details).toEqual([{ path: 'input.password', message: expect.any(String) }]);

    const accepted = await accept({ token, password: 'a long new password', name: 'Rosa P.' });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('set-cookie')).toMatch(/tt_session=tts_/);
    const { data } = await accepted.json();
    expect(data.staff).toEqual({ id: member.id, email, name: 'Rosa P.', role: 'STAFF' });
    expect((await withSession(data.token, 'GET', '/api/v1/auth/session')).status).toBe(200);

    for (const again of [await accept({ token, password: 'another password' }), await lookup(token)]) {
      expect(again.status).toBe(410);
      expect((await again.json()).code).toBe('INVITATION_INVALID');
    }
    expect((await login(email, 'a long new password')).status).toBe(200);
    const listed = await server.send('GET', `/api/v1/staff/${member.id}`, undefined, store.key);
    expect((await listed.json()).data.invitation).toBeNull();
    expect(
      await server.prisma.auditEntry.count({
        where: { targetId: member.id, action: 'staff.invitation_accepted' },
      }),
    ).toBe(1);
  });

  it('accepts through GraphQL too, with one answer for a token that is unknown or malformed', async () => {
    const store = await ownerStore();
    const { mail } = await invite(store.key);
    const { token } = await mail();
    const mutation = `mutation Accept($input: AcceptStaffInvitationInput!) {
      acceptStaffInvitation(input: $input) { staff { role } store { name } }
    }`;
    const res = await server.graphql(mutation, { input: { token, password: 'a long new password' } });
    expect((await res.json()).data.acceptStaffInvitation).toEqual({
      staff: { role: 'STAFF' },
      store: { name: store.name },
    });
    for (const wrong of ['x'.repeat(43), 'not a token']) {
      const refused = await (
        await server.graphql(mutation, { input: { token: wrong, password: 'a long new password' } })
      ).json();
      expect(refused.errors[0].extensions.code).toBe('INVITATION_INVALID');
    }
  });

  it('reads, resends and revokes through GraphQL too; the greeting needs no credential', async () => {
    const store = await ownerStore();
    const { member, email, mail } = await invite(store.key, 'ADMIN', 'Gil');
    const { token } = await mail();
    const greeting = await (
      await server.graphql('query($t: String!) { staffInvitation(token: $t) { storeName email role } }', {
        t: token,
      })
    ).json();
    expect(greeting.data.staffInvitation).toEqual({ storeName: store.name, email, role: 'ADMIN' });
    const resent = await (
      await server.graphql(
        'mutation($id: ID!) { resendStaffInvitation(id: $id) { id invitation { status } } }',
        { id: member.id },
        store.key,
      )
    ).json();
    expect(resent.data.resendStaffInvitation).toEqual({ id: member.id, invitation: { status: 'PENDING' } });
    const revoked = await (
      await server.graphql(
        'mutation($id: ID!) { revokeStaffInvitation(id: $id) { id deleted } }',
        { id: member.id },
        store.key,
      )
    ).json();
    expect(revoked.data.revokeStaffInvitation).toEqual({ id: member.id, deleted: true });
  });

  it('with a password (scripts) stays as before: no invitation, no e-mail', async () => {
    const store = await ownerStore();
    const email = address('scripted');
    const res = await server.send(
      'POST',
      '/api/v1/staff',
      { email, name: 'Script', role: 'STAFF', password: 'correct horse' },
      store.key,
    );
    expect((await res.json()).data.invitation).toBeNull();
    expect(await server.prisma.staffInvitation.count({ where: { storeId: store.id } })).toBe(0);
    expect((await login(email, 'correct horse')).status).toBe(200);
  });

  it('an invite to an address already in the store is a field error on email', async () => {
    const store = await ownerStore();
    const { email } = await invite(store.key);
    const again = await server.send(
      'POST',
      '/api/v1/staff',
      { email, name: 'Twice', role: 'STAFF' },
      store.key,
    );
    expect(again.status).toBe(409);
    expect((await again.json()).details).toEqual([
      { path: 'input.email', message: 'is already a staff member of this store' },
    ]);
  });
});

describe('expiry, resend and revoke', () => {
  afterEach(() => {
    server.clock.now = new Date();
  });

  it('expires after 72 hours; a resend e-mails a new link and the old one is dead at once', async () => {
    const store = await ownerStore();
    const { member, email, mail } = await invite(store.key);
    const first = await mail();
    server.clock.now = new Date(server.clock.now.getTime() + 72 * HOUR - 1000);
    expect((await lookup(first.token)).status).toBe(200);
    server.clock.now = new Date(server.clock.now.getTime() + 1000);
    expect((await lookup(first.token)).status).toBe(410);
    expect((await accept({ token: first.token, password: 'a long new password' })).status).toBe(410);
    const expired = await server.send('GET', `/api/v1/staff/${member.id}`, undefined, store.key);
    expect((await expired.json()).data.invitation.status).toBe('EXPIRED');

    const resent = await server.send(
      'POST',
      `/api/v1/staff/${member.id}/invitation/resend`,
      undefined,
      store.key,
    );
    expect(resent.status).toBe(200);
    expect((await resent.json()).data.invitation.status).toBe('PENDING');
    const second = await latestMail(email, 1);
    expect(second.token).not.toBe(first.token);
    expect((await lookup(first.token)).status).toBe(410);
    expect((await accept({ token: second.token, password: 'a long new password' })).status).toBe(200);

    const again = await server.send(
      'POST',
      `/api/v1/staff/${member.id}/invitation/resend`,
      undefined,
      store.key,
    );
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('INVITATION_NOT_PENDING');
  });

  it('a resend before the first e-mail was used kills the first link too', async () => {
    const store = await ownerStore();
    const { member, email, mail } = await invite(store.key);
    const first = await mail();
    await server.send('POST', `/api/v1/staff/${member.id}/invitation/resend`, undefined, store.key);
    expect((await lookup(first.token)).status).toBe(410);
    const second = await latestMail(email, 1);
    expect((await lookup(second.token)).status).toBe(200);
  });

  it('revoking kills the link and removes the member who never signed in; an accepted member cannot be revoked', async () => {
    const store = await ownerStore();
    const { member, mail } = await invite(store.key);
    const { token } = await mail();
    const revoked = await server.send(
      'DELETE',
      `/api/v1/staff/${member.id}/invitation`,
      undefined,
      store.key,
    );
    expect(revoked.status).toBe(204);
    expect((await lookup(token)).status).toBe(410);
    expect(await server.prisma.staffUser.count({ where: { id: member.id } })).toBe(0);
    expect(
      await server.prisma.auditEntry.count({
        where: { targetId: member.id, action: 'staff.invitation_revoked' },
      }),
    ).toBe(1);

    const other = await invite(store.key);
    await accept({ token: (await other.mail()).token, password: 'a long new password' });
    const late = await server.send(
      'DELETE',
      `/api/v1/staff/${other.member.id}/invitation`,
      undefined,
      store.key,
    );
    expect(late.status).toBe(409);
    expect((await late.json()).code).toBe('INVITATION_NOT_PENDING');
  });
});

describe('who may invite, resend and revoke', () => {
  it('a key with the STAFF scopes but not an owner’s rights cannot invite an OWNER, nor resend or revoke one', async () => {
    const store = await ownerStore();
    const admin = await makeKey(server.prisma, store.id, {
      scopes: toScopeObjects([...roleScopes('ADMIN')]),
    });
    // Every scope, but made by an admin: it does not hold the owner's right.
    await server.prisma.apiKey.update({ where: { id: admin.keyId }, data: { canChangeOwner: false } });
    const refused = await server.send(
      'POST',
      '/api/v1/staff',
      { email: address('owner'), name: 'Owner Two', role: 'OWNER' },
      admin.secret,
    );
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe('INSUFFICIENT_SCOPE');

    const { member } = await invite(store.key, 'OWNER');
    for (const [method, path] of [
      ['POST', `/api/v1/staff/${member.id}/invitation/resend`],
      ['DELETE', `/api/v1/staff/${member.id}/invitation`],
    ] as const) {
      const res = await server.send(method, path, undefined, admin.secret);
      expect({ path, status: res.status, code: (await res.json()).code }).toEqual({
        path,
        status: 403,
        code: 'INSUFFICIENT_SCOPE',
      });
    }
    const { token: adminSession } = await signInAs(server, store.id, 'ADMIN');
    const bySession = await withSession(adminSession, 'POST', `/api/v1/staff/${member.id}/invitation/resend`);
    expect(bySession.status).toBe(403);
  });

  it('a STAFF session cannot resend or revoke', async () => {
    const store = await ownerStore();
    const { member } = await invite(store.key);
    const { token } = await signInAs(server, store.id, 'STAFF');
    expect((await withSession(token, 'POST', `/api/v1/staff/${member.id}/invitation/resend`)).status).toBe(
      403,
    );
    expect((await withSession(token, 'DELETE', `/api/v1/staff/${member.id}/invitation`)).status).toBe(403);
  });
});

describe('an owner still invited', () => {
  it('is not another owner: the one owner who signs in cannot step down in its favour until it accepts', async () => {
    const store = await ownerStore();
    // The store's first owner leaves; one owner signs in, another is invited as OWNER.
    await server.prisma.staffUser.updateMany({ where: { storeId: store.id }, data: { isActive: false } });
    const { token, staffId } = await signInAs(server, store.id, 'OWNER');
    const { mail } = await invite(store.key, 'OWNER');
    const stepDown = () => withSession(token, 'PATCH', `/api/v1/staff/${staffId}`, { role: 'ADMIN' });
    const refused = await stepDown();
    expect(refused.status).toBe(409);
    expect((await refused.json()).code).toBe('LAST_OWNER');
    const deactivate = await withSession(token, 'PATCH', `/api/v1/staff/${staffId}`, { isActive: false });
    expect((await deactivate.json()).code).toBe('LAST_OWNER');

    const { token: link } = await mail();
    expect((await accept({ token: link, password: 'a new owner password' })).status).toBe(200);
    const stepped = await stepDown();
    expect(stepped.status).toBe(200);
    expect((await stepped.json()).data.role).toBe('ADMIN');
  });
});

describe('throttling guesses', () => {
  it('refuses a token tried too often with 429, like sign-in', async () => {
    const guess = 'g'.repeat(43);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await lookup(guess)).status);
    answers.push((await accept({ token: guess, password: 'a long new password' })).status);
    expect(answers).toEqual([410, 410, 410, 410, 410, 429, 429]);
  });
});

describe('the account of the signed-in member', () => {
  it('changes the password: a wrong current one is a field error; other sessions end, this one stays', async () => {
    const store = await ownerStore();
    const first = await signInAs(server, store.id, 'STAFF');
    const staff = await server.prisma.staffUser.findUniqueOrThrow({ where: { id: first.staffId } });
    const other = await login(staff.email, 'correct horse');
    const otherToken = (await other.json()).data.token as string;

    const wrong = await withSession(first.token, 'POST', '/api/v1/auth/password', {
      currentPassword: 'not it',
      newPassword: 'a long new password',
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).details).toEqual([
      { path: 'input.currentPassword', message: 'is not your current password' },
    ]);

    const changed = await withSession(first.token, 'POST', '/api/v1/auth/password', {
      currentPassword: 'correct horse',
      newPassword: 'a long new password',
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).data).toEqual({ signedOutSessions: 1 });
    expect((await withSession(first.token, 'GET', '/api/v1/auth/session')).status).toBe(200);
    expect((await withSession(otherToken, 'GET', '/api/v1/auth/session')).status).toBe(401);
    expect((await login(staff.email, 'correct horse')).status).toBe(401);
    expect((await login(staff.email, 'a long new password')).status).toBe(200);
  });

  it('keeps no idempotency record of a password change, not even a digest of the passwords', async () => {
    const store = await ownerStore();
    const me = await signInAs(server, store.id, 'ADMIN');
    const res = await server.request('/api/v1/auth/password', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${me.token}`,
        'content-type': 'application/json',
        'idempotency-key': 'change-1',
      },
      body: JSON.stringify({ currentPassword: 'correct horse', newPassword: 'a long new password' }),
    });
    expect(res.status).toBe(200);
    expect(await server.prisma.idempotencyRecord.count({ where: { scope: `staff:${me.staffId}` } })).toBe(0);
  });

  it('signs out every other session and says how many', async () => {
    const store = await ownerStore();
    const me = await signInAs(server, store.id, 'ADMIN');
    const staff = await server.prisma.staffUser.findUniqueOrThrow({ where: { id: me.staffId } });
    const others = [];
    for (let i = 0; i < 2; i++)
      others.push((await (await login(staff.email, 'correct horse')).json()).data.token);
    const res = await withSession(me.token, 'POST', '/api/v1/auth/sessions/sign-out-others');
    expect((await res.json()).data).toEqual({ signedOutSessions: 2 });
    for (const token of others)
      expect((await withSession(token, 'GET', '/api/v1/auth/session')).status).toBe(401);
    expect((await withSession(me.token, 'GET', '/api/v1/auth/session')).status).toBe(200);
  });

  it('refuses an API key clearly: a key has no account', async () => {
    const store = await ownerStore();
    for (const [path, body] of [
      ['/api/v1/auth/password', { currentPassword: 'x', newPassword: 'a long new password' }],
      ['/api/v1/auth/sessions/sign-out-others', undefined],
    ] as const) {
      const res = await server.send('POST', path, body, store.key);
      expect({ status: res.status, code: (await res.json()).code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
    }
  });
});

describe('the API log', () => {
  it('records the invitation requests without any token they carried', () => {
    expect(tokensSeen.size).toBeGreaterThan(5);
    const text = apiLog.text();
    expect(text).toContain('"path":"/api/v1/auth/invitation"');
    expect(text).toContain('"path":"/api/v1/auth/accept-invite"');
    for (const token of tokensSeen) expect(text).not.toContain(token);
  });
});
