import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  addStaff,
  DESKTOP,
  eventually,
  expectText,
  inBrowser,
  openSection,
  PHONE,
  signIn,
  statusIn,
  storeWithStaff,
  withDashboard,
} from './setup';

/** docs/design.md "The dashboard": sign-in and API keys, in Chromium. */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;
let shop: Awaited<ReturnType<typeof storeWithStaff>>;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});
beforeAll(async () => {
  shop = await storeWithStaff(server, 'PRO', 'OWNER');
});

it('shows a wrong password in an alert, and stays on sign-in', async () => {
  await inBrowser(browser, 'wrong-password', async (page) => {
    await page.goto(`${server.baseUrl}/keys`);
    await page.getByLabel('Email').fill(shop.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectText(page.getByRole('alert'), 'UNAUTHENTICATED');
    expect(await page.getByRole('navigation', { name: 'Sections' }).count()).toBe(0);
  });
});

it('creates a key with only Products READ, shows its secret once, and revokes it', async () => {
  await inBrowser(browser, 'create-use-revoke-key', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'API keys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('Catalogue reader');
    await dialog.getByLabel('Products READ').check();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByRole('dialog', { name: 'API key Catalogue reader created' });
    const secret = await shown.getByLabel('Your new API key').inputValue();
    expect(secret).toMatch(/^tt_/);
    await expectText(shown, 'it will not be shown again');
    expect(await shown.getByRole('button', { name: 'Copy' }).count()).toBe(1);
    await shown.getByRole('button', { name: 'Done' }).click();

    // The table shows the last four characters and the scope, never the secret.
    const row = page.getByRole('row', { name: /Catalogue reader/ });
    await expectText(row, `…${secret.slice(-4)}`);
    await expectText(row, 'Products READ');
    expect(await page.content()).not.toContain(secret);

    // The key works as made: Products READ and nothing else.
    expect((await server.request('/api/v1/product', { key: secret })).status).toBe(200);
    const orders = await server.request('/api/v1/order/vendor', { key: secret });
    expect(orders.status).toBe(403);
    expect((await orders.json()).code).toBe('INSUFFICIENT_SCOPE');

    await page.getByRole('button', { name: 'Revoke Catalogue reader' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Catalogue reader?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await confirm.waitFor({ state: 'detached' });
    await statusIn(page.getByRole('row', { name: /Catalogue reader/ }), 'revoked');

    const revoked = await server.request('/api/v1/product', { key: secret });
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).code).toBe('API_KEY_REVOKED');
  });
});

it('shows a field error beside the field, deactivates and activates, and rotates with a grace period', async () => {
  await inBrowser(browser, 'key-errors-toggle-rotate', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'API keys');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill('Toggled');
    await dialog.getByLabel('Orders READ').check();
    await dialog.getByLabel('IP allowlist').fill('not-an-address');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    // The server's message, beside its field, and the field marked invalid.
    const ipField = dialog.getByLabel('IP allowlist');
    await eventually(async () => (await ipField.getAttribute('aria-invalid')) === 'true');
    const described = await ipField.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toMatch(/\S/);

    await ipField.fill('127.0.0.1');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = await page
      .getByRole('dialog', { name: 'API key Toggled created' })
      .getByLabel('Your new API key')
      .inputValue();
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Deactivate Toggled' }).click();
    await statusIn(page.getByRole('row', { name: /Toggled/ }), 'inactive');
    expect((await (await server.request('/api/v1/order/vendor', { key: secret })).json()).code).toBe(
      'API_KEY_INACTIVE',
    );
    await page.getByRole('button', { name: 'Activate Toggled' }).click();
    await statusIn(page.getByRole('row', { name: /Toggled/ }), 'active');
    expect((await server.request('/api/v1/order/vendor', { key: secret })).status).toBe(200);

    await page.getByRole('button', { name: 'Rotate Toggled' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate Toggled' });
    await rotate.getByLabel('Grace period').selectOption({ label: '1 hour' });
    await rotate.getByRole('button', { name: 'Rotate key' }).click();
    const rotated = await page
      .getByRole('dialog', { name: 'Toggled rotated' })
      .getByLabel('The new secret')
      .inputValue();
    expect(rotated).toMatch(/^tt_/);
    expect(rotated).not.toBe(secret);
    // Both work during the grace period.
    expect((await server.request('/api/v1/order/vendor', { key: rotated })).status).toBe(200);
    expect((await server.request('/api/v1/order/vendor', { key: secret })).status).toBe(200);
  });
});

