import type { Browser, Page } from 'playwright-core';
import { makeKey } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import {
  addStaff,
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
 * docs/design.md "The dashboard": the category tree (create, move, a refused cycle, delete), the
 * review moderation queue and the store's settings with its plan, in Chromium at desktop and phone
 * size; a STAFF member reads reviews but moderates nothing and has no settings form.
 */
jest.setTimeout(180_000);

let server: TestServer;
let browser: Browser;
let shop: Awaited<ReturnType<typeof storeWithStaff>>;
let staff: Awaited<ReturnType<typeof addStaff>>;
let key: string;
let productId: string;

withDashboard((started, launched) => {
  server = started;
  browser = launched;
});
beforeAll(async () => {
  shop = await storeWithStaff(server, 'PRO', 'OWNER');
  staff = await addStaff(server, shop.storeId, 'STAFF');
  key = (await makeKey(server.prisma, shop.storeId)).secret;
  const product = await server.send(
    'POST',
    '/api/v1/product',
    { name: 'Trail Tent', priceAmount: 19900 },
    key,
  );
  productId = (await product.json()).data.id;
});

const shot = (page: Page, size: 'desktop' | 'phone', name: string) =>
  page.screenshot({ path: `test-artifacts/dashboard/pages/${size}-${name}.png`, fullPage: true });

/** The row of the category tree (or review list) whose header cell names it. */
const row = (page: Page, name: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: false }) });

const topLevel = async () =>
  (
    await server.prisma.category.findMany({
      where: { storeId: shop.storeId, parentId: null },
      orderBy: { position: 'asc' },
    })
  ).map((c) => c.name);

