import type { Runner } from 'graphile-worker';
import type { Browser, Page } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  createCategory,
  type Receiver,
  serverEnv,
  startReceiver,
  startTestWorker,
  storeWithEndpoint,
} from '../helpers/webhooks';
import {
  addStaff,
  DESKTOP,
  eventually,
  expectText,
  inBrowser,
  launchBrowser,
  PHONE,
  signIn,
  startDashboardServer,
} from './setup';

/**
 * README "Webhooks", endpoint health on the endpoint's page: a worker delivers four events to a local
 * HTTPS receiver that answers the fourth with 500; the page shows 4 attempts, 75 % succeeded, and per
 * hour (24 rows) or per day (30 rows) charts with their tables, at a desktop's and a phone's size.
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;
let receiver: Receiver;
let worker: Runner;
let endpointId = '';
let email = '';

beforeAll(async () => {
  let received = 0;
  [server, browser, receiver] = await Promise.all([
    startDashboardServer(serverEnv),
    launchBrowser(),
    startReceiver(() => ({ status: ++received === 4 ? 500 : 200 })),
  ]);
  worker = await startTestWorker(server);
  const made = await storeWithEndpoint(server, receiver.url('/health'));
  endpointId = made.endpointId;
  email = (await addStaff(server, made.storeId, 'OWNER')).email;
  for (const name of ['One', 'Two', 'Three']) await createCategory(server, made.key, name);
  await receiver.waitFor(3);
  await createCategory(server, (await makeKey(server.prisma, made.storeId)).secret, 'Four');
  await receiver.waitFor(4);
  await eventually(async () => (await server.prisma.webhookAttempt.count({ where: { endpointId } })) === 4);
  // The API's clock: now, after the attempts.
  server.clock.now = new Date();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await browser?.close();
  await server?.close();
});

const shot = (page: Page, size: string) =>
  page.screenshot({ path: `test-artifacts/dashboard/pages/${size}-endpoint-health.png`, fullPage: true });

async function openEndpoint(page: Page) {
  await signIn(page, server, email);
  await page.goto(`${server.baseUrl}/webhooks/${endpointId}`);
  await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
}

const health = (page: Page) => page.getByRole('region', { name: 'Health', exact: true });

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('at %s size', (size, device) => {
  it('shows the attempts, the success rate and both charts per hour, with their tables', async () => {
    await inBrowser(
      browser,
      `endpoint-health-${size}`,
      async (page) => {
        await openEndpoint(page);
        const figures = health(page).getByRole('region', { name: 'Health, last 24 hours' });
        await expectText(figures, '4 attempts');
        await expectText(figures, '75% succeeded');
        await health(page)
          .getByText('Deliveries, attempts and success rate per hour, last 24 hours as a table')
          .click();
        const table = health(page).locator('details').first().locator('table');
        expect(await table.locator('tbody tr').count()).toBe(24);
        await expectText(table.locator('thead'), 'Hour');
        expect(await table.locator('tbody').textContent()).toContain('75');
        await shot(page, size);
      },
      device,
    );
  });
});

it('switches to 30 days: one row per day of the store, today last (desktop)', async () => {
  await inBrowser(
    browser,
    'endpoint-health-30-days',
    async (page) => {
      await openEndpoint(page);
      await health(page).getByLabel('Window').selectOption('LAST_30_DAYS');
      await expectText(health(page).getByRole('region', { name: 'Health, last 30 days' }), '4 attempts');
      await health(page).getByText('Latency per day (median and p95, ms), last 30 days as a table').click();
      const rows = health(page).locator('details').nth(1).locator('tbody tr');
      expect(await rows.count()).toBe(30);
      const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'UTC' });
      await expectText(rows.last().locator('th'), today);
      // Empty days have no latency: a dash, not 0 ms.
      await expectText(rows.first(), '—');
    },
    DESKTOP,
  );
});