it.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('marks, in words, the keys near their expiry or their usage limit (%s)', async (size, device) => {
  const owner = await storeWithStaff(server, 'PRO', 'OWNER');
  const day = 86_400_000;
  await makeKey(server.prisma, owner.storeId, {
    keyName: 'Ending',
    expiresAt: new Date(Date.now() + 3 * day),
  });
  await makeKey(server.prisma, owner.storeId, {
    keyName: 'Lasting',
    expiresAt: new Date(Date.now() + 30 * day),
  });
  const busy = await makeKey(server.prisma, owner.storeId, { keyName: 'Busy', usageLimit: 200 });
  const calm = await makeKey(server.prisma, owner.storeId, { keyName: 'Calm', usageLimit: 200 });
  await server.prisma.apiKey.update({ where: { id: busy.keyId }, data: { usageCount: 170 } });
  await server.prisma.apiKey.update({ where: { id: calm.keyId }, data: { usageCount: 150 } });
  await inBrowser(
    browser,
    `key-notices-${size}`,
    async (page) => {
      await signIn(page, server, owner.email);
      await openSection(page, 'API keys');
      const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name} `) });
      await expectText(row('Ending'), 'Expires within 7 days');
      await expectText(row('Busy'), '85 % of limit used');
      for (const calmKey of ['Lasting', 'Calm'])
        expect(await row(calmKey).locator('.key-notice').count()).toBe(0);
      // The badge is text in the row's header, so a screen reader names the row with it.
      expect(await row('Busy').getByRole('rowheader', { name: 'Busy 85 % of limit used' }).count()).toBe(1);
      await page.screenshot({
        path: `test-artifacts/dashboard/pages/${size}-key-notices.png`,
        fullPage: true,
      });
    },
    device,
  );
});

it('tells the owner of a FREE store that the plan has no API access, with no create button', async () => {
  const free = await storeWithStaff(server, 'FREE', 'OWNER');
  await inBrowser(browser, 'free-plan-keys', async (page) => {
    await signIn(page, server, free.email);
    await openSection(page, 'API keys');
    await expectText(page.getByRole('note'), 'FREE');
    await expectText(page.getByRole('note'), 'does not include API access');
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
  });
});

it('tells a staff member that API keys are not theirs', async () => {
  const staff = await addStaff(server, shop.storeId, 'STAFF');
  await inBrowser(browser, 'staff-keys', async (page) => {
    await signIn(page, server, staff.email);
    await openSection(page, 'API keys');
    await expectText(page.getByRole('note'), 'owners and admins');
    expect(await page.getByRole('button', { name: 'Create API key' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
  });
});

it('a form on another site cannot create a key with the signed-in cookie', async () => {
  const keysBefore = await server.prisma.apiKey.count({ where: { storeId: shop.storeId } });
  // The attacker's page: another origin (localhost, not 127.0.0.1) posting a form to the API.
  const target = `${server.baseUrl}/api/v1/api-key`;
  const evil: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><form method="post" action="${target}" enctype="text/plain">
      <input name='{"keyName":"Forged","environment":"production","scopes":[],"x":"' value='"}'>
      <button>Win a prize</button></form>`);
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  try {
    await inBrowser(browser, 'cross-site-form', async (page) => {
      await signIn(page, server, shop.email);
      await page.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const answer = page.waitForResponse(target);
      await page.getByRole('button', { name: 'Win a prize' }).click();
      expect((await answer).status()).toBeGreaterThanOrEqual(400);
    });
  } finally {
    evil.closeAllConnections();
    await new Promise((resolve) => evil.close(resolve));
  }
  expect(await server.prisma.apiKey.count({ where: { storeId: shop.storeId } })).toBe(keysBefore);
});
