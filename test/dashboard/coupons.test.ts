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
  statusIn,
  storeWithStaff,
  withDashboard,
} from './setup';

/**
 * docs/design.md "The dashboard", coupons: create (code, type, value, limits, dates) with the server's
 * messages beside their fields, activate/deactivate, redemptions (the orders that used a coupon),
 * delete after confirmation. Amounts are typed in the store's currency (KWD: three decimals).
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});

async function kuwaitShop() {
  const shop = await storeWithStaff(server, 'PRO', 'OWNER', { currency: 'KWD' });
  const key = (await makeKey(server.prisma, shop.storeId)).secret;
  const product = await server.send(
    'POST',
    '/api/v1/product',
    { name: 'Dates', priceAmount: 10000, stock: 10 },
    key,
  );
  return { ...shop, key, productId: (await product.json()).data.id as string };
}

/** An order placed through REST with the coupon: its redemption. */
async function placeWithCoupon(
  shop: { key: string; productId: string },
  couponCode: string,
  quantity: number,
) {
  const order = await server.send(
    'POST',
    '/api/v1/order',
    { email: 'buyer@example.test', items: [{ productId: shop.productId, quantity }], couponCode },
    shop.key,
  );
  expect(order.status).toBe(201);
}

/** The coupon as REST answers it (minor units). */
const couponOf = async (key: string, code: string) =>
  (await (await server.request(`/api/v1/coupon?q=${code}`, { key })).json()).data[0];