describe('categories', () => {
  it('creates a parent and a child, moves the child to the top level and back, refuses a cycle beside Parent, deletes after confirmation (desktop)', async () => {
    await inBrowser(browser, 'categories-desktop', async (page) => {
      await signIn(page, server, shop.email);
      await openSection(page, 'Categories');
      await expectText(page.locator('main'), 'No categories yet.');

      const create = async (name: string, parent?: string) => {
        await page.getByRole('button', { name: 'New category' }).click();
        const dialog = page.getByRole('dialog', { name: 'New category' });
        await dialog.getByLabel('Name').fill(name);
        if (parent) await dialog.getByLabel('Parent').selectOption({ label: parent });
        await dialog.getByRole('button', { name: 'Create category' }).click();
        await dialog.waitFor({ state: 'detached' });
      };
      await create('Outdoor');
      await create('Tents', 'Outdoor');
      await expectText(row(page, 'Outdoor'), '1'); // one subcategory

      // The child shows indented under its parent once the parent is opened.
      await page.getByRole('button', { name: 'Show subcategories of Outdoor' }).click();
      await row(page, 'Tents').waitFor();
      const indent = async (name: string) =>
        row(page, name)
          .getByRole('rowheader')
          .evaluate((cell) => Number.parseFloat(getComputedStyle(cell).paddingLeft));
      expect(await indent('Tents')).toBeGreaterThan(await indent('Outdoor'));

      // To the top level, first.
      await page.getByRole('button', { name: 'Move Tents', exact: true }).click();
      let dialog = page.getByRole('dialog', { name: 'Move Tents' });
      await dialog.getByLabel('Parent').selectOption({ label: 'Top level' });
      await dialog.getByLabel('Place among its siblings').fill('0');
      await dialog.getByRole('button', { name: 'Move category' }).click();
      await expectText(dialog.locator('.field.invalid'), 'must be a whole number, 1 or more');
      await dialog.getByLabel('Place among its siblings').fill('1');
      await dialog.getByRole('button', { name: 'Move category' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => JSON.stringify(await topLevel()) === JSON.stringify(['Tents', 'Outdoor']));
      await eventually(async () => (await row(page, 'Tents').count()) === 1);
      expect(await page.getByRole('button', { name: 'Show subcategories of Outdoor' }).count()).toBe(0);

      // And back under Outdoor (last among its children).
      await page.getByRole('button', { name: 'Move Tents', exact: true }).click();
      dialog = page.getByRole('dialog', { name: 'Move Tents' });
      await dialog.getByLabel('Parent').selectOption({ label: 'Outdoor' });
      await dialog.getByRole('button', { name: 'Move category' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => JSON.stringify(await topLevel()) === JSON.stringify(['Outdoor']));

      // Outdoor under its own child (still open, as it was): refused, the message beside Parent.
      await row(page, 'Tents').waitFor();
      await page.getByRole('button', { name: 'Move Outdoor', exact: true }).click();
      dialog = page.getByRole('dialog', { name: 'Move Outdoor' });
      await dialog.getByLabel('Parent').selectOption({ label: 'Tents' });
      await dialog.getByRole('button', { name: 'Move category' }).click();
      await expectText(dialog.locator('.field.invalid'), 'cannot move under itself');
      await expectText(dialog.getByRole('alert'), 'CATEGORY_CYCLE');
      expect(await topLevel()).toEqual(['Outdoor']);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await shot(page, 'desktop', 'categories');

      // Delete: the dialog says what becomes of the subcategory and the products.
      await server.prisma.product.update({
        where: { id: productId },
        data: {
          categoryId: (await server.prisma.category.findFirstOrThrow({ where: { name: 'Outdoor' } })).id,
        },
      });
      await page.reload();
      await page.getByRole('button', { name: 'Delete Outdoor' }).click();
      dialog = page.getByRole('dialog', { name: 'Delete Outdoor?' });
      await expectText(dialog, 'Its 1 subcategory moves to the top level.');
      await expectText(dialog, 'Its 1 product stays in the store, without a category.');
      await shot(page, 'desktop', 'categories-delete');
      await dialog.getByRole('button', { name: 'Delete category' }).click();
      await dialog.waitFor({ state: 'detached' });
      await eventually(async () => (await row(page, 'Outdoor').count()) === 0);
      await row(page, 'Tents').waitFor();
      expect(await topLevel()).toEqual(['Tents']);
      expect(
        (await server.prisma.product.findUniqueOrThrow({ where: { id: productId } })).categoryId,
      ).toBeNull();
    });
  });

  it('reorders siblings with Up and Down on a phone', async () => {
    await server.prisma.category.deleteMany({ where: { storeId: shop.storeId } });
    for (const name of ['Bags', 'Boots', 'Caps'])
      await server.send('POST', '/api/v1/category', { name, description: `All ${name.toLowerCase()}` }, key);
    await inBrowser(
      browser,
      'categories-phone',
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'Categories');
        await row(page, 'Caps').waitFor();
        await page.getByRole('button', { name: 'Move Caps up' }).click();
        await eventually(
          async () => JSON.stringify(await topLevel()) === JSON.stringify(['Bags', 'Caps', 'Boots']),
        );
        await page.getByRole('button', { name: 'Move Bags down' }).click();
        await eventually(
          async () => JSON.stringify(await topLevel()) === JSON.stringify(['Caps', 'Bags', 'Boots']),
        );
        await eventually(
          async () =>
            JSON.stringify(await page.getByRole('rowheader').allTextContents()) ===
            JSON.stringify(['Caps', 'Bags', 'Boots']),
        );
        expect(await page.getByRole('button', { name: 'Move Caps up' }).isDisabled()).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await shot(page, 'phone', 'categories');
        await page.getByRole('button', { name: 'Edit Bags' }).click();
        const dialog = page.getByRole('dialog', { name: 'Edit Bags' });
        await dialog.getByLabel('Name').fill('Bags & Packs');
        await dialog.getByLabel('Parent').selectOption({ label: 'Boots' });
        await shot(page, 'phone', 'categories-edit');
        await dialog.getByRole('button', { name: 'Save category' }).click();
        await dialog.waitFor({ state: 'detached' });
        // The new parent is a move to the end of Boots' children, with the new name in the same write.
        await eventually(async () => JSON.stringify(await topLevel()) === JSON.stringify(['Caps', 'Boots']));
        const bags = await server.prisma.category.findFirstOrThrow({
          where: { storeId: shop.storeId, slug: 'bags' },
        });
        expect([bags.name, bags.position]).toEqual(['Bags & Packs', 0]);
        await page.getByRole('button', { name: 'Show subcategories of Boots' }).click();
        await row(page, 'Bags & Packs').waitFor();
      },
      PHONE,
    );
  });
});

