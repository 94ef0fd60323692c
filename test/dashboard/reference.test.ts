import type { Browser, Page } from 'playwright-core';
import { eventDescriptions, eventTypes } from '../../src/events/catalog';
import { makeKey, makeStore } from '../helpers/factories';
import type { TestServer } from '../helpers/server';
import { DESKTOP, expectText, inBrowser, PHONE, withDashboard } from './setup';

/**
 * Issue 15 items 1 and 2 in a real browser: GraphiQL and the REST reference at /docs work with no
 * request leaving the server's origin (their code comes from installed packages), under the pages'
 * content security policy, and the reference can call the API with a key.
 */
jest.setTimeout(90_000);

let server: TestServer;
let browser: Browser;
withDashboard((started, launched) => {
  server = started;
  browser = launched;
});

/** Every URL the page asks for, and every console error (a CSP violation is one). */
function watch(page: Page) {
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    errors,
    /** The requests to anywhere but this server (data: and blob: URLs stay in the page). */
    elsewhere: () =>
      requested.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !/^(data|blob):/.test(url)),
  };
}

describe('the REST API reference at /docs', () => {
  it('is served with its assets from this server, under the content security policy', async () => {
    const res = await server.request('/docs', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.filter((url) => url.startsWith('/docs'))).toHaveLength(5);
    for (const asset of assets.filter((url) => url.startsWith('/docs'))) {
      expect({ asset, status: (await server.request(asset)).status }).toEqual({ asset, status: 200 });
    }
    // Only the files the page uses, not the whole package
    expect((await server.request('/docs/assets/index.html')).status).toBe(404);
    expect((await server.request('/docs/assets/package.json')).status).toBe(404);
  });

  it('renders every tag and the named schemas offline, and calls the API with an authorized key', async () => {
    const store = await makeStore(server.prisma);
    const { secret } = await makeKey(server.prisma, store.id);
    await inBrowser(browser, 'reference', async (page) => {
      const watched = watch(page);
      await page.goto(`${server.baseUrl}/docs`);
      await page.getByRole('heading', { name: /Commerce Service API/ }).waitFor();
      for (const tag of ['Products', 'Categories', 'Orders', 'Webhooks'])
        await page.locator(`#operations-tag-${tag}`).waitFor();
      await page.getByRole('button', { name: 'Schemas' }).click();
      for (const schema of ['Product', 'Order', 'WebhookEndpoint', 'CreateProductInput'])
        await page
          .locator('section.models .json-schema-2020-12__title')
          .getByText(schema, { exact: true })
          .waitFor();

      await page
        .getByRole('button', { name: /Authorize/ })
        .first()
        .click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      await dialog.locator('input').first().fill(secret);
      await dialog.locator('button.modal-btn.authorize').first().click();
      await dialog.locator('button.btn-done').first().click();

      const listCategories = page.locator('#operations-Categories-ListCategories');
      await listCategories.locator('.opblock-summary').click();
      await listCategories.getByRole('button', { name: 'Try it out' }).click();
      await listCategories.getByRole('button', { name: 'Execute' }).click();
      await expectText(
        listCategories.locator('.live-responses-table tr.response .response-col_status'),
        '200',
      );
      await expectText(listCategories.locator('.live-responses-table .microlight'), '"success": true');

      expect(watched.elsewhere()).toEqual([]);
      expect(watched.errors).toEqual([]);
    });
  });
});

describe('the webhooks in the reference', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('shows every event type as a webhook with its body schema (%s)', async (size, options) => {
    await inBrowser(
      browser,
      `reference-webhooks-${size}`,
      async (page) => {
        const watched = watch(page);
        await page.goto(`${server.baseUrl}/docs`);
        await page.getByRole('heading', { name: /Commerce Service API/ }).waitFor();
        const webhooks = page.locator('.webhooks');
        await webhooks.getByRole('heading', { name: 'Webhooks' }).waitFor();
        // Swagger UI 5 renders OpenAPI 3.1's webhooks: one POST per event type with its description
        for (const type of eventTypes)
          await expectText(
            webhooks.locator('.opblock-post', { has: page.locator(`[data-path="${type}"]`) }),
            eventDescriptions[type],
          );
        const placed = page.locator('#operations-webhooks-onOrderPlaced');
        await placed.locator('.opblock-summary-control').click();
        await expectText(placed, 'webhook-signature');
        await expectText(placed.locator('.opblock-section-request-body'), 'order.placed');
        await placed.locator('.opblock-section-request-body').scrollIntoViewIfNeeded();
        await page.screenshot({
          path: `test-artifacts/dashboard/pages/${size}-reference-webhooks.png`,
          fullPage: false,
        });
        expect(watched.errors).toEqual([]);
      },
      options,
    );
  });
});

describe('GraphiQL at /graphql', () => {
  it('renders offline from installed packages, with the tt-api-key header waiting to be filled in', async () => {
    await inBrowser(browser, 'graphiql', async (page) => {
      const watched = watch(page);
      await page.goto(`${server.baseUrl}/graphql`);
      await page.locator('.graphiql-container').first().waitFor();
      await page.getByRole('button', { name: /Execute query/ }).waitFor();
      await page.getByText('Headers', { exact: true }).click();
      await expectText(page.locator('.graphiql-editor-tool'), 'tt-api-key');
      expect(watched.elsewhere()).toEqual([]);
    });
  });
});
