import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { type Receiver, serverEnv, startReceiver } from '../helpers/webhooks';
import {
  eventually,
  expectText,
  inBrowser,
  launchBrowser,
  openSection,
  PHONE,
  signIn,
  startDashboardServer,
  storeWithStaff,
} from './setup';

/** Issue 31 item 2 in the dashboard: "Max deliveries per second" in the endpoint forms, desktop and phone. */
jest.setTimeout(120_000);

const SHOTS = path.join(__dirname, '..', '..', 'test-artifacts', 'dashboard', 'pages');
let server: TestServer;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  [server, browser, receiver] = await Promise.all([
    startDashboardServer(serverEnv),
    launchBrowser(),
    startReceiver(() => ({ status: 200 })),
  ]);
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await receiver?.close();
  await browser?.close();
  await server?.close();
});

const shot = (page: Page, size: 'desktop' | 'phone', name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${size}-${name}.png`), fullPage: true });

/** The field's message (its error, else its hint), as a reader of the form hears it. */
async function messageOf(page: Page, field: ReturnType<Page['getByLabel']>) {
  return page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`);
}

it('adds an endpoint with a rate (a zero refused beside the field), shows it on the endpoint page and lifts it', async () => {
  const shop = await storeWithStaff(server, 'PRO', 'OWNER');
  await inBrowser(browser, 'endpoint-rate-desktop', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('URL').fill(receiver.url('/rated'));
    await dialog.getByLabel('order.placed').check();
    const rate = dialog.getByLabel('Max deliveries per second');
    await expectText(await messageOf(page, rate), 'empty means unlimited');
    await rate.fill('0');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await eventually(async () => (await rate.getAttribute('aria-invalid')) === 'true');
    await expectText(await messageOf(page, rate), 'at least 1');
    expect(await server.prisma.webhookEndpoint.count({ where: { storeId: shop.storeId } })).toBe(0);
    await shot(page, 'desktop', 'endpoint-rate-form');

    await rate.fill('5');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    await added.getByRole('button', { name: 'Done' }).click();
    const endpoint = await server.prisma.webhookEndpoint.findFirstOrThrow({
      where: { storeId: shop.storeId },
    });
    expect(endpoint.rateLimitPerSecond).toBe(5);

    await page.getByRole('link', { name: receiver.url('/rated') }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await expectText(page.locator('dl.facts'), '5 per second');
    await page.getByRole('button', { name: 'Change rate' }).click();
    const change = page.getByRole('dialog', { name: 'Delivery rate' });
    await change.getByLabel('Max deliveries per second').fill('');
    await change.getByRole('button', { name: 'Save rate' }).click();
    await change.waitFor({ state: 'detached' });
    await expectText(page.locator('dl.facts'), 'Unlimited');
    await eventually(async () => {
      const row = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
      return row.rateLimitPerSecond === null;
    });
    await shot(page, 'desktop', 'endpoint-rate');
  });
});

it('changes the rate from the endpoint page on a phone, with a fraction refused beside the field', async () => {
  const shop = await storeWithStaff(server, 'PRO', 'OWNER');
  const { id } = await server.prisma.webhookEndpoint.create({
    data: {
      storeId: shop.storeId,
      url: receiver.url('/phone'),
      events: ['order.placed'],
      secretCiphertext: 'unused by this page',
      rateLimitPerSecond: 3,
    },
  });
  await inBrowser(
    browser,
    'endpoint-rate-phone',
    async (page) => {
      await signIn(page, server, shop.email);
      await page.goto(`${server.baseUrl}/webhooks/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
      await expectText(page.locator('dl.facts'), '3 per second');
      await page.getByRole('button', { name: 'Change rate' }).click();
      const change = page.getByRole('dialog', { name: 'Delivery rate' });
      const rate = change.getByLabel('Max deliveries per second');
      await rate.fill('2.5');
      await change.getByRole('button', { name: 'Save rate' }).click();
      await eventually(async () => (await rate.getAttribute('aria-invalid')) === 'true');
      await shot(page, 'phone', 'endpoint-rate-form');
      await rate.fill('7');
      await change.getByRole('button', { name: 'Save rate' }).click();
      await change.waitFor({ state: 'detached' });
      await expectText(page.locator('dl.facts'), '7 per second');
      await shot(page, 'phone', 'endpoint-rate');
    },
    PHONE,
  );
  const row = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
  expect(row.rateLimitPerSecond).toBe(7);
});
