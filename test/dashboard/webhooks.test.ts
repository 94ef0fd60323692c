import type { Runner } from 'graphile-worker';
import type { Browser } from 'playwright-core';
import { eventDescriptions } from '../../src/events/catalog';
import type { TestServer } from '../helpers/server';
import { type Receiver, serverEnv, startReceiver, startTestWorker } from '../helpers/webhooks';
import {
  DESKTOP,
  eventually,
  expectText,
  inBrowser,
  launchBrowser,
  openSection,
  PHONE,
  signIn,
  startDashboardServer,
  statusIn,
  storeWithStaff,
} from './setup';

/** docs/design.md "The dashboard": webhooks, in Chromium, with a worker delivering to a local HTTPS receiver. */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;
let receiver: Receiver;
let worker: Runner;
let shop: Awaited<ReturnType<typeof storeWithStaff>>;

beforeAll(async () => {
  [server, browser, receiver] = await Promise.all([
    startDashboardServer(serverEnv),
    launchBrowser(),
    startReceiver(() => ({ status: 200, body: 'thanks' })),
  ]);
  worker = await startTestWorker(server);
  shop = await storeWithStaff(server, 'PRO', 'OWNER');
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await browser?.close();
  await server?.close();
});

it('refuses an http:// URL with the message beside the URL field', async () => {
  await inBrowser(browser, 'webhook-http-url', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Webhooks');
    await expectText(page.getByText(/endpoints in use/), '0 of 5 endpoints in use');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('URL').fill('http://example.com/hooks');
    await dialog.getByLabel('order.placed').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const url = dialog.getByLabel('URL');
    await eventually(async () => (await url.getAttribute('aria-invalid')) === 'true');
    const message = page.locator(`[id="${await url.getAttribute('aria-describedby')}"]`);
    await expectText(message, 'https');
    expect(await server.prisma.webhookEndpoint.count({ where: { storeId: shop.storeId } })).toBe(0);
  });
});

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the endpoint form at %s size', (size, options) => {
  it('shows each event type’s description beside its checkbox, from the published event types', async () => {
    await inBrowser(
      browser,
      `webhook-event-descriptions-${size}`,
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'Webhooks');
        await page.getByRole('button', { name: 'Add endpoint' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
        for (const [type, description] of Object.entries(eventDescriptions)) {
          const box = dialog.getByRole('checkbox', { name: type, exact: true });
          const described = page.locator(`[id="${await box.getAttribute('aria-describedby')}"]`);
          await expectText(described, description);
          // beside it: on the box's row at desktop size, just below it on a phone
          const [boxAt, textAt] = await Promise.all([box.boundingBox(), described.boundingBox()]);
          if (size === 'desktop') expect(textAt!.x).toBeGreaterThan(boxAt!.x + boxAt!.width);
          else expect(textAt!.y).toBeGreaterThanOrEqual(boxAt!.y);
          expect(Math.abs(textAt!.y - boxAt!.y)).toBeLessThan(80);
        }
        await page.screenshot({
          path: `test-artifacts/dashboard/pages/${size}-webhooks-add-endpoint.png`,
          fullPage: true,
        });
      },
      options,
    );
  });
});

it('adds an endpoint (secret once), sends a test event, shows it in the log, and resends it', async () => {
  await inBrowser(browser, 'webhook-test-and-resend', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('URL').fill(receiver.url('/dashboard'));
    await dialog.getByLabel('All events (*)').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    const secret = await added.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expectText(added, 'it will not be shown again');
    await added.getByRole('button', { name: 'Done' }).click();
    await expectText(page.getByText(/endpoints in use/), '1 of 5 endpoints in use');

    await page.getByRole('link', { name: receiver.url('/dashboard') }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [first] = await receiver.waitFor(1, (r) => r.path === '/dashboard');
    const deliveryId = first?.headers['x-service-delivery'] as string;

    // The log follows the worker: the delivery appears and turns to success without a reload.
    const row = page.getByRole('row', { name: /webhook\.test/ });
    await statusIn(row, 'success');
    await expectText(row, '200');

    await row.getByRole('link', { name: 'webhook.test' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delivery of webhook.test' }).waitFor();
    await expectText(page.getByRole('region', { name: 'Request body' }), deliveryId);
    await expectText(page.getByRole('table'), 'thanks');
    await page.getByRole('button', { name: 'Resend' }).click();
    const both = await receiver.waitFor(2, (r) => r.path === '/dashboard');
    expect(both.map((r) => r.headers['x-service-delivery'])).toEqual([deliveryId, deliveryId]);
    // Both attempts are on the page once the second one is recorded.
    await eventually(
      async () => (await page.getByRole('row', { name: /^2 success/ }).count()) === 1,
      undefined,
      20_000,
    );
  });
});

it('rotates the signing secret (shown once), disables and re-activates, and replays exhausted deliveries', async () => {
  await inBrowser(browser, 'webhook-rotate-disable-replay', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Webhooks');
    await page.getByRole('link', { name: receiver.url('/dashboard') }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    const endpointId = page.url().split('/').pop() as string;

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate signing secret' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = await page
      .getByRole('dialog', { name: 'Signing secret rotated' })
      .getByLabel('New signing secret')
      .inputValue();
    expect(rotated).toMatch(/^whsec_/);
    const stored = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
    expect(server.runtime.services.webhooks?.secrets.open(stored.secretCiphertext, stored.id)).toBe(rotated);
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: 'Disable' }).click();
    await expectText(page.getByRole('status'), 'disabled');
    await eventually(
      async () =>
        !(await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).isActive,
    );
    await page.getByRole('button', { name: 'Re-activate' }).click();
    await expectText(page.getByRole('status'), 'active again');

    // An exhausted delivery to replay, as the retries would leave it.
    const delivery = await server.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId } });
    await server.prisma.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: 'exhausted', exhaustedAt: new Date() },
    });
    await page.getByRole('button', { name: 'Replay exhausted deliveries' }).click();
    await expectText(page.getByRole('status'), '1 exhausted delivery was re-queued');
    await page.getByLabel('Status').selectOption('exhausted');
    await expectText(page.getByRole('main'), 'No deliveries match.');
  });
});
