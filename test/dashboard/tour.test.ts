import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { hashInvitationToken } from '../../src/auth/invitation-token';
import type { TestServer } from '../helpers/server';
import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, demoStoreWithDelivery } from './demo';
import {
  DESKTOP,
  eventually,
  expectText,
  inBrowser,
  openSection,
  PHONE,
  signIn,
  statusIn,
  withDashboard,
} from './setup';

/**
 * docs/design.md "The dashboard", on the demo store's data: ONE tour of every page and every dialog at
 * a phone's size (390×844, touch) and at a desktop's. Each visit, in the same browser page:
 * - the page is opened through the navigation (behind "Menu" on the phone), its one h1 is shown, and
 *   the document is never wider than the screen; on the phone every button and field is a 44 px
 *   touch target; a dialog lies inside the screen with its primary button pressable;
 * - axe-core (Deque's accessibility engine) checks it against WCAG 2.1 A and AA: accessible names,
 *   labels, landmarks, contrast, ARIA use. Any violation fails, with its rule and elements named;
 * - a screenshot goes to test-artifacts/dashboard/pages/<phone|desktop>-<name>.png, to look at.
 * Then the phone's own behaviour (the Menu, the charts) and the flows no page's own test runs on a
 * phone. Adding a page or a dialog is one line in PAGES or DIALOGS.
 */
jest.setTimeout(300_000);

let server: TestServer;
let browser: Browser;
/** An invitation link's token, as its e-mail would carry it (no worker here: its digest is set directly). */
const INVITATION_TOKEN = 'a'.repeat(43);

withDashboard(
  (started, launched) => {
    server = started;
    browser = launched;
  },
  { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
);
beforeAll(async () => {
  const ids = await demoStoreWithDelivery(server);
  const invited = await server.send(
    'POST',
    '/api/v1/staff',
    { email: 'invitee@demo.store', name: 'Invitee', role: 'ADMIN' },
    ids.apiKey,
  );
  await server.prisma.staffInvitation.update({
    where: { staffUserId: (await invited.json()).data.id },
    data: { tokenHash: hashInvitationToken(INVITATION_TOKEN) },
  });
  // A finished recovery, so that the endpoint page shows its progress too.
  const endpoint = await server.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: ids.endpoint } });
  await server.prisma.webhookRecovery.create({
    data: {
      storeId: endpoint.storeId,
      endpointId: endpoint.id,
      status: 'done',
      since: new Date(Date.now() - 86_400_000),
      until: new Date(),
      eventTypes: ['order.placed'],
      total: 2,
      done: 2,
      queued: 2,
      finishedAt: new Date(),
    },
  });
});

type Step = (page: Page) => Promise<void>;
/** Follows the first link in the page's table (a list's first row) and waits for the next page's h1. */
const firstRow =
  (heading: string | RegExp): Step =>
  async (page) => {
    await page.getByRole('main').locator('tbody a').first().click();
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };
const pendingOnly: Step = async (page) => {
  await page.getByLabel('Status').selectOption('pending');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const statuses = page.getByRole('main').locator('tbody .status');
  await eventually(async () => (await statuses.allTextContents()).every((status) => status === 'pending'));
};
/** From the coupons, a coupon's redemptions: the orders list filtered by it. */
const ordersByCoupon: Step = async (page) => {
  await page
    .getByRole('row', { name: /SAVE15/ })
    .getByRole('link', { name: /orders?$/ })
    .click();
  await expectText(page.getByRole('main'), 'Orders with coupon');
};
const steps =
  (...all: Step[]): Step =>
  async (page) => {
    for (const step of all) await step(page);
  };

/**
 * Every page, one line each: its name, the section (link and h1) it is in, the steps from there. The
 * account page is the header's link with the signed-in person's name.
 */
