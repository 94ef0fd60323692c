import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import type { Plan, StaffRole } from '../../prisma/generated/client/enums';
import { DASHBOARD_DIR } from '../../src/http/dashboard';
import { createStaffUser } from '../../src/modules/stores/provision';
import { makeStore } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * End-to-end tests of the store dashboard in a real browser: Debian's `chromium` driven by
 * playwright-core (browser downloads are impossible here), against a real service on a test database.
 * `npm test` builds the dashboard first (scripts/build-dashboard.mjs); .ci/run installs chromium.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(__dirname, '..', '..', 'test-artifacts', 'dashboard');
export const PASSWORD = 'correct horse battery staple';

/** The browser, nothing it could fetch from outside, no first-run or update traffic. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does)`,
    );
  if (!existsSync(path.join(DASHBOARD_DIR, 'index.html')))
    throw new Error('dashboard/dist is missing: npm run build:dashboard (npm test runs it first)');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A service for the dashboard: session and key limits far above what a test sends. */
export const startDashboardServer = (env: Record<string, string> = {}) =>
  startTestServer({ SESSION_RATE_LIMIT_MAX: '100000', RATE_LIMIT_MAX: '100000', ...env });

/**
 * A test file's service and browser: both started, side by side, before its tests and closed after
 * them, the browser first; `use` hands them to the file's own variables. One that started is closed
 * even when the other failed to start. (A file with a receiver, a worker or an SMTP server of its own
 * starts and closes them in its own order instead.)
 */
export function withDashboard(
  use: (server: TestServer, browser: Browser) => void,
  env: Record<string, string> = {},
): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    const [started, launched] = await Promise.allSettled([startDashboardServer(env), launchBrowser()]);
    if (started.status === 'fulfilled') server = started.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    if (started.status === 'rejected') throw started.reason;
    if (launched.status === 'rejected') throw launched.reason;
    use(started.value, launched.value);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}

/** A store (in USD unless `currency` says otherwise) with a staff member of `role` who has a password. */
export async function storeWithStaff(
  server: TestServer,
  plan: Plan = 'PRO',
  role: StaffRole = 'OWNER',
  { currency }: { currency?: string } = {},
) {
  const store = await makeStore(server.prisma, { plan, name: `Shop ${plan}`, currency });
  const staff = await addStaff(server, store.id, role);
  return { storeId: store.id, ...staff };
}

let counter = 0;
export async function addStaff(server: TestServer, storeId: string, role: StaffRole) {
  const email = `${role.toLowerCase()}-${counter++}-${Date.now()}@dashboard.test`;
  const name = `${role[0]}${role.slice(1).toLowerCase()} ${counter}`;
  const staff = await createStaffUser(server.prisma, { storeId, email, name, role, password: PASSWORD });
  return { staffId: staff.id, email, name };
}

/**
 * Runs `steps` in a fresh browser context (its own cookies). When they fail, a screenshot of the page
 * as it was goes to test-artifacts/dashboard/<name>.png before the error is rethrown.
 */
export async function inBrowser(
  browser: Browser,
  name: string,
  steps: (page: Page, context: BrowserContext) => Promise<void>,
  options: BrowserContextOptions = {},
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  try {
    await steps(page, context);
  } catch (error) {
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = path.join(ARTIFACTS, `${name.replace(/[^a-z0-9]+/gi, '-')}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    throw error;
  } finally {
    await context.close();
  }
}

/** Signs in through the page's form, and waits for the dashboard's navigation. */
export async function signIn(page: Page, server: TestServer, email: string, password = PASSWORD) {
  await page.goto(`${server.baseUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Attached, not visible: on a phone the navigation is folded behind "Menu".
  await page
    .getByRole('navigation', { name: 'Sections', includeHidden: true })
    .waitFor({ state: 'attached' });
}

/** A phone's screen (an iPhone 14's CSS pixels, touch): `inBrowser(browser, name, steps, PHONE)`. */
export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

/** A laptop's screen, for tests that run at both sizes (`[['desktop', DESKTOP], ['phone', PHONE]]`). */
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/**
 * Follows a link of the navigation landmark and waits for the page's heading. On a narrow screen the
 * navigation is folded behind the "Menu" button, which is pressed first.
 */
export async function openSection(page: Page, link: string, heading = link) {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (
    (await menu.count()) > 0 &&
    (await menu.isVisible()) &&
    (await menu.getAttribute('aria-expanded')) !== 'true'
  )
    await menu.click();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: link }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** Waits (up to 10 s) until the element's text contains `text`. */
export async function expectText(locator: Locator, text: string) {
  await locator.first().waitFor();
  await eventually(
    async () => ((await locator.first().textContent()) ?? '').includes(text),
    async () => `expected "${text}" in "${await locator.first().textContent()}"`,
  );
}

/** Waits until the status badge inside `locator` reads exactly `status`. */
export async function statusIn(locator: Locator, status: string) {
  const badge = locator.locator('.status');
  await eventually(
    async () => (await badge.first().textContent()) === status,
    async () => `expected status ${status}, saw ${await badge.first().textContent()}`,
  );
}

/** Polls `check` until true, for up to 10 s (waits for the page or the worker, never a timing assertion). */
export async function eventually(
  check: () => Promise<boolean>,
  explain?: () => Promise<string>,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(explain ? await explain() : 'condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
