import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Runner } from 'graphile-worker';
import type { Browser, Page } from 'playwright-core';
import { invitationLink, mailText } from '../helpers/mail';
import type { TestServer } from '../helpers/server';
import { startSmtpServer, startTestWorker } from '../helpers/webhooks';
import {
  eventually,
  expectText,
  inBrowser,
  launchBrowser,
  openSection,
  PASSWORD,
  PHONE,
  signIn,
  startDashboardServer,
  storeWithStaff,
} from './setup';

/**
 * docs/design.md "The dashboard", staff and account: an owner invites a colleague in the Staff page,
 * the e-mail arrives at a real SMTP server, the colleague follows its link in a browser of their own,
 * sets a password and is signed in; the owner manages the member; the account page changes a password
 * and signs out another session. Desktop and phone (390×844).
 */
jest.setTimeout(180_000);

const SHOTS = path.join(__dirname, '..', '..', 'test-artifacts', 'dashboard', 'pages');
const NEW_PASSWORD = 'a brand new passphrase';

let server: TestServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: Runner;
let counter = 0;

beforeAll(async () => {
  [server, browser, smtp] = await Promise.all([startDashboardServer(), launchBrowser(), startSmtpServer()]);
  worker = await startTestWorker(server, { webhooks: { smtpUrl: smtp.url, publicUrl: server.baseUrl } });
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await worker?.stop();
  await smtp?.close();
  await browser?.close();
  await server?.close();
});

const shot = (page: Page, size: 'desktop' | 'phone', name: string) =>
  page.screenshot({ path: path.join(SHOTS, `${size}-${name}.png`), fullPage: true });

/** The invitation link of the newest e-mail to `email`, once the worker has sent it. */
async function linkSentTo(email: string, after = 0): Promise<string> {
  await eventually(
    async () => smtp.messages.filter((message) => message.to.includes(email)).length > after,
    async () => `no invitation e-mail to ${email}`,
    20_000,
  );
  const raw = smtp.messages.filter((message) => message.to.includes(email)).at(-1)!.raw;
  return invitationLink(mailText(raw)).url;
}

/** Invites through the Staff page's dialog (the page is open). */
async function inviteInPage(
  page: Page,
  email: string,
  name: string,
  role: string,
  size?: 'desktop' | 'phone',
) {
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a staff member' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Role').selectOption(role);
  if (size) await shot(page, size, 'staff-invite');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  const sent = page.getByRole('dialog', { name: 'Invitation sent' });
  await expectText(sent, email);
  await sent.getByRole('button', { name: 'Done' }).click();
}

