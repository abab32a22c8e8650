// The docs console in a real browser: Debian's chromium driven by playwright-core, against a real service.
// Screenshots go to test-artifacts/console/ (ignored by git). Without /usr/bin/chromium the tests are skipped,
// and the reason is printed.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_PATHS } from '../../src/model/model-routes.js';
import { renderConsole } from '../../src/render/render-console.js';
import { renderDocumentBody } from '../../src/render/render-html.js';
import { createApiKey, createBasicUser, createClient } from '../../src/runtime/auth/auth-credentials.js';
import { startExample, type ConsoleServer } from './console-helpers.js';

const CHROMIUM = process.env.SERVICESPEC_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) console.warn(`console browser tests skipped: no browser at ${CHROMIUM} (apt-get install -y chromium, or set SERVICESPEC_CHROMIUM)`);

/** A page that records every console error and uncaught exception. */
async function openPage(browser: Browser, url: string, colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

/** Chromium's own notice for a fetch answered 4xx is not a page error: the page asked for that answer. */
const pageErrors = (errors: readonly string[]) => errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

// The test compiles without the DOM library, so page code is given as text.
const noOverflow = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
const hash = (page: Page) => page.evaluate<string>('location.hash');

/** Generous: the machine may be busy; a poll ends as soon as its value is right. */
const POLL = { timeout: 15_000, interval: 50 };

const ORDER = (customer: string) => ({
  customer,
  items: [{ sku: 'MUG-BLUE-350', quantity: 1, unit_price: 2599 }],
  amount: 2599,
  currency: 'EUR',
  shipping_address: { line1: 'Main St 1', city: 'Delft', postal_code: '2611', country: 'NL' },
});

describe.skipIf(!hasBrowser)('the docs console in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => browser?.close());

  for (const example of ['orders.yaml', 'library.yaml']) {
    it(`renders every part of ${example}, without overflow at 1280 px, in light and dark`, async () => {
      const s = await startExample(example);
      try {
        const { page, errors } = await openPage(browser, `${s.url}${SERVICE_PATHS.docs}`);
        const parts = renderDocumentBody(s.model).headings.filter((h) => h.level === 2);
        expect(parts.length).toBeGreaterThanOrEqual(9);
        for (const h of parts) {
          await expect.poll(() => page.locator(`h2#${h.id}`).isVisible(), POLL).toBe(true);
          // The table of contents links to it.
          expect(await page.locator(`#toc a[href="#${h.id}"]`).count()).toBe(1);
        }
        expect(await page.locator('article.route').count()).toBeGreaterThan(5);
        expect(await page.locator('svg.state-diagram').count()).toBeGreaterThan(0);
        expect(await noOverflow(page)).toBe(true);
        const name = example.replace('.yaml', '');
        await page.screenshot({ path: join(ARTIFACTS, `${name}-light.png`) });
        await page.screenshot({ path: join(ARTIFACTS, `${name}-full.png`), fullPage: true });
        const dark = await openPage(browser, `${s.url}${SERVICE_PATHS.docs}`, 'dark');
        const bg = await dark.page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
        expect(bg).not.toBe('rgb(255, 255, 255)');
        expect(await noOverflow(dark.page)).toBe(true);
        await dark.page.screenshot({ path: join(ARTIFACTS, `${name}-dark.png`) });
        expect(pageErrors([...errors, ...dark.errors])).toEqual([]);
        await page.close();
        await dark.page.close();
      } finally {
        await s.close();
      }
    }, 90_000);
  }

  describe('orders.yaml served with --docs', () => {
    let s: ConsoleServer;
    let key: string;
    let customer: string;
    let page: Page;
    let errors: string[];
    beforeAll(async () => {
      s = await startExample('orders.yaml');
      key = (await createApiKey(s.storage, s.model, { subject: 'shop', scopes: ['orders:read', 'orders:write', 'customers:write'] })).key;
      const c = await s.call('POST', '/customers', { name: 'Ada Lovelace', email: 'ada@example.com' }, { 'x-api-key': key });
      expect(c.status).toBe(201);
      customer = c.body.id as string;
      ({ page, errors } = await openPage(browser, `${s.url}${SERVICE_PATHS.docs}`));
    });
    afterAll(async () => {
      await page?.close();
      await s?.close();
    });

    it('the table of contents navigates to a part', async () => {
      const errorsPart = renderDocumentBody(s.model).headings.find((h) => h.level === 2 && /error/i.test(h.text))!;
      await page.locator(`#toc a[href="#${errorsPart.id}"]`).click();
      await expect.poll(() => hash(page), POLL).toBe(`#${errorsPart.id}`);
      const top = await page.locator(`h2#${errorsPart.id}`).evaluate((e: { getBoundingClientRect(): { top: number } }) => e.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(200);
    });

    it('links the contact email with mailto:', async () => {
      expect(await page.locator('a[href="mailto:checkout-team@example.com"]').count()).toBeGreaterThan(0);
    });

    it('search finds an operation and goes to it', async () => {
      await page.locator('#search').fill('payorder');
      const hit = page.locator('#search-results a', { hasText: 'payOrder' });
      await expect.poll(() => hit.count(), POLL).toBe(1);
      await hit.click();
      await expect.poll(() => hash(page), POLL).toBe('#op-payOrder');
      await page.locator('#search').fill('invalid_transition');
      await expect.poll(() => page.locator('#search-results a', { hasText: 'invalid_transition' }).count(), POLL).toBe(1);
      await page.locator('#search').fill('order.shipped');
      await expect.poll(() => page.locator('#search-results a', { hasText: 'order.shipped' }).count(), POLL).toBe(1);
      await page.locator('#search').fill('');
    });

    it('lists the token, stream and webhook routes, and labels generated examples', async () => {
      for (const id of ['token-payments', 'events-stream', 'webhooks-add', 'webhooks-list', 'webhooks-remove', 'webhooks-rotate', 'service-health'])
        expect(await page.locator(`#op-${id}`).count()).toBe(1);
      const create = page.locator('#op-createOrder');
      expect(await create.locator('.tag.generated').count()).toBeGreaterThan(0);
      expect(await create.locator('.tag.generated').first().textContent()).toBe('generated from the schema, not from the spec');
    });

    it('try-it creates an order with a minted key and shows the 201', async () => {
      await page.locator('#scheme').selectOption('key');
      await page.locator('#cred-key').fill(key);
      const card = page.locator('#op-createOrder');
      await card.locator('details.try-it > summary').click();
      await card.locator('textarea[name="body"]').fill(JSON.stringify(ORDER(customer), null, 2));
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 201 Created');
      const body = JSON.parse((await card.locator('.result .response-body').textContent())!) as { id: string; status: string; owner: string };
      expect(body.status).toBe('pending');
      expect(body.owner).toBe('shop');
      expect((await s.call('GET', `/orders/${body.id}`, undefined, { 'x-api-key': key })).status).toBe(200);
      // The README's screenshot (docs/assets/console-try-it.png is a copy): the form and its answer.
      await card.locator('details.try-it').evaluate((e: { scrollIntoView(o: object): void }) => e.scrollIntoView({ block: 'start' }));
      await page.evaluate('window.scrollBy(0, -70)');
      await page.screenshot({ path: join(ARTIFACTS, 'orders-try-it.png') });
    });

    it('a bad key shows the declared 401 body', async () => {
      await page.locator('#cred-key').fill('sk_not-a-key');
      const card = page.locator('#op-createOrder');
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 401 Unauthorized');
      const body = JSON.parse((await card.locator('.result .response-body').textContent())!) as { title: string; status: number };
      expect(body).toMatchObject({ title: 'A valid credential is required', status: 401 });
      await page.locator('#cred-key').fill(key);
    });

    it('the event viewer shows an event as it happens', async () => {
      await page.locator('#viewer-start').click();
      await expect.poll(() => page.locator('#viewer-status').textContent(), POLL).toBe('connected');
      const created = await s.call('POST', '/orders', ORDER(customer), { 'x-api-key': key });
      expect(created.status).toBe(201);
      const entry = page.locator('#viewer-log li', { hasText: created.body.id as string });
      await expect.poll(() => entry.count(), POLL).toBe(1);
      expect(await entry.locator('.event-kind').textContent()).toBe('order.created');
      await page.locator('#event-viewer').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'orders-event-viewer.png') });
      await page.locator('#viewer-stop').click();
      await expect.poll(() => page.locator('#viewer-status').textContent(), POLL).toBe('disconnected');
    });

    it('try-it fetches a client-credentials token for the pasted id and secret, and pays the order with it', async () => {
      const order = await s.call('POST', '/orders', ORDER(customer), { 'x-api-key': key });
      const client = await createClient(s.storage, s.model, { subject: 'payments-provider', scopes: ['orders:write', 'orders:all'] });
      await page.locator('#scheme').selectOption('payments');
      await page.locator('#cred-client_id').fill(client.clientId);
      await page.locator('#cred-client_secret').fill(client.clientSecret);
      await page.locator('#cred-fetch').click();
      await expect.poll(() => page.locator('#credential-status').textContent(), POLL).toBe('token fetched, expires in 3600 s');
      const card = page.locator('#op-payOrder');
      await card.locator('details.try-it > summary').click();
      await card.locator('input[name="path:id"]').fill(order.body.id as string);
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 200 OK');
      expect(JSON.parse((await card.locator('.result .response-body').textContent())!)).toMatchObject({ id: order.body.id, status: 'paid' });
      await page.locator('#scheme').selectOption('key');
      await page.locator('#cred-key').fill(key);
    });

    it('logged no console errors', () => {
      expect(pageErrors(errors)).toEqual([]);
    });
  });

  it('library.yaml: try-it sends Basic credentials to a path-versioned route, the version filled in', async () => {
    const s = await startExample('library.yaml');
    try {
      await createBasicUser(s.storage, s.model, { username: 'desk', password: 'correct horse battery', scopes: ['members:read'] });
      const { page, errors } = await openPage(browser, `${s.url}${SERVICE_PATHS.docs}`);
      await page.locator('#scheme').selectOption('staff');
      await page.locator('#cred-user').fill('desk');
      await page.locator('#cred-password').fill('correct horse battery');
      const card = page.locator('#op-listMembers');
      await card.locator('details.try-it > summary').click();
      expect(await card.locator('input[name="path:version"]').inputValue()).toBe(s.model.versioning!.current);
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 200 OK');
      expect(JSON.parse((await card.locator('.result .response-body').textContent())!)).toMatchObject({ items: [] });
      await page.locator('#cred-password').fill('wrong');
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 401 Unauthorized');
      expect(pageErrors(errors)).toEqual([]);
      await page.close();
    } finally {
      await s.close();
    }
  }, 60_000);

  it('doc --html: the same page from a file asks for a base URL before sending', async () => {
    const s = await startExample('orders.yaml', { docs: false });
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-console-file-'));
    try {
      const file = join(dir, 'orders.html');
      writeFileSync(file, renderConsole(s.model));
      const { page, errors } = await openPage(browser, pathToFileURL(file).href);
      expect(await page.locator('#base-url').inputValue()).toBe('');
      const card = page.locator('#op-listOrders');
      await card.locator('details.try-it > summary').click();
      await card.locator('form.try button[type="submit"]').click();
      expect(await card.locator('.result .status').textContent()).toBe('type a base URL at the top first');
      expect(pageErrors(errors)).toEqual([]);
      await page.close();
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
