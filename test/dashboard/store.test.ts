import type { Browser } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  addStaff,
  eventually,
  expectText,
  inBrowser,
  openSection,
  signIn,
  statusIn,
  storeWithStaff,
  withDashboard,
} from './setup';

/**
 * docs/design.md "The dashboard": navigation, catalogue, orders, customers, quality and sign-out, in
 * Chromium: the catalogue through its forms, an order through its transitions, the keyboard alone.
 */
jest.setTimeout(120_000);

let server: TestServer;
let browser: Browser;
let shop: Awaited<ReturnType<typeof storeWithStaff>>;
let key: string;
let orderId: string;
let customerId: string;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});
beforeAll(async () => {
  shop = await storeWithStaff(server, 'PRO', 'OWNER');
  key = (await makeKey(server.prisma, shop.storeId)).secret;
  const customer = await server.send(
    'POST',
    '/api/v1/customer',
    { email: 'ada@customers.test', firstName: 'Ada', lastName: 'Lovelace' },
    key,
  );
  customerId = (await customer.json()).data.id;
  const product = await server.send(
    'POST',
    '/api/v1/product',
    { name: 'Lamp', priceAmount: 2500, stock: 10 },
    key,
  );
  const order = await server.send(
    'POST',
    '/api/v1/order',
    { customerId, items: [{ productId: (await product.json()).data.id, quantity: 2 }] },
    key,
  );
  orderId = (await order.json()).data.id;
});

const sections = [
  'Overview',
  'Products',
  'Categories',
  'Orders',
  'Customers',
  'Coupons',
  'Reviews',
  'API keys',
  'Webhooks',
  'Staff',
  'Settings',
  'Audit log',
  'Requests',
];

it('has a navigation landmark with every section, and one h1 naming each page, also on a deep link', async () => {
  await inBrowser(browser, 'navigation', async (page) => {
    await signIn(page, server, shop.email);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(sections);
    for (const section of sections) {
      await openSection(page, section);
      expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await page.getByRole('alert').count()).toBe(0);
    }
    // A deep link loads the same app, straight onto its page.
    await page.goto(`${server.baseUrl}/orders/${orderId}`);
    await page.getByRole('heading', { level: 1, name: 'Order #1001' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
  });
});

it('creates a product: a missing name shows beside the field, then a valid one is in the list and in REST', async () => {
  await inBrowser(browser, 'products-create', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Products');
    await page.getByRole('button', { name: 'New product' }).click();
    const dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.getByLabel('Price (USD)', { exact: true }).fill('19.99');
    await dialog.getByRole('button', { name: 'Create product' }).click();
    const name = dialog.getByLabel('Name');
    await eventually(async () => (await name.getAttribute('aria-invalid')) === 'true');
    await expectText(page.locator(`[id="${await name.getAttribute('aria-describedby')}"]`), 'required');

    await name.fill('Desk Organiser');
    await dialog.getByLabel('Stock').fill('7');
    await dialog.getByRole('button', { name: 'Create product' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /Desk Organiser/ });
    await expectText(row, '$19.99');

    const listed = await (await server.request('/api/v1/product?q=Desk', { key })).json();
    expect(listed.data).toEqual([
      expect.objectContaining({ name: 'Desk Organiser', priceAmount: 1999, stock: 7 }),
    ]);

    // Edit, search and delete with confirmation.
    await page.getByRole('button', { name: 'Edit Desk Organiser' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Desk Organiser' });
    await edit.getByLabel('Stock').fill('9');
    await edit.getByRole('button', { name: 'Save product' }).click();
    await edit.waitFor({ state: 'detached' });
    await expectText(page.getByRole('row', { name: /Desk Organiser/ }), '9');
    await page.getByLabel('Search').fill('Lamp');
    await page.getByRole('button', { name: 'Search' }).click();
    await eventually(async () => (await page.getByRole('row', { name: /Desk Organiser/ }).count()) === 0);
    await page.getByLabel('Search').fill('Desk');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('button', { name: 'Delete Desk Organiser' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Desk Organiser?' })
      .getByRole('button', { name: 'Delete product' })
      .click();
    await expectText(page.getByRole('main'), 'No products match.');
    expect((await (await server.request('/api/v1/product?q=Desk', { key })).json()).data).toEqual([]);
  });
});

it('moves an order through the transitions its state allows, and only those', async () => {
  await inBrowser(browser, 'order-transitions', async (page) => {
    await signIn(page, server, shop.email);
    await openSection(page, 'Orders');
    await page.getByLabel('Status').selectOption('pending');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: '#1001' }).click();
    await page.getByRole('heading', { level: 1, name: 'Order #1001' }).waitFor();
    const actions = page.getByRole('region', { name: 'Order actions' });
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Mark paid', 'Cancel order']);
    await actions.getByRole('button', { name: 'Mark paid' }).click();
    await statusIn(page.getByRole('main').locator('p').first(), 'paid');
    await eventually(
      async () =>
        (await actions.getByRole('button').allTextContents()).join() === 'Mark fulfilled,Cancel order',
    );
    const rest = await (await server.request(`/api/v1/order/details/${orderId}`, { key })).json();
    expect(rest.data.status).toBe('paid');

    // The customer's page lists the order and the totals.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    await expectText(page.getByRole('row', { name: /#1001/ }), '$50.00');
    await expectText(page.locator('.facts'), '$50.00');
  });
});

it('works with the keyboard alone: sign in, open a dialog, keep focus in it, close it with Escape', async () => {
  await inBrowser(browser, 'keyboard', async (page) => {
    await page.goto(`${server.baseUrl}/`);
    await page.getByLabel('Email').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(shop.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('correct horse battery staple');
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();

    // The skip link comes first, then the page's controls; Products by Tab and Enter.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const products = page.getByRole('link', { name: 'Products' });
    for (let i = 0; i < 20 && !(await products.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();

    const open = page.getByRole('button', { name: 'New product' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.waitFor();
    // Tabbing round the whole dialog never leaves it.
    for (let i = 0; i < 15; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await open.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

it('signs out on the server (the old cookie is refused), and an ended session goes back to sign-in', async () => {
  await inBrowser(browser, 'sign-out', async (page, context) => {
    await signIn(page, server, shop.email);
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'tt_session');
    expect(cookie).toEqual(expect.objectContaining({ httpOnly: true, sameSite: 'Lax' }));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const old = await server.request('/api/v1/auth/session', {
      headers: { cookie: `tt_session=${cookie?.value}` },
    });
    expect(old.status).toBe(401);
  });
  const staff = await addStaff(server, shop.storeId, 'ADMIN');
  await inBrowser(browser, 'session-ended', async (page) => {
    await signIn(page, server, staff.email);
    // The overview (a lazy page) has loaded and asked for its data while the session was alive.
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.waitForLoadState('networkidle');
    await server.prisma.session.updateMany({
      where: { staffUserId: staff.staffId },
      data: { revokedAt: new Date() },
    });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(page.url()).toMatch(/\/sign-in$/);
  });
});

it('shows loading, empty and error states rather than a blank page', async () => {
  await inBrowser(browser, 'states', async (page) => {
    await signIn(page, server, shop.email);
    await page.goto(`${server.baseUrl}/customers/cus_missing`);
    await expectText(page.getByRole('alert'), 'NOT_FOUND');
    await openSection(page, 'Customers');
    await page.getByLabel('Search').fill('nobody at all');
    await page.getByRole('button', { name: 'Search' }).click();
    await expectText(page.getByRole('main'), 'No customers match.');
    await page.goto(`${server.baseUrl}/no/such/page`);
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
  });
});
