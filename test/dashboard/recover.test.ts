import type { Runner } from 'graphile-worker';
import type { Browser, Page } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  createCategory,
  jsonHeaders,
  type Receiver,
  serverEnv,
  startReceiver,
  startTestWorker,
} from '../helpers/webhooks';
import {
  DESKTOP,
  eventually,
  expectText,
  inBrowser,
  launchBrowser,
  PHONE,
  signIn,
  startDashboardServer,
  storeWithStaff,
} from './setup';

/**
 * README "Webhooks", Recover, on the endpoint page: the "Recover…" dialog (since, until, event types,
 * the server's field messages) and the latest recovery's progress, in Chromium at a desktop's and a
 * phone's size, with a worker delivering to a local HTTPS receiver that was down and is back.
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;
let receiver: Receiver;
let worker: Runner;
let receiverDown = true;

beforeAll(async () => {
  [server, browser, receiver] = await Promise.all([
    startDashboardServer(serverEnv),
    launchBrowser(),
    startReceiver(() => ({ status: receiverDown ? 503 : 200 })),
  ]);
  worker = await startTestWorker(server);
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await browser?.close();
  await server?.close();
});

/** A store whose endpoint at `path` has one category.created delivery failed while the receiver was down. */
async function failedDelivery(path: string) {
  const shop = await storeWithStaff(server, 'PRO', 'OWNER');
  const { secret: key } = await makeKey(server.prisma, shop.storeId);
  receiverDown = true;
  const res = await server.request('/api/v1/store/webhooks/endpoints', {
    method: 'POST',
    headers: jsonHeaders(key),
    body: JSON.stringify({ url: receiver.url(path), events: ['category.created', 'category.updated'] }),
  });
  const endpointId = (await res.json()).data.id as string;
  await createCategory(server, key, 'Umbrellas');
  const failed = { endpointId, status: 'failed' } as const;
  await eventually(async () => (await server.prisma.webhookDelivery.count({ where: failed })) === 1);
  const delivery = await server.prisma.webhookDelivery.findFirstOrThrow({ where: failed });
  receiverDown = false;
  const backAt = Date.now();
  // The server's clock is the test's: now, so the recover's window reaches the delivery.
  server.clock.now = new Date();
  return { shop, endpointId, delivery, backAt };
}

const openEndpoint = async (page: Page, endpointId: string) => {
  await page.goto(`${server.baseUrl}/webhooks/${endpointId}`);
  await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
};

it('recovers the failed delivery from the dialog and shows the progress done (desktop)', async () => {
  const { shop, endpointId, delivery, backAt } = await failedDelivery('/desktop');
  await inBrowser(
    browser,
    'recover-desktop',
    async (page) => {
      await signIn(page, server, shop.email);
      await openEndpoint(page, endpointId);
      await page.getByRole('button', { name: 'Recover…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Recover failed deliveries' });
      // More than 30 days back: the server's message beside the field.
      const since = dialog.getByLabel('Since');
      const chosen = await since.inputValue();
      await since.fill('2020-01-01T00:00');
      await dialog.getByRole('button', { name: 'Recover' }).click();
      await eventually(async () => (await since.getAttribute('aria-invalid')) === 'true');
      await expectText(
        page.locator(`[id="${await since.getAttribute('aria-describedby')}"]`),
        'at most 30 days back',
      );
      await since.fill(chosen);
      await dialog.getByLabel('category.created').check();
      await page.screenshot({ path: 'test-artifacts/dashboard/pages/desktop-endpoint-recover-dialog.png' });
      await dialog.getByRole('button', { name: 'Recover' }).click();
      await expectText(page.getByRole('status').filter({ hasText: 'recovery' }), 'The recovery is queued');

      // The receiver also holds the attempt it answered 503: only what came once it was back counts.
      const resent = await receiver.waitFor(
        1,
        (r) => r.path === '/desktop' && r.headers['webhook-id'] === delivery.id && r.at >= backAt,
      );
      expect(resent).toHaveLength(1);
      const progress = page.getByRole('region', { name: 'Latest recovery' });
      await expectText(progress, '1 of 1 gone through, 1 re-sent');
      await expectText(progress, 'done');
      await expectText(progress, 'category.created');
      await page.screenshot({
        path: 'test-artifacts/dashboard/pages/desktop-endpoint-recover.png',
        fullPage: true,
      });
    },
    DESKTOP,
  );
});

it('opens the dialog and shows a recovery’s progress on a phone', async () => {
  const { shop, endpointId } = await failedDelivery('/phone');
  await inBrowser(
    browser,
    'recover-phone',
    async (page) => {
      await signIn(page, server, shop.email);
      await openEndpoint(page, endpointId);
      await page.getByRole('button', { name: 'Recover…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Recover failed deliveries' });
      await dialog.getByLabel('Until').fill('2020-01-01T00:00');
      await dialog.getByRole('button', { name: 'Recover' }).click();
      await expectText(dialog, 'must be after since');
      await page.screenshot({
        path: 'test-artifacts/dashboard/pages/phone-endpoint-recover-dialog.png',
        fullPage: true,
      });
      await dialog.getByLabel('Until').fill('');
      await dialog.getByRole('button', { name: 'Recover' }).click();
      const progress = page.getByRole('region', { name: 'Latest recovery' });
      await expectText(progress, '1 of 1 gone through, 1 re-sent');
      await page.screenshot({
        path: 'test-artifacts/dashboard/pages/phone-endpoint-recover.png',
        fullPage: true,
      });
    },
    PHONE,
  );
});
