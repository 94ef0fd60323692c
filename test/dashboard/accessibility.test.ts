import type { Browser, Page } from 'playwright-core';
import { DEMO_OWNER_EMAIL, DEMO_PASSWORD, seedDemoStore } from '../../prisma/seed/demo-store';
import { hashInvitationToken } from '../../src/auth/invitation-token';
import type { TestServer } from '../helpers/server';
import { inBrowser, launchBrowser, signIn, startDashboardServer } from './setup';

/**
 * docs/design.md "The dashboard", quality: every page and dialog of the dashboard, on the demo store's data,
 * checked by axe-core (Deque's accessibility engine) against WCAG 2.1 A and AA: accessible names,
 * labels, landmarks, contrast, ARIA use. Any violation fails, with its rule and elements named.
 */
jest.setTimeout(180_000);

let server: TestServer;
let browser: Browser;
let ids: { order: string; customer: string; endpoint: string; delivery: string };
/** An invitation link's token, as its e-mail would carry it (no worker here: its digest is set directly). */
const INVITATION_TOKEN = 'a'.repeat(43);

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startDashboardServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }),
    launchBrowser(),
  ]);
  const seeded = await seedDemoStore(server.prisma);
  const storeId = seeded.storeId;
  const created = await server.send(
    'POST',
    '/api/v1/store/webhooks/endpoints',
    { url: 'https://127.0.0.1:9/hooks', events: ['order.paid'] },
    seeded.apiKey,
  );
  const endpoint = (await created.json()).data.id as string;
  const event = await server.prisma.event.create({ data: { storeId, type: 'order.paid', data: {} } });
  const delivery = await server.prisma.webhookDelivery.create({
    data: {
      storeId,
      endpointId: endpoint,
      eventId: event.id,
      eventType: 'order.paid',
      payload: '{}',
      status: 'exhausted',
    },
  });
  await server.prisma.webhookAttempt.create({
    data: {
      deliveryId: delivery.id,
      number: 1,
      status: 'exhausted',
      httpStatus: 500,
      durationMs: 42,
      responseBody: 'no',
    },
  });
  const order = await server.prisma.order.findFirstOrThrow({ where: { storeId, status: 'pending' } });
  const customer = await server.prisma.customer.findFirstOrThrow({ where: { storeId } });
  ids = { order: order.id, customer: customer.id, endpoint, delivery: delivery.id };
  const invited = await server.send(
    'POST',
    '/api/v1/staff',
    { email: 'invitee@demo.store', name: 'Invitee', role: 'ADMIN' },
    seeded.apiKey,
  );
  await server.prisma.staffInvitation.update({
    where: { staffUserId: (await invited.json()).data.id },
    data: { tokenHash: hashInvitationToken(INVITATION_TOKEN) },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

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

it('finds no WCAG 2.1 A/AA violation on any page or dialog', async () => {
  // The page's CSP admits only its own scripts; the test's axe is let in by the browser context.
  await inBrowser(
    browser,
    'accessibility',
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
      const pages: Array<[string, string]> = [
        ['overview', '/'],
        ['products', '/products'],
        ['orders', '/orders'],
        ['order', `/orders/${ids.order}`],
        ['customers', '/customers'],
        ['customer', `/customers/${ids.customer}`],
        ['keys', '/keys'],
        ['webhooks', '/webhooks'],
        ['endpoint', `/webhooks/${ids.endpoint}`],
        ['delivery', `/webhooks/${ids.endpoint}/deliveries/${ids.delivery}`],
        ['audit', '/audit'],
        ['staff', '/staff'],
        ['account', '/account'],
      ];
      for (const [name, path] of pages) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page
          .locator('[role=status]')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => {});
        await check(name);
      }
      for (const [path, button] of [
        ['/keys', 'Create API key'],
        ['/webhooks', 'Add endpoint'],
        ['/products', 'New product'],
        ['/staff', 'Invite'],
        ['/account', 'Sign out other sessions'],
      ] as const) {
        await page.goto(`${server.baseUrl}${path}`);
        await page.getByRole('button', { name: button, exact: true }).click();
        await page.getByRole('dialog').waitFor();
        await check(`${path} ${button} dialog`);
      }
      expect(problems).toEqual({});
    },
    { bypassCSP: true },
  );
});
