import type { Browser } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  eventually,
  expectText,
  inBrowser,
  openSection,
  signIn,
  storeWithStaff,
  withDashboard,
} from './setup';

/**
 * docs/design.md "The dashboard", lists: a list's filters apply to the whole list, so changing one
 * goes back to its first page (dashboard/src/components/filters.tsx usePagedFilters) — a search made
 * from page 2 shows what it found, not page 2 of it.
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});

it('a search or a status chosen on page 2 shows the first page of what matches (products)', async () => {
  const shop = await storeWithStaff(server, 'PRO', 'OWNER');
  const key = (await makeKey(server.prisma, shop.storeId)).secret;
  for (let i = 1; i <= 30; i++) {
    const created = await server.send(
      'POST',
      '/api/v1/product',
      { name: `Widget ${i}`, priceAmount: 100, stock: 1, ...(i <= 3 ? { status: 'draft' } : {}) },
      key,
    );
    expect(created.status).toBe(201);
  }
  await inBrowser(browser, 'filters-page-one', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Products');
    const pager = page.getByRole('navigation', { name: 'Products pages' });
    await expectText(pager, 'Page 1 of 2');
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expectText(pager, 'Page 2 of 2');

    // "Widget 1", "Widget 10" … "Widget 19": eleven, one page.
    await page.getByRole('searchbox').fill('Widget 1');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(async () => (await page.locator('tbody tr').count()) === 11);
    await expectText(page.locator('main'), '11 in all');

    // Back to all of them, to page 2, then a status: its first (and only) page.
    await page.getByRole('searchbox').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await pager.getByRole('button', { name: 'Next page' }).click();
    await expectText(pager, 'Page 2 of 2');
    await page.getByLabel('Status').selectOption('draft');
    await eventually(async () => (await page.locator('tbody tr').count()) === 3);
    await expectText(page.locator('main'), '3 in all');
  });
});