describe('reviews', () => {
  const review = (
    title: string,
    rating: number,
    status: 'pending' | 'approved' | 'rejected',
    minutesAgo: number,
  ) =>
    server.prisma.review.create({
      data: {
        storeId: shop.storeId,
        productId,
        rating,
        title,
        body: `${title}, in the customer's words.`,
        status,
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
      },
    });

  beforeAll(async () => {
    await review('Kept us dry', 5, 'pending', 1);
    await review('Zip broke', 2, 'pending', 2);
    await review('Roomy', 4, 'approved', 3);
  });

  it('lists pending reviews first; approves one and rejects another in place; filters by status and rating (desktop)', async () => {
    await inBrowser(browser, 'reviews-desktop', async (page) => {
      await signIn(page, server, shop.email);
      await openSection(page, 'Reviews');
      await row(page, 'Trail Tent').first().waitFor();
      const statuses = async () => page.locator('tbody .status').allTextContents();
      await eventually(
        async () => JSON.stringify(await statuses()) === JSON.stringify(['pending', 'pending', 'approved']),
      );
      await expectText(page.locator('main'), 'Kept us dry, in the customer');
      await shot(page, 'desktop', 'reviews');

      const dry = page.getByRole('row').filter({ hasText: 'Kept us dry' });
      await dry.getByRole('button', { name: 'Approve Kept us dry of Trail Tent' }).click();
      await statusIn(dry, 'approved');
      const zip = page.getByRole('row').filter({ hasText: 'Zip broke' });
      await zip.getByRole('button', { name: 'Reject Zip broke of Trail Tent' }).click();
      await statusIn(zip, 'rejected');
      const stored = await server.prisma.review.findMany({
        where: { storeId: shop.storeId },
        orderBy: { title: 'asc' },
      });
      expect(stored.map((r) => [r.title, r.status])).toEqual([
        ['Kept us dry', 'approved'],
        ['Roomy', 'approved'],
        ['Zip broke', 'rejected'],
      ]);

      await page.getByLabel('Status').selectOption('approved');
      await eventually(async () => (await page.locator('tbody tr').count()) === 2);
      await page.getByLabel('Rating').selectOption('4');
      await eventually(async () => (await page.locator('tbody tr').count()) === 1);
      await expectText(page.locator('tbody'), 'Roomy');
      await page.getByLabel('Rating').selectOption('1');
      await expectText(page.locator('main'), 'No reviews match.');
    });
  });

  it('deletes a review after confirmation on a phone', async () => {
    await review('Too small', 1, 'pending', 0);
    await inBrowser(
      browser,
      'reviews-phone',
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'Reviews');
        const small = page.getByRole('row').filter({ hasText: 'Too small' });
        await statusIn(small, 'pending');
        await shot(page, 'phone', 'reviews');
        await small.getByRole('button', { name: 'Delete Too small of Trail Tent' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete this review?' });
        await expectText(dialog, 'removed for good');
        await shot(page, 'phone', 'reviews-delete');
        await dialog.getByRole('button', { name: 'Delete review' }).click();
        // While the dialog is open the page behind it is hidden from the accessibility tree.
        await dialog.waitFor({ state: 'detached' });
        await eventually(async () => (await small.count()) === 0);
        expect(
          await server.prisma.review.count({ where: { storeId: shop.storeId, title: 'Too small' } }),
        ).toBe(0);
      },
      PHONE,
    );
  });
});

