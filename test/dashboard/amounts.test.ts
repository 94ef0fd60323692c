import type { Browser, Page } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  eventually,
  expectText,
  inBrowser,
  openSection,
  PHONE,
  signIn,
  storeWithStaff,
  withDashboard,
} from './setup';

/**
 * docs/design.md "The dashboard", money: a person types amounts in the store's currency with its
 * decimals, as their browser's locale writes numbers, and reads them the same way; the API gets minor
 * units. A zero-decimal store (JPY), a three-decimal one (KWD), and a decimal comma (de-DE, EUR).
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});

async function shopIn(currency: string) {
  const shop = await storeWithStaff(server, 'PRO', 'OWNER', { currency });
  return { ...shop, key: (await makeKey(server.prisma, shop.storeId)).secret };
}

/** The products of the store as REST answers them (minor units). */
const productsOf = async (key: string, q: string) =>
  (await (await server.request(`/api/v1/product?q=${q}`, { key })).json()).data as Array<{
    name: string;
    priceAmount: number;
    compareAtAmount: number | null;
  }>;

/** Counts the product writes the page sends to the API from now on. */
function countProductWrites(page: Page) {
  const sent = { count: 0 };
  page.on('request', (request) => {
    if (request.url().endsWith('/graphql') && /Product\(/.test(request.postData() ?? '')) sent.count++;
  });
  return sent;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-artifacts/dashboard/pages/${name}.png`, fullPage: true });

describe.each([
  ['desktop', {}],
  ['phone', PHONE],
] as const)('at %s size', (size, options) => {
  it('a JPY store takes 1500 and refuses 12.5 by the field, sending nothing', async () => {
    const shop = await shopIn('JPY');
    await inBrowser(
      browser,
      `amounts-jpy-${size}`,
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'Products');
        await page.getByRole('button', { name: 'New product' }).click();
        const dialog = page.getByRole('dialog', { name: 'New product' });
        await dialog.getByLabel('Name').fill('Tea set');
        const price = dialog.getByLabel('Price (JPY)', { exact: true });
        expect(await price.getAttribute('inputmode')).toBe('decimal');
        const writes = countProductWrites(page);
        await price.fill('12.5');
        await dialog.getByRole('button', { name: 'Create product' }).click();
        await eventually(async () => (await price.getAttribute('aria-invalid')) === 'true');
        await expectText(
          page.locator(`[id="${await price.getAttribute('aria-describedby')}"]`),
          'JPY has no decimals',
        );
        expect(writes.count).toBe(0);
        expect(await productsOf(shop.key, 'Tea')).toEqual([]);

        await price.fill('1500');
        // While typing, the field shows the amount as the store will show it.
        await expectText(page.locator(`[id="${await price.getAttribute('aria-describedby')}"]`), '¥1,500');
        await dialog.getByRole('button', { name: 'Create product' }).click();
        await dialog.waitFor({ state: 'detached' });
        await expectText(page.getByRole('row', { name: /Tea set/ }), '¥1,500');
        expect(await productsOf(shop.key, 'Tea')).toEqual([
          expect.objectContaining({ name: 'Tea set', priceAmount: 1500 }),
        ]);
        await shot(page, `${size}-products`);
      },
      options,
    );
  });

  it('a KWD store takes 12.345 (three decimals) and shows it back in the edit form', async () => {
    const shop = await shopIn('KWD');
    await inBrowser(
      browser,
      `amounts-kwd-${size}`,
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'Products');
        await page.getByRole('button', { name: 'New product' }).click();
        const dialog = page.getByRole('dialog', { name: 'New product' });
        await dialog.getByLabel('Name').fill('Dates');
        await dialog.getByLabel('Price (KWD)', { exact: true }).fill('12.3456');
        await dialog.getByLabel('Compare-at price (KWD)').fill('15');
        await dialog.getByRole('button', { name: 'Create product' }).click();
        await expectText(dialog, 'at most 3 decimals for KWD');
        await dialog.getByLabel('Price (KWD)', { exact: true }).fill('12.345');
        await dialog.getByRole('button', { name: 'Create product' }).click();
        await dialog.waitFor({ state: 'detached' });
        await expectText(page.getByRole('row', { name: /Dates/ }), 'KWD\u00a012.345');
        expect(await productsOf(shop.key, 'Dates')).toEqual([
          expect.objectContaining({ priceAmount: 12345, compareAtAmount: 15000 }),
        ]);
        await page.getByRole('button', { name: 'Edit Dates' }).click();
        const edit = page.getByRole('dialog', { name: 'Edit Dates' });
        expect(await edit.getByLabel('Price (KWD)', { exact: true }).inputValue()).toBe('12.345');
        expect(await edit.getByLabel('Compare-at price (KWD)').inputValue()).toBe('15.000');
      },
      options,
    );
  });
});

it('in a de-DE browser a EUR store takes 12,50 and 1.234,50, and shows 12,50 €', async () => {
  const shop = await shopIn('EUR');
  await inBrowser(
    browser,
    'amounts-de',
    async (page) => {
      await signIn(page, server, shop.email);
      await openSection(page, 'Products');
      await page.getByRole('button', { name: 'New product' }).click();
      const dialog = page.getByRole('dialog', { name: 'New product' });
      await dialog.getByLabel('Name').fill('Brezel');
      await dialog.getByLabel('Price (EUR)', { exact: true }).fill('12,50');
      await dialog.getByLabel('Compare-at price (EUR)').fill('1.234,50 €');
      await dialog.getByRole('button', { name: 'Create product' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expectText(page.getByRole('row', { name: /Brezel/ }), '12,50\u00a0€');
      expect(await productsOf(shop.key, 'Brezel')).toEqual([
        expect.objectContaining({ priceAmount: 1250, compareAtAmount: 123450 }),
      ]);
      await page.getByRole('button', { name: 'Edit Brezel' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Brezel' });
      expect(await edit.getByLabel('Price (EUR)', { exact: true }).inputValue()).toBe('12,50');
      await edit.getByLabel('Price (EUR)', { exact: true }).fill('-3');
      await edit.getByRole('button', { name: 'Save product' }).click();
      await expectText(edit, 'must not be negative');
      await edit.getByLabel('Price (EUR)', { exact: true }).fill('zwölf');
      await edit.getByLabel('Price (EUR)', { exact: true }).blur();
      await expectText(edit, 'is not an amount in EUR, e.g. 12,50');
    },
    { locale: 'de-DE' },
  );
});
