import type { Browser, Page } from 'playwright-core';
import { hashInvitationToken } from '../../src/auth/invitation-token';
import type { TestServer } from '../helpers/server';
import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, demoStoreWithDelivery } from './demo';
import { DESKTOP, inBrowser, launchBrowser, PHONE, signIn, startDashboardServer } from './setup';

/**
 * docs/design.md "The dashboard", quality: every page and dialog of the dashboard, on the demo store's data,
 * checked by axe-core (Deque's accessibility engine) against WCAG 2.1 A and AA: accessible names,
 * labels, landmarks, contrast, ARIA use. Any violation fails, with its rule and elements named. At a
 * desktop's size and at a phone's (390×844), where the sections' menu is also checked open.
 */
jest.setTimeout(180_000);

let server: TestServer;
let browser: Browser;
let ids: Awaited<ReturnType<typeof demoStoreWithDelivery>>;
/** An invitation link's token, as its e-mail would carry it (no worker here: its digest is set directly). */
const INVITATION_TOKEN = 'a'.repeat(43);

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startDashboardServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    launchBrowser(),
  ]);
  ids = await demoStoreWithDelivery(server);
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
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Every page, one line each: its name and its address. */
const pages = (): Array<[string, string]> => [
  ['overview', '/'],
  ['products', '/products'],
  ['orders', '/orders'],
  ['order', `/orders/${ids.order}`],
  ['customers', '/customers'],
  ['customer', `/customers/${ids.customer}`],
  ['coupons', '/coupons'],
  ['orders by coupon', `/orders?coupon=${ids.coupon}`],
  ['keys', '/keys'],
  ['webhooks', '/webhooks'],
  ['endpoint', `/webhooks/${ids.endpoint}`],
  ['delivery', `/webhooks/${ids.endpoint}/deliveries/${ids.delivery}`],
  ['audit', '/audit'],
  ['requests', '/requests'],
  ['categories', '/categories'],
  ['reviews', '/reviews'],
  ['settings', '/settings'],
  ['staff', '/staff'],
  ['account', '/account'],
];

/** Every dialog, one line each: the page it opens on and the button that opens it. */
const dialogs = (): Array<[string, string | RegExp]> => [
  ['/keys', 'Create API key'],
  ['/webhooks', 'Add endpoint'],
  [`/webhooks/${ids.endpoint}`, 'Change rate'],
  [`/webhooks/${ids.endpoint}`, 'Recover…'],
  ['/products', 'New product'],
  ['/coupons', 'New coupon'],
  ['/coupons', 'Edit SAVE15'],
  ['/coupons', 'Delete SAVE15'],
  ['/categories', 'New category'],
  ['/categories', /^Move Jackets & Coats$/],
  ['/categories', /^Delete Jackets & Coats$/],
  ['/reviews', /^Delete /],
  ['/staff', /^Invite$/],
  ['/account', 'Sign out other sessions'],
];

const AXE = require.resolve('axe-core/axe.min.js');

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe on the page as it is now; answers its violations as readable lines. */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const found = (await page.evaluate(() =>
    (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: unknown }> };
      }
    ).axe
      .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then((result) => result.violations),
  )) as Violation[];
  return found.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

it.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
])('finds no WCAG 2.1 A/AA violation on any page or dialog at %s size', async (size, device) => {
  // The page's CSP admits only its own scripts; the test's axe is let in by the browser context.
  await inBrowser(
    browser,
    `accessibility-${size}`,
    async (page) => {
      const problems: Record<string, string[]> = {};
      const check = async (name: string) => {
        await page.waitForLoadState('networkidle');
        const found = await violations(page);
        if (found.length > 0) problems[name] = found;
      };
      await page.goto(`${server.baseUrl}/`);
      await page.getByLabel('Email').waitFor();
      await check('sign-in');
      await page.goto(`${server.baseUrl}/accept-invite?token=${INVITATION_TOKEN}`);
      await page.getByRole('heading', { level: 1, name: /^Join / }).waitFor();
      await check('accept-invite');
      await page.goto(`${server.baseUrl}/accept-invite?token=${'b'.repeat(43)}`);
      await page.getByRole('heading', { level: 1, name: 'This invitation link does not work' }).waitFor();
      await check('accept-invite, invalid link');
      await signIn(page, server, DEMO_OWNER_EMAIL, DEMO_PASSWORD);
      // The check is live: a button without a name is caught.
      await page.evaluate(() =>
        document.body.append(Object.assign(document.createElement('button'), { id: 'nameless' })),
      );
      expect((await violations(page)).join('\n')).toContain('button-name');
      await page.evaluate(() => document.getElementById('nameless')?.remove());
      const menu = page.getByRole('button', { name: 'Menu' });
      if (size === 'phone') {
        await menu.click();
        await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').first().waitFor();
        await check('menu open');
        await page.keyboard.press('Escape');
      } else expect(await menu.isVisible()).toBe(false);
      for (const [name, path] of pages()) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page
          .locator('[role=status]')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => {});
        await check(name);
      }
      for (const [path, button] of dialogs()) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('button', { name: button }).first().click();
        await page.getByRole('dialog').waitFor();
        await page.getByRole('dialog').getByRole('button').first().waitFor();
        await check(`${path} ${button} dialog`);
      }
      expect(problems).toEqual({});
    },
    { ...device, bypassCSP: true },
  );
});
