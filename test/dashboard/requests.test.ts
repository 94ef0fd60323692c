import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { DESKTOP, inBrowser, openSection, PHONE, signIn, storeWithStaff, withDashboard } from './setup';

/**
 * README "Request log": the dashboard's Requests page, reached from a key's row on the keys page,
 * filtered by status class and by a request id (as an error's body gives it), with its empty state,
 * at desktop and phone sizes.
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;
let shop: Awaited<ReturnType<typeof storeWithStaff>>;
let failedRequestId: string;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});
beforeAll(async () => {
  shop = await storeWithStaff(server, 'PRO', 'OWNER');
  const key = await makeKey(server.prisma, shop.storeId, { keyName: 'Storefront' });
  for (let i = 0; i < 3; i++) await server.request('/api/v1/category', { key: key.secret });
  const failed = await server.request('/api/v1/product/prod_missing', { key: key.secret });
  failedRequestId = failed.headers.get('x-request-id') as string;
  await new Promise((resolve) => setImmediate(resolve));
  await server.runtime.requestLog.flush();
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-artifacts/dashboard/pages/${name}.png`, fullPage: true });

const rows = (page: Page) => page.getByRole('table', { name: 'Requests, newest first' }).locator('tbody tr');

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as Array<[string, BrowserContextOptions]>)('at %s size', (size, options) => {
  it('opens a key’s requests from its row, filters by status class and finds a request id', async () => {
    await inBrowser(
      browser,
      `${size}-requests`,
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'API keys');
        await page.getByRole('link', { name: 'Requests of Storefront' }).click();
        await page.getByRole('heading', { level: 1, name: 'Requests' }).waitFor();
        await rows(page).first().waitFor();
        expect(await rows(page).count()).toBe(4);
        await shot(page, `${size}-requests`);

        await page.getByLabel('Status').selectOption('CLIENT_ERROR');
        await page.getByRole('button', { name: 'Filter' }).click();
        await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
        expect(await rows(page).first().textContent()).toContain('/api/v1/product/{id}');
        expect(await rows(page).first().textContent()).toContain('NOT_FOUND');

        await page.getByLabel('Status').selectOption('');
        await page.getByLabel('Request id').fill(failedRequestId);
        await page.getByRole('button', { name: 'Filter' }).click();
        await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
        expect(await rows(page).first().textContent()).toContain(failedRequestId);

        await page.getByLabel('Request id').fill('req_nothing_like_it');
        await page.getByRole('button', { name: 'Filter' }).click();
        await page.getByText('No requests match').waitFor();
        await shot(page, `${size}-requests-empty`);
      },
      options,
    );
  });
});
