import type { StaffRole } from '../../prisma/generated/client/enums';
import { makeKey, makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { signInAs } from '../helpers/sessions';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function freshStore() {
  const store = await makeStore(server.prisma, { name: 'Settings Shop' });
  return {
    id: store.id,
    contactEmail: store.contactEmail,
    key: (await makeKey(server.prisma, store.id)).secret,
  };
}

const send = (key: string, method: string, body?: unknown) =>
  server.request('/api/v1/store/settings', {
    method,
    key,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

const patch = (key: string, body: unknown) => send(key, 'PATCH', body);

describe('GET /store/settings', () => {
  it('shows the caller’s store', async () => {
    const store = await freshStore();
    const res = await send(store.key, 'GET');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      data: {
        id: store.id,
        name: 'Settings Shop',
        currency: 'USD',
        timezone: 'UTC',
        contactEmail: store.contactEmail,
        plan: 'PRO',
        planFeatures: { apiAccess: true, webhooks: true, webhookEndpointLimit: 5 },
        status: 'ACTIVE',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
  });

  it('shows what a plan without API access or webhooks includes (the one table, src/access/plans.ts)', async () => {
    const starter = await makeStore(server.prisma, { plan: 'STARTER' });
    const { token } = await signInAs(server, starter.id, 'OWNER');
    const res = await server.request('/api/v1/store/settings', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await res.json()).data).toMatchObject({
      plan: 'STARTER',
      planFeatures: { apiAccess: false, webhooks: false, webhookEndpointLimit: 0 },
    });
  });
});

describe('PATCH /store/settings', () => {
  it('changes name, currency, time zone and contact e-mail, normalised, and records what changed', async () => {
    const store = await freshStore();
    const res = await patch(store.key, {
      name: '  Renamed Shop ',
      currency: 'eur',
      timezone: 'europe/berlin',
      contactEmail: ' Hello@Shop.TEST ',
    });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toEqual(
      expect.objectContaining({
        name: 'Renamed Shop',
        currency: 'EUR',
        timezone: 'Europe/Berlin',
        contactEmail: 'hello@shop.test',
        plan: 'PRO',
        status: 'ACTIVE',
        updatedAt: server.clock.now.toISOString(),
      }),
    );
    expect((await (await send(store.key, 'GET')).json()).data).toEqual(data);
    const audit = await server.prisma.auditEntry.findFirstOrThrow({
      where: { storeId: store.id, action: 'store.settings_updated' },
    });
    expect(audit.details).toEqual({
      changes: {
        name: { from: 'Settings Shop', to: 'Renamed Shop' },
        currency: { from: 'USD', to: 'EUR' },
        timezone: { from: 'UTC', to: 'Europe/Berlin' },
        contactEmail: { from: store.contactEmail, to: 'hello@shop.test' },
      },
    });
  });

  it('changes one field at a time and clears the contact e-mail with null', async () => {
    const store = await freshStore();
    const tz = await patch(store.key, { timezone: 'America/New_York' });
    expect((await tz.json()).data).toEqual(
      expect.objectContaining({ name: 'Settings Shop', currency: 'USD', timezone: 'America/New_York' }),
    );
    const cleared = await patch(store.key, { contactEmail: null });
    expect((await cleared.json()).data.contactEmail).toBeNull();
    const nothing = await patch(store.key, {});
    expect(nothing.status).toBe(200);
    expect((await nothing.json()).data).toEqual(
      expect.objectContaining({ timezone: 'America/New_York', contactEmail: null }),
    );
  });

  it('refuses an invalid time zone, currency, name or e-mail with field paths and changes nothing', async () => {
    const store = await freshStore();
    const before = await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } });
    for (const [body, path] of [
      [{ timezone: 'Mars/Olympus' }, 'input.timezone'],
      [{ timezone: '+01:00' }, 'input.timezone'],
      [{ timezone: 'UTC+1' }, 'input.timezone'],
      [{ timezone: '' }, 'input.timezone'],
      [{ timezone: 'Europe/Berlin'.repeat(6) }, 'input.timezone'],
      [{ currency: 'XYZ' }, 'input.currency'],
      [{ currency: 'EURO' }, 'input.currency'],
      [{ currency: 'E1' }, 'input.currency'],
      [{ currency: null }, 'input.currency'],
      [{ name: '   ' }, 'input.name'],
      [{ name: 'x'.repeat(101) }, 'input.name'],
      [{ name: null }, 'input.name'],
      [{ contactEmail: 'not-an-email' }, 'input.contactEmail'],
      [{ timezone: 'Europe/Berlin', currency: 'XYZ' }, 'input.currency'],
      [{ ownerId: 'usr_x' }, 'input.ownerId'],
    ] as const) {
      const res = await patch(store.key, body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(json.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } })).toEqual(before);
    expect(
      await server.prisma.auditEntry.count({
        where: { storeId: store.id, action: 'store.settings_updated' },
      }),
    ).toBe(0);
  });

  it('refuses plan and status as read-only with a clear message, even beside valid fields', async () => {
    const store = await freshStore();
    for (const [body, path, reason] of [
      [{ plan: 'SCALE' }, 'input.plan', /read-only; the plan changes through billing/],
      [{ plan: null }, 'input.plan', /read-only/],
      [{ status: 'SUSPENDED' }, 'input.status', /read-only; a store is suspended or resumed by the operator/],
      [{ name: 'Fine', status: 'ACTIVE' }, 'input.status', /read-only/],
    ] as const) {
      const res = await patch(store.key, body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.code).toBe('VALIDATION_ERROR');
      expect(json.details).toEqual([{ path, message: expect.stringMatching(reason) }]);
      expect(json.message).toMatch(new RegExp(`^${path}: is read-only`));
    }
    const after = await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } });
    expect(after).toEqual(expect.objectContaining({ name: 'Settings Shop', plan: 'PRO', status: 'ACTIVE' }));
  });

  it('needs STORE_SETTINGS READ to read and UPDATE to change', async () => {
    const store = await freshStore();
    const readOnly = (
      await makeKey(server.prisma, store.id, { scopes: [{ resource: 'STORE_SETTINGS', actions: ['READ'] }] })
    ).secret;
    const updateOnly = (
      await makeKey(server.prisma, store.id, {
        scopes: [{ resource: 'STORE_SETTINGS', actions: ['UPDATE'] }],
      })
    ).secret;
    expect((await send(readOnly, 'GET')).status).toBe(200);
    const denied = await patch(readOnly, { name: 'Nope' });
    expect(denied.status).toBe(403);
    expect((await denied.json()).code).toBe('INSUFFICIENT_SCOPE');
    expect((await send(updateOnly, 'GET')).status).toBe(403);
    expect((await patch(updateOnly, { name: 'Allowed' })).status).toBe(200);
  });

  it('is open to owners and admins through a dashboard session, not to staff', async () => {
    const store = await freshStore();
    const signIn = async (role: StaffRole) => (await signInAs(server, store.id, role)).token;

    const asSession = (token: string, body: unknown) =>
      server.request('/api/v1/store/settings', {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await asSession(await signIn('ADMIN'), { name: 'By Admin' })).status).toBe(200);
    const staff = await asSession(await signIn('STAFF'), { name: 'By Staff' });
    expect(staff.status).toBe(403);
    expect((await server.prisma.store.findUniqueOrThrow({ where: { id: store.id } })).name).toBe('By Admin');
  });

  it('does the same through GraphQL', async () => {
    const store = await freshStore();
    const ok = await (
      await server.graphql(
        'mutation { updateStoreSettings(input: { timezone: "Asia/Tokyo" }, idempotencyKey: "s-1") { timezone plan } }',
        {},
        store.key,
      )
    ).json();
    expect(ok.data.updateStoreSettings).toEqual({ timezone: 'Asia/Tokyo', plan: 'PRO' });
    const refused = await (
      await server.graphql('mutation { updateStoreSettings(input: { plan: FREE }) { plan } }', {}, store.key)
    ).json();
    expect(refused.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    expect(refused.errors[0].message).toMatch(/input\.plan: is read-only/);
  });
});