const PAGES: Array<[name: string, section: string, then?: Step]> = [
  ['overview', 'Overview'],
  ['products', 'Products'],
  ['orders', 'Orders'],
  ['order', 'Orders', steps(pendingOnly, firstRow(/^Order #/))],
  ['customers', 'Customers'],
  ['customer', 'Customers', firstRow(/./)],
  ['coupons', 'Coupons'],
  ['orders-by-coupon', 'Coupons', ordersByCoupon],
  ['categories', 'Categories'],
  ['reviews', 'Reviews'],
  ['settings', 'Settings'],
  ['staff', 'Staff'],
  ['keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['endpoint', 'Webhooks', firstRow('Webhook endpoint')],
  ['delivery', 'Webhooks', steps(firstRow('Webhook endpoint'), firstRow(/^Delivery of/))],
  ['audit', 'Audit log'],
  ['requests', 'Requests'],
  ['account', 'Account'],
];

type Name = string | RegExp;
/**
 * Every dialog, one line each: its name, the page it opens on, the button that opens it, the dialog's
 * title and its primary button (checked pressable, not pressed: the pages' own tests press them).
 */
const DIALOGS: Array<[name: string, page: string, open: Name, title: Name, primary: string]> = [
  ['new-product', 'products', 'New product', 'New product', 'Create product'],
  ['edit-product', 'products', /^Edit /, /^Edit /, 'Save product'],
  ['delete-product', 'products', /^Delete /, /^Delete .*\?$/, 'Delete product'],
  ['new-coupon', 'coupons', 'New coupon', 'New coupon', 'Create coupon'],
  ['edit-coupon', 'coupons', 'Edit SAVE15', 'Edit SAVE15', 'Save coupon'],
  ['delete-coupon', 'coupons', 'Delete SAVE15', 'Delete SAVE15?', 'Delete coupon'],
  ['new-category', 'categories', 'New category', 'New category', 'Create category'],
  ['move-category', 'categories', /^Move Jackets & Coats$/, /^Move /, 'Move category'],
  ['delete-category', 'categories', /^Delete Jackets & Coats$/, 'Delete Jackets & Coats?', 'Delete category'],
  ['delete-review', 'reviews', /^Delete /, 'Delete this review?', 'Delete review'],
  ['invite-staff', 'staff', /^Invite$/, 'Invite a staff member', 'Send invitation'],
  ['cancel-order', 'order', 'Cancel order', /^Cancel order/, 'Cancel order'],
  ['create-key', 'keys', 'Create API key', 'Create API key', 'Create key'],
  ['rotate-key', 'keys', /^Rotate /, /^Rotate /, 'Rotate key'],
  ['revoke-key', 'keys', /^Revoke /, /^Revoke .*\?$/, 'Revoke key'],
  ['add-endpoint', 'webhooks', 'Add endpoint', 'Add endpoint', 'Add endpoint'],
  ['rotate-secret', 'endpoint', 'Rotate secret', 'Rotate signing secret', 'Rotate secret'],
  ['endpoint-rate', 'endpoint', 'Change rate', 'Delivery rate', 'Save rate'],
  ['delete-endpoint', 'endpoint', 'Delete endpoint', 'Delete this endpoint?', 'Delete endpoint'],
  ['recover-endpoint', 'endpoint', 'Recover…', 'Recover failed deliveries', 'Recover'],
  [
    'sign-out-others',
    'account',
    'Sign out other sessions',
    'Sign out every other session?',
    'Sign out others',
  ],
];

const SIZES: Array<[string, BrowserContextOptions]> = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
];

const shot = (page: Page, size: string, name: string, fullPage = true) =>
  page.screenshot({ path: `test-artifacts/dashboard/pages/${size}-${name}.png`, fullPage });

/** Opens a page of PAGES through the navigation (or the header's account link), as a person would. */
async function open(page: Page, name: string) {
  const entry = PAGES.find(([pageName]) => pageName === name);
  if (!entry) throw new Error(`no page ${name} in PAGES`);
  const [, section, then] = entry;
  if (section === 'Account') {
    await page.getByRole('banner').getByRole('link', { name: 'Jordan Lee' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
  } else await openSection(page, section);
  await then?.(page);
  await eventually(async () => (await page.locator('main [role=status]').count()) === 0);
}

/**
 * The document is no wider than the screen: nothing makes the whole page scroll sideways. Measured
 * against the screen's width, not `innerWidth`: a mobile browser widens its layout viewport to fit
 * content that overflows, so `innerWidth` grows with the fault.
 */
async function expectNoSidewaysScroll(page: Page) {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

/** The element's box lies inside the viewport. */
async function expectInsideViewport(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error('no box or viewport');
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
}

/** The visible buttons, selects and fields (checkboxes and radios aside) smaller than 44 px either way. */
const smallTargets = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio])')]
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ element }) => element.getAttribute('aria-label') ?? element.textContent ?? element.tagName),
  );

/**
 * axe-core, evaluated into the page through the DevTools protocol: the page keeps its content
 * security policy (which admits no script but its own), as every other test here has it.
 */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe on the page as it is now; answers its violations as readable lines. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = (await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: { run(context: Document, options: object): Promise<{ violations: unknown }> };
        }
      ).axe
        .run(document, { runOnly: { type: 'tag', values: tags } })
        .then((result) => result.violations),
    WCAG21_AA,
  )) as Violation[];
  return found.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/** Collects each view's violations by name; the test expects none at its end (all named at once). */