describe('settings', () => {
  it('refuses an invalid contact e-mail beside the field, saves name and time zone (the header follows), warns about currency, shows the plan (desktop)', async () => {
    await inBrowser(browser, 'settings-desktop', async (page) => {
      await signIn(page, server, shop.email);
      await openSection(page, 'Settings');
      const form = page.getByRole('form', { name: 'Store settings' });
      await expectText(page.getByRole('region', { name: 'Plan: PRO' }), 'included, up to 5 endpoints');
      await expectText(page.locator('main'), 'The plan is changed through billing');

      await form.getByLabel('Contact e-mail').fill('not an address');
      await form.getByRole('button', { name: 'Save settings' }).click();
      await expectText(form.locator('.field.invalid'), 'must be an e-mail address');
      expect(await form.getByLabel('Contact e-mail').getAttribute('aria-invalid')).toBe('true');

      await form.getByLabel('Contact e-mail').fill('hello@shop.test');
      await form.getByLabel('Store name').fill('Harbour Outfitters');
      await form.getByLabel('Time zone').selectOption('Asia/Tokyo');
      await form.getByLabel('Currency').selectOption('EUR');
      await expectText(form.getByRole('note'), 'does not convert existing prices');
      await form.getByLabel('Currency').selectOption('USD');
      expect(await form.getByRole('note').count()).toBe(0);
      await form.getByRole('button', { name: 'Save settings' }).click();
      await expectText(page.locator('header'), 'Harbour Outfitters');
      const store = await server.prisma.store.findUniqueOrThrow({ where: { id: shop.storeId } });
      expect([store.name, store.timezone, store.contactEmail, store.currency]).toEqual([
        'Harbour Outfitters',
        'Asia/Tokyo',
        'hello@shop.test',
        'USD',
      ]);
      await shot(page, 'desktop', 'settings');
    });
  });

  it('shows the settings and the plan on a phone', async () => {
    await server.send('PATCH', '/api/v1/store/settings', { timezone: 'Asia/Tokyo' }, key);
    await inBrowser(
      browser,
      'settings-phone',
      async (page) => {
        await signIn(page, server, shop.email);
        await openSection(page, 'Settings');
        await page.getByRole('region', { name: 'Plan: PRO' }).waitFor();
        expect(await page.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await shot(page, 'phone', 'settings');
      },
      PHONE,
    );
  });
});

describe.each([
  ['desktop', {}],
  ['phone', PHONE],
] as const)('a STAFF member (%s)', (_size, options) => {
  it('reads reviews without moderation buttons and has no settings form', async () => {
    await inBrowser(
      browser,
      `staff-${_size}`,
      async (page) => {
        await signIn(page, server, staff.email);
        await openSection(page, 'Reviews');
        await row(page, 'Trail Tent').first().waitFor();
        await expectText(page.getByRole('note'), 'your role (STAFF) can read them');
        for (const name of ['Approve', 'Reject', 'Delete'])
          expect(await page.getByRole('button', { name }).count()).toBe(0);
        // The links as the navigation holds them, folded behind Menu or not.
        const links = await page.locator('nav[aria-label="Sections"] a').allTextContents();
        expect(links).toContain('Categories');
        expect(links).not.toContain('Settings');
        await page.goto(`${server.baseUrl}/settings`);
        await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
        await expectText(page.getByRole('note'), 'managed by its owners and admins');
        expect(await page.getByRole('form').count()).toBe(0);
        await page.goto(`${server.baseUrl}/categories`);
        await row(page, 'Caps').waitFor();
        for (const name of ['New category', 'Move Caps', 'Delete Caps', 'Edit Caps'])
          expect(await page.getByRole('button', { name }).count()).toBe(0);
      },
      options,
    );
  });
});