/** Follows the link, sets the password twice and lands signed in on the overview. */
async function acceptInPage(
  page: Page,
  link: string,
  store: string,
  email: string,
  size: 'desktop' | 'phone',
) {
  await page.goto(link);
  await page.getByRole('heading', { level: 1, name: `Join ${store}` }).waitFor();
  await expectText(page.getByRole('main'), email);
  await shot(page, size, 'accept-invite');
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByLabel('Repeat password').fill('not the same');
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await expectText(page.locator('.field-error'), 'does not match');
  await page.getByLabel('Repeat password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
}

/** The account page, through the signed-in member's name in the header (behind Menu where folded). */
async function openAccount(page: Page, name: string) {
  const link = page.getByRole('link', { name, exact: true });
  if (!(await link.isVisible())) await page.getByRole('button', { name: 'Menu' }).click();
  await link.click();
  await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
}

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

async function confirm(page: Page, button: string, dialogTitle: string, confirmLabel: string) {
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('dialog', { name: dialogTitle }).getByRole('button', { name: confirmLabel }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

it('an owner invites an admin by e-mail; the link signs them in once; the owner changes the role, deactivates, reactivates and removes', async () => {
  const owner = await storeWithStaff(server, 'PRO', 'OWNER');
  const email = `colleague-${counter++}@dashboard.test`;
  await inBrowser(browser, 'staff-owner', async (page) => {
    await signIn(page, server, owner.email);
    await openSection(page, 'Staff');
    await inviteInPage(page, email, 'Colleague One', 'ADMIN', 'desktop');
    await expectText(rowOf(page, 'Colleague One'), 'invited');
    // Ownership goes only to someone who has signed in.
    expect(await page.getByRole('button', { name: 'Make owner: Colleague One' }).count()).toBe(0);
    await shot(page, 'desktop', 'staff');

    const link = await linkSentTo(email);
    expect(link).toMatch(new RegExp(`^${server.baseUrl}/accept-invite\\?token=[A-Za-z0-9_-]{43}$`));
    await inBrowser(browser, 'staff-invitee', async (invitee) => {
      await acceptInPage(invitee, link, 'Shop PRO', email, 'desktop');
      await expectText(invitee.locator('header'), 'Colleague One (ADMIN)');
      // An admin manages staff too, but only an owner hands over ownership.
      await openSection(invitee, 'Staff');
      await expectText(rowOf(invitee, owner.name), 'OWNER');
      expect(await invitee.getByRole('button', { name: /^Make owner: / }).count()).toBe(0);
      // The link worked once.
      await invitee.goto(link);
      await invitee.getByRole('heading', { level: 1, name: 'This invitation link does not work' }).waitFor();
      await expectText(invitee.getByRole('main'), 'Ask the person who invited you');
    });

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
    await expectText(rowOf(page, 'Colleague One'), 'active');

    await page.getByRole('button', { name: 'Change role of Colleague One' }).click();
    const roleDialog = page.getByRole('dialog', { name: 'Change the role of Colleague One' });
    await roleDialog.getByLabel('Role').selectOption('STAFF');
    await roleDialog.getByRole('button', { name: 'Save role' }).click();
    await expectText(rowOf(page, 'Colleague One').getByRole('cell').nth(1), 'STAFF');

    await confirm(page, 'Deactivate Colleague One', 'Deactivate Colleague One?', 'Deactivate');
    await expectText(rowOf(page, 'Colleague One'), 'inactive');
    await page.getByRole('button', { name: 'Reactivate Colleague One' }).click();
    await expectText(rowOf(page, 'Colleague One').locator('.status'), 'active');

    await confirm(page, 'Make owner: Colleague One', 'Make Colleague One an owner?', 'Make owner');
    await expectText(rowOf(page, 'Colleague One').getByRole('cell').nth(1), 'OWNER');

    await confirm(page, 'Remove Colleague One', 'Remove Colleague One?', 'Remove');
    await eventually(async () => (await rowOf(page, 'Colleague One').count()) === 0);
    expect(await server.prisma.staffUser.count({ where: { email } })).toBe(0);
  });
});

it('shows a taken address beside the e-mail field, resends and revokes an invitation', async () => {
  const owner = await storeWithStaff(server, 'PRO', 'OWNER');
  const email = `pending-${counter++}@dashboard.test`;
  await inBrowser(browser, 'staff-invitations', async (page) => {
    await signIn(page, server, owner.email);
    await openSection(page, 'Staff');
    await inviteInPage(page, email, 'Pending Person', 'STAFF');
    const first = await linkSentTo(email);

    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a staff member' });
    await dialog.getByLabel('E-mail').fill(owner.email);
    await dialog.getByLabel('Name').fill('Again');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expectText(dialog.locator('.field-error'), 'is already a staff member of this store');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Resend invitation to Pending Person' }).click();
    await expectText(page.getByRole('status'), 'Invitation sent again');
    const second = await linkSentTo(email, 1);
    expect(second).not.toBe(first);
    await inBrowser(browser, 'stale-link', async (stale) => {
      await stale.goto(first);
      await stale.getByRole('heading', { level: 1, name: 'This invitation link does not work' }).waitFor();
    });

    await confirm(
      page,
      'Revoke invitation of Pending Person',
      'Revoke the invitation of Pending Person?',
      'Revoke invitation',
    );
    await eventually(async () => (await rowOf(page, 'Pending Person').count()) === 0);
    await inBrowser(browser, 'revoked-link', async (revoked) => {
      await revoked.goto(second);
      await revoked.getByRole('heading', { level: 1, name: 'This invitation link does not work' }).waitFor();
    });
  });
});

it('the last active owner cannot step down (LAST_OWNER shown); beside another owner they can, and their rights follow', async () => {
  const owner = await storeWithStaff(server, 'PRO', 'OWNER');
  const others = { storeId: owner.storeId, id: { not: owner.staffId } };
  await server.prisma.staffUser.updateMany({ where: others, data: { isActive: false } });
  await inBrowser(browser, 'staff-step-down', async (page) => {
    await signIn(page, server, owner.email);
    await openSection(page, 'Staff');
    // An owner may change the other owner (here: reactivate or remove them); an admin may not.
    const ownerActions = page.getByRole('button', { name: /^(Deactivate|Reactivate|Remove) / });
    await eventually(async () => (await ownerActions.count()) === 2);
    const stepDown = async () => {
      await page.getByRole('button', { name: `Change role of ${owner.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Change the role of ${owner.name}` });
      await dialog.getByLabel('Role').selectOption('ADMIN');
      await dialog.getByRole('button', { name: 'Save role' }).click();
      return dialog;
    };
    const refused = await stepDown();
    await expectText(refused.getByRole('alert'), 'LAST_OWNER');
    await refused.getByRole('button', { name: 'Close' }).click();

    await server.prisma.staffUser.updateMany({ where: others, data: { isActive: true } });
    await stepDown();
    await expectText(page.locator('header'), '(ADMIN)');
    await expectText(rowOf(page, owner.name).getByRole('cell').nth(1), 'ADMIN');
    await eventually(async () => (await ownerActions.count()) === 0);
  });
});

it('on a phone: invites and accepts; a STAFF member is told the page is not theirs; the account page signs out another session and changes the password', async () => {
  const owner = await storeWithStaff(server, 'PRO', 'OWNER');
  const email = `phone-${counter++}@dashboard.test`;
  await inBrowser(
    browser,
    'staff-phone',
    async (page) => {
      await signIn(page, server, owner.email);
      await openSection(page, 'Staff');
      await shot(page, 'phone', 'staff');
      await inviteInPage(page, email, 'Floor Staff', 'STAFF', 'phone');
      const link = await linkSentTo(email);
      await inBrowser(
        browser,
        'staff-phone-invitee',
        async (invitee) => {
          await acceptInPage(invitee, link, 'Shop PRO', email, 'phone');
          await invitee.goto(`${server.baseUrl}/staff`);
          await invitee.getByRole('heading', { level: 1, name: 'Staff' }).waitFor();
          await expectText(invitee.getByRole('note'), 'managed by its owners and admins');
        },
        PHONE,
      );

      // Another browser of the same owner, signed in meanwhile.
      await inBrowser(browser, 'staff-phone-elsewhere', async (elsewhere) => {
        await signIn(elsewhere, server, owner.email);
        await openAccount(page, owner.name);
        await expectText(page.locator('.facts'), owner.email);
        await shot(page, 'phone', 'account');
        await page.getByRole('button', { name: 'Sign out other sessions' }).click();
        await page
          .getByRole('dialog', { name: 'Sign out every other session?' })
          .getByRole('button', { name: 'Sign out others' })
          .click();
        await expectText(page.getByRole('status'), '1 other session signed out');
        await elsewhere.reload();
        await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();

        await signIn(elsewhere, server, owner.email);
        await page.getByLabel('Current password').fill('not my password');
        await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
        await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
        await page.getByRole('button', { name: 'Change password' }).click();
        await expectText(page.locator('.field-error'), 'is not your current password');
        await page.getByLabel('Current password').fill(PASSWORD);
        await page.getByRole('button', { name: 'Change password' }).click();
        await expectText(page.getByRole('status'), 'Password changed; 1 other session signed out');
        await elsewhere.reload();
        await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();
        await signIn(elsewhere, server, owner.email, NEW_PASSWORD);
      });
      // This session stayed signed in.
      await openSection(page, 'Staff');
    },
    PHONE,
  );
});

it('the account page at desktop size', async () => {
  const admin = await storeWithStaff(server, 'PRO', 'ADMIN');
  await inBrowser(browser, 'account-desktop', async (page) => {
    await signIn(page, server, admin.email);
    await openAccount(page, admin.name);
    await expectText(page.locator('.facts'), 'ADMIN');
    await shot(page, 'desktop', 'account');
  });
});