function axeChecks(page: Page) {
  const problems: Record<string, string[]> = {};
  return {
    problems,
    async check(name: string) {
      const found = await violations(page);
      if (found.length > 0) problems[name] = found;
    },
  };
}

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;
const sessions = new Map<BrowserContextOptions, Promise<Session>>();

/**
 * Runs `steps` signed in as the demo owner at the given size. The owner signs in through the form
 * once per size (the sign-in itself is tested in store.test and keys.test); later contexts start
 * from that session's cookie, opened at the overview.
 */
async function signedIn(
  size: string,
  device: BrowserContextOptions,
  name: string,
  steps: (page: Page) => Promise<void>,
) {
  if (!sessions.has(device)) sessions.set(device, signInOnce(device));
  const storageState = await sessions.get(device);
  await inBrowser(
    browser,
    `${size}-${name}`,
    async (page) => {
      await page.goto(`${server.baseUrl}/`);
      await page
        .getByRole('navigation', { name: 'Sections', includeHidden: true })
        .waitFor({ state: 'attached' });
      await steps(page);
    },
    { ...device, storageState },
  );
}

async function signInOnce(device: BrowserContextOptions): Promise<Session> {
  const context = await browser.newContext(device);
  try {
    await signIn(await context.newPage(), server, DEMO_OWNER_EMAIL, DEMO_PASSWORD);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

describe.each(SIZES)('at %s size', (size, device) => {
  it('shows sign-in and the invitation pages inside the screen, with no WCAG 2.1 A/AA violation', async () => {
    await inBrowser(
      browser,
      `${size}-sign-in`,
      async (page) => {
        const axe = axeChecks(page);
        await page.goto(`${server.baseUrl}/`);
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await expectInsideViewport(page, page.getByRole('button', { name: 'Sign in' }));
        await expectNoSidewaysScroll(page);
        await shot(page, size, 'sign-in');
        await axe.check('sign-in');
        await page.goto(`${server.baseUrl}/accept-invite?token=${INVITATION_TOKEN}`);
        await page.getByRole('heading', { level: 1, name: /^Join / }).waitFor();
        await expectNoSidewaysScroll(page);
        await shot(page, size, 'accept-invite');
        await axe.check('accept-invite');
        await page.goto(`${server.baseUrl}/accept-invite?token=${'b'.repeat(43)}`);
        await page.getByRole('heading', { level: 1, name: 'This invitation link does not work' }).waitFor();
        await shot(page, size, 'accept-invite-invalid');
        await axe.check('accept-invite, invalid link');
        expect(axe.problems).toEqual({});
      },
      device,
    );
  });

  it(`opens every page through the navigation: its h1 shown, never wider than the screen${size === 'phone' ? ', 44 px touch targets' : ''}, no WCAG 2.1 A/AA violation`, async () => {
    await signedIn(size, device, 'pages', async (page) => {
      const axe = axeChecks(page);
      // The check is live: a button without a name is caught.
      await page.evaluate(() =>
        document.body.append(Object.assign(document.createElement('button'), { id: 'nameless' })),
      );
      expect((await violations(page)).join('\n')).toContain('button-name');
      await page.evaluate(() => document.getElementById('nameless')?.remove());
      for (const [name] of PAGES) {
        await open(page, name);
        const h1 = page.getByRole('heading', { level: 1 });
        expect(await h1.count()).toBe(1);
        expect(await h1.isVisible()).toBe(true);
        await expectNoSidewaysScroll(page);
        if (size === 'phone') expect([name, await smallTargets(page)]).toEqual([name, []]);
        await shot(page, size, name);
        await axe.check(name);
      }
      expect(axe.problems).toEqual({});
    });
  });

  it('fits every dialog inside the screen, its primary button pressable, with no WCAG 2.1 A/AA violation', async () => {
    await signedIn(size, device, 'dialogs', async (page) => {
      const axe = axeChecks(page);
      for (const [name, on, opener, title, primaryName] of DIALOGS) {
        await open(page, on);
        await page.getByRole('button', { name: opener }).first().click();
        const dialog = page.getByRole('dialog', { name: title });
        await dialog.waitFor();
        await expectInsideViewport(page, dialog);
        const primary = dialog.getByRole('button', { name: primaryName, exact: true });
        await primary.scrollIntoViewIfNeeded();
        await expectInsideViewport(page, primary);
        await primary.click({ trial: true });
        await expectInsideViewport(page, dialog.getByRole('button', { name: 'Close' }));
        await expectNoSidewaysScroll(page);
        await shot(page, size, `dialog-${name}`, false);
        await axe.check(`dialog ${name}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
      expect(axe.problems).toEqual({});
    });
  });
});

describe('on a phone', () => {
  const onPhone = (name: string, steps: (page: Page) => Promise<void>) =>
    signedIn('phone', PHONE, name, steps);

  it('folds the sections behind "Menu" (no WCAG 2.1 A/AA violation when open): a link or Escape closes it, Escape gives focus back to the button', async () => {
    await onPhone('menu', async (page) => {
      const menu = page.getByRole('button', { name: 'Menu' });
      const nav = page.getByRole('navigation', { name: 'Sections' });
      const links = page.locator(`[id="${await menu.getAttribute('aria-controls')}"]`).getByRole('link');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await links.first().isVisible()).toBe(false);

      await menu.click();
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      expect(await nav.getByRole('link', { name: 'Products' }).isVisible()).toBe(true);
      await shot(page, 'phone', 'menu');
      expect(await violations(page)).toEqual([]);
      await nav.getByRole('link', { name: 'Products' }).click();
      await page.getByRole('heading', { level: 1, name: 'Products' }).waitFor();
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await links.first().isVisible()).toBe(false);

      await menu.click();
      await nav.getByRole('link', { name: 'Orders' }).focus();
      await page.keyboard.press('Escape');
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      expect(await menu.evaluate((button) => button === document.activeElement)).toBe(true);

      // The header (store, plan, who, Sign out) takes at most two lines.
      const header = await page.getByRole('banner').boundingBox();
      expect(header?.height).toBeLessThanOrEqual(2 * 60);
      expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    });
  });

  it('draws the overview charts as wide as the page, and redraws them when the screen turns', async () => {
    await onPhone('charts', async (page) => {
      await open(page, 'overview');
      const canvas = page.locator('.chart canvas').first();
      await canvas.waitFor();
      const width = async () => (await canvas.boundingBox())?.width ?? 0;
      const column = async () => (await page.locator('.chart').first().boundingBox())?.width ?? 0;
      expect(await width()).toBeLessThanOrEqual(await column());
      expect(await width()).toBeGreaterThan((await column()) - 40);
      await page.setViewportSize({ width: 700, height: 390 });
      await eventually(async () => (await width()) > 600 && (await width()) <= (await column()));
    });
  });

  // A product is created on a phone in test/dashboard/amounts.test.ts; these flows are run on a phone
  // here only.
  it('moves an order through a transition', async () => {
    await onPhone('order-flow', async (page) => {
      await open(page, 'order');
      const actions = page.getByRole('region', { name: 'Order actions' });
      await actions.getByRole('button', { name: 'Mark paid' }).click();
      await statusIn(page.getByRole('main').locator('p').first(), 'paid');
      await actions.getByRole('button', { name: 'Mark fulfilled' }).waitFor();
    });
  });

  it('creates an API key and shows its secret once, inside the screen', async () => {
    await onPhone('key-flow', async (page) => {
      await open(page, 'keys');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create API key' });
      await dialog.getByLabel('Name').fill('Phone reader');
      await dialog.getByLabel('Orders READ').check();
      await dialog.getByRole('button', { name: 'Create key' }).click();
      const shown = page.getByRole('dialog', { name: 'API key Phone reader created' });
      const secret = shown.getByLabel('Your new API key');
      expect(await secret.inputValue()).toMatch(/^tt_[0-9a-f]{64}$/);
      await expectInsideViewport(page, shown);
      await expectInsideViewport(page, shown.getByRole('button', { name: 'Copy' }));
      await shot(page, 'phone', 'key-secret');
      await shown.getByRole('button', { name: 'Done' }).click();
      await expectText(page.getByRole('row', { name: /Phone reader/ }), 'active');
    });
  });

  it('adds a webhook endpoint and shows its signing secret', async () => {
    await onPhone('endpoint-flow', async (page) => {
      await open(page, 'webhooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
      await dialog.getByLabel('URL').fill('https://127.0.0.1:9/phone');
      await dialog.getByLabel('order.placed').check();
      await dialog.getByRole('button', { name: 'Add endpoint' }).click();
      const added = page.getByRole('dialog', { name: 'Endpoint added' });
      expect(await added.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
      await expectInsideViewport(page, added);
      await added.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('link', { name: 'https://127.0.0.1:9/phone' }).waitFor();
      await expectNoSidewaysScroll(page);
    });
  });
});

it('shows the sections at a desktop size, with no Menu button', async () => {
  await signedIn('desktop', DESKTOP, 'menu', async (page) => {
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Orders' })
        .isVisible(),
    ).toBe(true);
  });
});