/** Fills the new-coupon dialog's fields by label; the dialog stays open. */
async function fill(page: Page, fields: Record<string, string>) {
  const dialog = page.getByRole('dialog', { name: 'New coupon' });
  for (const [label, value] of Object.entries(fields)) {
    const field = dialog.getByLabel(label, { exact: true });
    if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
  return dialog;
}

const describedBy = async (page: Page, label: string) => {
  const field = page.getByRole('dialog').getByLabel(label, { exact: true });
  await eventually(async () => (await field.getAttribute('aria-invalid')) === 'true');
  return page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`);
};

it('creates a fixed KWD coupon, shows the server’s messages by their fields, its redemptions, toggles and deletes it (desktop)', async () => {
  const shop = await kuwaitShop();
  await inBrowser(browser, 'coupons-desktop', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Coupons');
    await expectText(page.getByRole('main'), 'No coupons match.');

    await page.getByRole('button', { name: 'New coupon' }).click();
    const dialog = await fill(page, {
      Code: 'WELCOME',
      Type: 'fixed',
      'Amount off (KWD)': '1.250',
      'Minimum subtotal (KWD)': '5',
      'Maximum redemptions': '100',
      Starts: '2026-12-10T10:00',
      Ends: '2026-12-01T10:00',
    });
    await dialog.getByRole('button', { name: 'Create coupon' }).click();
    await expectText(await describedBy(page, 'Ends'), 'must be after startsAt');
    expect(await couponOf(shop.key, 'WELCOME')).toBeUndefined();

    await dialog.getByLabel('Starts', { exact: true }).fill('');
    await dialog.getByLabel('Ends', { exact: true }).fill('');
    await dialog.getByRole('button', { name: 'Create coupon' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /WELCOME/ });
    await expectText(row, 'KWD\u00a01.250');
    await expectText(row, 'KWD\u00a05.000');
    await expectText(row, '0 orders of 100');
    const coupon = await couponOf(shop.key, 'WELCOME');
    expect(coupon).toEqual(
      expect.objectContaining({ type: 'fixed', value: 1250, minSubtotalAmount: 5000, maxRedemptions: 100 }),
    );

    // A code already used is the server's message beside Code.
    await page.getByRole('button', { name: 'New coupon' }).click();
    const again = await fill(page, { Code: 'welcome', 'Percent off': '10' });
    await again.getByRole('button', { name: 'Create coupon' }).click();
    await expectText(await describedBy(page, 'Code'), 'is already used by another coupon of the store');
    await page.keyboard.press('Escape');
    await again.waitFor({ state: 'detached' });

    // An order placed with the coupon through REST is its redemption; the link lists it.
    await placeWithCoupon(shop, 'welcome', 1);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
    await shot(page, 'desktop-coupons');
    await page
      .getByRole('row', { name: /WELCOME/ })
      .getByRole('link', { name: '1 order' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await expectText(page.getByRole('note'), 'Orders with coupon WELCOME');
    await expectText(page.getByRole('row', { name: /#1001/ }), 'KWD\u00a08.750');
    expect(await page.getByRole('row').count()).toBe(2);
    await shot(page, 'desktop-orders-by-coupon');
    await page.getByRole('link', { name: 'Show all orders' }).click();
    await eventually(async () => (await page.getByRole('note').count()) === 0);

    // Deactivate, find it under Inactive, activate again.
    await openSection(page, 'Coupons');
    await page.getByRole('button', { name: 'Deactivate WELCOME' }).click();
    await statusIn(page.getByRole('row', { name: /WELCOME/ }), 'inactive');
    expect((await couponOf(shop.key, 'WELCOME')).isActive).toBe(false);
    await page.getByLabel('Status').selectOption('active');
    await expectText(page.getByRole('main'), 'No coupons match.');
    await page.getByLabel('Status').selectOption('inactive');
    await page.getByRole('button', { name: 'Activate WELCOME' }).click();
    await eventually(async () => (await couponOf(shop.key, 'WELCOME')).isActive === true);

    // Delete, after confirmation.
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Delete WELCOME' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete WELCOME?' });
    await confirm.getByRole('button', { name: 'Delete coupon' }).click();
    await expectText(page.getByRole('main'), 'No coupons match.');
    expect(await couponOf(shop.key, 'WELCOME')).toBeUndefined();
  });
});

it('works on a phone: a percent coupon, the server’s range message by its field, edit, redemptions', async () => {
  const shop = await kuwaitShop();
  await inBrowser(
    browser,
    'coupons-phone',
    async (page) => {
      await signIn(page, server, shop.email);
      await openSection(page, 'Coupons');
      await page.getByRole('button', { name: 'New coupon' }).click();
      const dialog = await fill(page, { Code: 'SPRING', 'Percent off': '150' });
      await shot(page, 'phone-coupon-dialog');
      await dialog.getByRole('button', { name: 'Create coupon' }).click();
      await expectText(
        await describedBy(page, 'Percent off'),
        'a percent coupon takes a value from 1 to 100',
      );
      await dialog.getByLabel('Percent off').fill('15');
      await dialog.getByRole('button', { name: 'Create coupon' }).click();
      await dialog.waitFor({ state: 'detached' });
      await expectText(page.getByRole('row', { name: /SPRING/ }), '15%');

      // Edit: becomes a fixed amount; a fourth decimal never leaves the form.
      await page.getByRole('button', { name: 'Edit SPRING' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit SPRING' });
      await edit.getByLabel('Type').selectOption('fixed');
      await edit.getByLabel('Amount off (KWD)').fill('2.0005');
      await edit.getByRole('button', { name: 'Save coupon' }).click();
      await expectText(edit, 'at most 3 decimals for KWD');
      await edit.getByLabel('Amount off (KWD)').fill('0');
      await edit.getByRole('button', { name: 'Save coupon' }).click();
      await expectText(edit, 'must be more than KWD\u00a00.000');
      expect((await couponOf(shop.key, 'SPRING')).type).toBe('percent');
      await edit.getByLabel('Amount off (KWD)').fill('2.5');
      await edit.getByRole('button', { name: 'Save coupon' }).click();
      await edit.waitFor({ state: 'detached' });
      await expectText(page.getByRole('row', { name: /SPRING/ }), 'KWD\u00a02.500');
      expect(await couponOf(shop.key, 'SPRING')).toEqual(
        expect.objectContaining({ type: 'fixed', value: 2500 }),
      );

      await placeWithCoupon(shop, 'SPRING', 2);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Coupons' }).waitFor();
      await shot(page, 'phone-coupons');
      await page.getByRole('link', { name: '1 order' }).click();
      await expectText(page.getByRole('note'), 'Orders with coupon SPRING');
      await expectText(page.getByRole('row', { name: /#1001/ }), 'KWD\u00a017.500');
      await shot(page, 'phone-orders-by-coupon');
      // Nothing scrolls sideways as a whole.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    },
    PHONE,
  );
});

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-artifacts/dashboard/pages/${name}.png`, fullPage: true });
