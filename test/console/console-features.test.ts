// The console's features in a real browser (Debian's chromium driven by playwright-core) against a real service on
// SQLite: per-code error examples, code samples with a copy button, the credential kept for the tab's session,
// collapsible schemas, prefilled bodies that work, deep links, the narrow layout, unions and the error body's roles.
// Each feature's screenshot goes to test-artifacts/console/; with SERVICESPEC_DOCS_SCREENSHOTS=1 also to
// docs/assets/console-<feature>.png (the README's pictures: `npm run screenshots`).

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_PATHS } from '../../src/model/model-routes.js';
import { compileSpecText } from '../../src/program.js';
import { renderDocumentBody } from '../../src/render/render-html.js';
import { createApiKey } from '../../src/runtime/auth/auth-credentials.js';
import { yaml } from '../check/helpers.js';
import { UNION_SPEC } from '../support/union-spec.js';
import { startExample, startModel, type ConsoleServer } from './console-helpers.js';

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
const DOCS_ASSETS = fileURLToPath(new URL('../../docs/assets/', import.meta.url));
const hasBrowser = existsSync(CHROMIUM);
if (!hasBrowser) console.warn(`console feature tests skipped: no browser at ${CHROMIUM} (apt-get install -y chromium, or set SERVICESPEC_CHROMIUM)`);

const run = promisify(execFile);
const POLL = { timeout: 15_000, interval: 50 };

/** A feature's screenshot: to test-artifacts/, and to docs/assets/ when asked. */
async function shot(page: Page, feature: string): Promise<void> {
  const file = join(ARTIFACTS, `console-${feature}.png`);
  await page.screenshot({ path: file });
  if (process.env.SERVICESPEC_DOCS_SCREENSHOTS === '1') copyFileSync(file, join(DOCS_ASSETS, `console-${feature}.png`));
}

const pageErrors = (errors: readonly string[]) => errors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e));

async function open(context: BrowserContext, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

interface ErrorExample {
  code: string;
  status: string;
  label: string;
  body: Record<string, unknown>;
}

/** Every error example in the page, with its code and status attributes and its body as shown. */
const errorExamples = (page: Page): Promise<ErrorExample[]> =>
  page.evaluate<ErrorExample[]>(`Array.from(document.querySelectorAll('.error-example')).map((e) => ({
    code: e.getAttribute('data-code'), status: e.getAttribute('data-status'),
    label: e.querySelector('.ex-head strong').textContent, body: JSON.parse(e.querySelector('pre code').textContent) }))`);

describe.skipIf(!hasBrowser)('the docs console features in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => browser?.close());

  describe('orders.yaml', () => {
    let s: ConsoleServer;
    let key: string;
    let context: BrowserContext;
    beforeAll(async () => {
      s = await startExample('orders.yaml');
      key = (await createApiKey(s.storage, s.model, { subject: 'shop', scopes: ['orders:read', 'orders:write', 'customers:read', 'customers:write'] })).key;
      context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    });
    afterAll(async () => {
      await context?.close();
      await s?.close();
    });

    it('shows each error example with its own code and status, as problem details, as the service answers', async () => {
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      const all = await errorExamples(page);
      expect(all.length).toBeGreaterThan(100);
      for (const e of all) {
        expect(e.body.code).toBe(e.code);
        expect(e.body.status).toBe(Number(e.status));
        expect(e.label).toBe(`${e.status} ${e.code} application/problem+json`);
      }
      const codes = new Set(all.map((e) => e.code));
      for (const c of ['invalid_request', 'not_found', 'unauthenticated', 'forbidden', 'invalid_transition']) expect(codes).toContain(c);
      // The shown 404 is what the service answers, but for the path it was asked.
      const shown = all.find((e) => e.code === 'not_found' && e.body.instance === '/orders/{id}')!;
      const real = await s.call('GET', '/orders/01890a5d-ac96-774b-bcce-b302099a8057', undefined, { 'x-api-key': key });
      expect(real.status).toBe(404);
      expect(real.headers.get('content-type')).toContain('application/problem+json');
      // The same fields and values but the request's own detail and path.
      const { detail, instance, ...rest } = real.body as Record<string, unknown>;
      expect([typeof detail, instance]).toEqual(['string', '/orders/01890a5d-ac96-774b-bcce-b302099a8057']);
      expect({ ...rest, instance: '/orders/{id}' }).toEqual(shown.body);
      const card = page.locator('#op-getOrder');
      await card.locator('.examples details > summary').click();
      await card.locator('.error-example[data-code="not_found"]').scrollIntoViewIfNeeded();
      await shot(page, 'errors');
      expect(pageErrors(errors)).toEqual([]);
      await page.close();
    });
  });

  it('code samples: curl, JavaScript and Python with the real path, method and auth header; the copy button copies the shown one, which runs', async () => {
    const s = await startExample('orders.yaml');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
      const key = (await createApiKey(s.storage, s.model, { subject: 'shop', scopes: ['orders:read', 'customers:read', 'customers:write'] })).key;
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      const card = page.locator('#op-createCustomer');
      const copy = async (language: string): Promise<string> => {
        await card.locator(`.sample-tab[data-language="${language}"]`).click();
        await card.locator('.samples .copy').click();
        await expect.poll(() => card.locator('.copy-status').textContent(), POLL).toBe('copied');
        const clip = await page.evaluate<string>('navigator.clipboard.readText()');
        expect(clip).toBe(await page.evaluate<string>('window.servicespecCopied'));
        expect(clip).toBe(await card.locator(`.sample[data-language="${language}"] code`).textContent());
        return clip;
      };
      const curl = await copy('curl');
      expect(curl).toContain(`curl -X POST '${s.url}/customers'`);
      expect(curl).toContain(`-H 'X-API-Key: sk_YOUR_API_KEY'`);
      expect(curl).toContain(`"email": "ada@example.com"`);
      await card.scrollIntoViewIfNeeded();
      await shot(page, 'samples');
      const javascript = await copy('javascript');
      expect(javascript).toContain(`fetch("${s.url}/customers", {\n  method: "POST",`);
      const python = await copy('python');
      expect(python).toContain('import urllib.request');
      expect(python).toContain(`"X-API-Key": "sk_YOUR_API_KEY",`);
      // With the placeholder replaced by a real key, each runs and is answered as the spec says.
      const withKey = (t: string) => t.split('sk_YOUR_API_KEY').join(key);
      // The service runs in this process: the samples run as child processes without blocking it.
      const ran = await run('sh', ['-c', `${withKey(curl)} -s -o /dev/null -w '%{http_code}'`]);
      expect(ran.stdout).toBe('201');
      const pyList = await (async () => {
        const list = page.locator('#op-listCustomers');
        await list.locator('.sample-tab[data-language="python"]').click();
        return withKey((await list.locator('.sample[data-language="python"] code').textContent())!);
      })();
      expect((await run('python3', ['-c', pyList])).stdout).toMatch(/^200 \{"items":\[\{/);
      const jsRead = withKey((await page.locator('#op-listOrders .sample[data-language="javascript"] code').textContent())!);
      const logged = await page.evaluate<string>(
        `(async () => { let out = ''; const console = { log: (...a) => { out = a.join(' '); } }; ${jsRead}; return out; })()`,
      );
      expect(logged).toMatch(/^200 \{"items":\[\]/);
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it("keeps the pasted credential for the tab's session: it survives a reload, not a new tab, and Forget clears it", async () => {
    const s = await startExample('orders.yaml');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const key = (await createApiKey(s.storage, s.model, { subject: 'shop', scopes: ['orders:read'] })).key;
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      await page.locator('#scheme').selectOption('key');
      await page.locator('#cred-key').fill(key);
      await page.reload();
      expect(await page.locator('#scheme').inputValue()).toBe('key');
      expect(await page.locator('#cred-key').inputValue()).toBe(key);
      expect(await page.locator('#credential-status').textContent()).toBe("kept from this tab's session");
      await shot(page, 'credential');
      // The kept key is used: the list answers 200, not 401.
      const card = page.locator('#op-listOrders');
      await card.locator('details.try-it > summary').click();
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 200 OK');
      // Another tab starts without it.
      const other = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      await other.page.locator('#scheme').selectOption('key');
      expect(await other.page.locator('#cred-key').inputValue()).toBe('');
      await other.page.close();
      await page.locator('#credential-forget').click();
      expect(await page.locator('#cred-key').inputValue()).toBe('');
      expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
      await page.reload();
      await page.locator('#scheme').selectOption('key');
      expect(await page.locator('#cred-key').inputValue()).toBe('');
      expect(await page.evaluate<string>('JSON.stringify(sessionStorage)')).not.toContain(key);
      expect(pageErrors([...errors, ...other.errors])).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it('deep links: loading the page with a route, error or resource anchor opens it and scrolls to it', async () => {
    const s = await startExample('orders.yaml');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const docs = `${s.url}${SERVICE_PATHS.docs}`;
      const top = (page: Page, selector: string) =>
        page.locator(selector).evaluate((e: { getBoundingClientRect(): { top: number } }) => e.getBoundingClientRect().top);
      const { page, errors } = await open(context, `${docs}#op-payOrder`);
      await expect.poll(() => page.locator('#op-payOrder details.try-it').getAttribute('open'), POLL).toBe('');
      await expect
        .poll(async () => {
          const t = await top(page, '#op-payOrder');
          return t >= 0 && t < 150;
        }, POLL)
        .toBe(true);
      // The route's own link is the same stable anchor.
      expect(await page.locator('#op-payOrder a.anchor').getAttribute('href')).toBe('#op-payOrder');
      await shot(page, 'deep-link');
      // An error example inside the closed "Error responses" list.
      const e = await open(context, `${docs}#op-getOrder-error-not_found`);
      await expect.poll(() => e.page.locator('#op-getOrder-error-not_found').isVisible(), POLL).toBe(true);
      await expect
        .poll(async () => {
          const t = await top(e.page, '#op-getOrder-error-not_found');
          return t >= 0 && t < 150;
        }, POLL)
        .toBe(true);
      // A resource's heading; and following a link in the page does the same.
      const order = renderDocumentBody(s.model).headings.find((h) => h.text === 'Order')!;
      const r = await open(context, `${docs}#${order.id}`);
      await expect
        .poll(async () => {
          const t = await top(r.page, `#${order.id}`);
          return t >= 0 && t < 150;
        }, POLL)
        .toBe(true);
      await r.page.evaluate(`location.hash = '#op-getCustomer-error-not_found'`);
      await expect.poll(() => r.page.locator('#op-getCustomer-error-not_found').isVisible(), POLL).toBe(true);
      await expect
        .poll(async () => {
          const t = await top(r.page, '#op-getCustomer-error-not_found');
          return t >= 0 && t < 150;
        }, POLL)
        .toBe(true);
      expect(pageErrors([...errors, ...e.errors, ...r.errors])).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it('at 390 x 844 the first screen is the service, the contents fold behind a button, nothing overflows', async () => {
    const s = await startExample('orders.yaml');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      expect(await page.locator('#toc').isVisible()).toBe(false);
      expect(await page.locator('#nav-toggle').isVisible()).toBe(true);
      // The document's title and the start of the first part are on the first screen.
      const h1 = await page.locator('main h1').first().boundingBox();
      expect(h1!.y + h1!.height).toBeLessThan(844);
      const firstPart = await page.locator('main h2').first().boundingBox();
      expect(firstPart!.y).toBeLessThan(844);
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await shot(page, 'narrow');
      await page.locator('#nav-toggle').click();
      expect(await page.locator('#toc').isVisible()).toBe(true);
      expect(await page.locator('#nav-toggle').getAttribute('aria-expanded')).toBe('true');
      await page.locator('#toc a[href="#op-createOrder"]').click();
      await expect.poll(() => page.evaluate<string>('location.hash'), POLL).toBe('#op-createOrder');
      expect(await page.locator('#toc').isVisible()).toBe(false);
      await expect.poll(async () => (await page.locator('#op-createOrder').boundingBox())!.y < 150, POLL).toBe(true);
      // A route card fits: no horizontal scrolling of the page.
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it('prefilled try-it bodies work: the referenced customer and the path identifier come from the service, the create answers 201', async () => {
    const s = await startExample('orders.yaml');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const key = (await createApiKey(s.storage, s.model, { subject: 'shop', scopes: ['orders:read', 'orders:write', 'customers:read', 'customers:write'] }))
        .key;
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      await page.locator('#scheme').selectOption('key');
      await page.locator('#cred-key').fill(key);
      const card = page.locator('#op-createOrder');
      // No customer yet: the form says so, and which operation makes one.
      await card.locator('details.try-it > summary').click();
      await expect.poll(() => card.locator('form.try').getAttribute('data-filled'), POLL).toBe('true');
      expect(await card.locator('.prefill').textContent()).toBe('customer: no Customer yet (create one with createCustomer first)');
      await card.locator('details.try-it > summary').click();
      // The prefilled createCustomer answers 201; then the prefilled createOrder names that customer and answers 201.
      const customerCard = page.locator('#op-createCustomer');
      await customerCard.locator('details.try-it > summary').click();
      await customerCard.locator('form.try button[type="submit"]').click();
      await expect.poll(() => customerCard.locator('.result .status').textContent(), POLL).toBe('HTTP 201 Created');
      const customer = JSON.parse((await customerCard.locator('.result .response-body').textContent())!) as { id: string };
      await page.reload();
      await card.locator('details.try-it > summary').click();
      await expect.poll(() => card.locator('form.try').getAttribute('data-filled'), POLL).toBe('true');
      const body = JSON.parse(await card.locator('textarea[name="body"]').inputValue()) as { customer: string };
      expect(body.customer).toBe(customer.id);
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 201 Created');
      const order = JSON.parse((await card.locator('.result .response-body').textContent())!) as { id: string; customer: string };
      expect(order.customer).toBe(customer.id);
      await card.locator('details.try-it').evaluate((e: { scrollIntoView(o: object): void }) => e.scrollIntoView({ block: 'start' }));
      await shot(page, 'prefill');
      // A read's path identifier too.
      const read = page.locator('#op-getOrder');
      await read.locator('details.try-it > summary').click();
      await expect.poll(() => read.locator('input[name="path:id"]').inputValue(), POLL).toBe(order.id);
      await read.locator('form.try button[type="submit"]').click();
      await expect.poll(() => read.locator('.result .status').textContent(), POLL).toBe('HTTP 200 OK');
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it('schemas are a collapsible tree: nested objects and arrays fold, each field with its type, format and constraints', async () => {
    const s = await startExample('orders.yaml');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      const card = page.locator('#op-createOrder');
      await card.locator('details.schemas > summary').click();
      const tree = card.locator('.schema-tree').first();
      expect(await tree.locator('> li > details > summary .field').textContent()).toBe('Request body');
      // The top level is open; nested objects and arrays are closed until asked.
      const items = tree.locator('> li > details > ul > li[data-field="items"]');
      expect(await items.locator('> details > summary .type').textContent()).toBe('array of object');
      expect(await items.locator('> details > summary .facts').textContent()).toBe('items ≥ 1; items ≤ 100');
      const sku = items.locator('li[data-field="sku"]');
      expect(await sku.isVisible()).toBe(false);
      await items.locator('> details > summary').click();
      await items.locator('li > details > summary').first().click();
      expect(await sku.isVisible()).toBe(true);
      expect(await sku.locator('.facts').textContent()).toBe('pattern ^[A-Z0-9-]{4,32}$');
      const customer = tree.locator('> li > details > ul > li[data-field="customer"]');
      expect(await customer.locator('.type').textContent()).toBe('string');
      expect(await customer.locator('.facts').textContent()).toBe('format uuid');
      expect(await customer.locator('.req').textContent()).toBe('required');
      const address = tree.locator('> li > details > ul > li[data-field="shipping_address"]');
      await address.locator('> details > summary').click();
      expect(await address.locator('li[data-field="line2"] .opt').textContent()).toBe('optional');
      await card.locator('details.schemas').scrollIntoViewIfNeeded();
      await shot(page, 'schemas');
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it("unions (variants, discriminator and its mapping) and the declared error body's roles are shown", async () => {
    const c = compileSpecText(UNION_SPEC);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startModel(c.model!);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      const card = page.locator('#op-createPayment');
      await card.locator('details.schemas > summary').click();
      const union = card.locator('.schema-tree').first().locator('details[data-kind="union"]');
      expect(await union.locator('> summary').textContent()).toBe('method one of 2 required tagged by kind');
      await union.locator('> summary').click();
      const variants = await union.locator('> ul > li > details > summary .field').allTextContents();
      expect(variants).toEqual(['variant card when kind is "card"', 'variant bank_transfer when kind is "bank"']);
      await union.locator('> ul > li > details > summary').first().click();
      expect(await union.locator('li[data-field="number"] .facts').textContent()).toBe('pattern ^[0-9]{12,19}$');
      await union.scrollIntoViewIfNeeded();
      await shot(page, 'unions');
      const quote = page.locator('#op-quote');
      await quote.locator('details.schemas > summary').click();
      expect(await quote.locator('details[data-kind="union"] > summary').first().textContent()).toBe(
        'Request body one of 2 untagged: told apart by their fields',
      );
      // The document part of the page: the field's union in words, and the error body's roles.
      expect(await page.locator('main td', { hasText: 'union tagged by kind: card → card, bank → bank_transfer' }).count()).toBe(1);
      const roles = page.locator('main li', { hasText: /^Code: error_code/ });
      expect(await roles.textContent()).toBe("Code: error_code (the code's HTTP status: the field is a number)");
      expect(await page.locator('main li', { hasText: /^Media type:/ }).textContent()).toBe('Media type: application/vnd.pay.error+json');
      await roles.scrollIntoViewIfNeeded();
      await shot(page, 'error-body');
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it("try-it offers the spec's named request examples: the first is the body, picking another puts it there, and it answers 201", async () => {
    const c = compileSpecText(yaml`
      servicespec: 1
      resources:
        Note:
          fields:
            id: { type: uuid, readOnly: true }
            text: { type: string, minLength: 1 }
            pinned: { type: boolean }
      endpoints:
        operations:
          createNote:
            method: POST
            path: /notes
            action: create
            resource: Note
            status: 201
            auth: none
            examples:
              request:
                shopping: { summary: A shopping list, value: { text: Buy milk, pinned: false } }
                reminder: { summary: A pinned reminder, value: { text: Call Ada, pinned: true } }
      errors:
        codes:
          any_error: { status: 500, when: [validation, malformed_request, unsupported_media_type, body_too_large, internal, headers_too_large, route_not_found, method_not_allowed, unavailable, timeout] }
    `);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startModel(c.model!);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}#op-createNote`);
      const card = page.locator('#op-createNote');
      const body = () =>
        card
          .locator('textarea[name="body"]')
          .inputValue()
          .then((t) => JSON.parse(t) as unknown);
      expect(await body()).toEqual({ text: 'Buy milk', pinned: false });
      expect(await card.locator('select[name="example"] option').allTextContents()).toEqual(['shopping — A shopping list', 'reminder — A pinned reminder']);
      await card.locator('select[name="example"]').selectOption({ label: 'reminder — A pinned reminder' });
      expect(await body()).toEqual({ text: 'Call Ada', pinned: true });
      await card.locator('form.try button[type="submit"]').click();
      await expect.poll(() => card.locator('.result .status').textContent(), POLL).toBe('HTTP 201 Created');
      expect(JSON.parse((await card.locator('.result .response-body').textContent())!)).toMatchObject({ text: 'Call Ada', pinned: true });
      await shot(page, 'named-examples');
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });

  it('a declared error body: each example in its fields, the code as its status where the code field is an integer', async () => {
    const c = compileSpecText(yaml`
      servicespec: 1
      resources:
        Note:
          fields:
            id: { type: uuid, readOnly: true }
            text: { type: string, example: Buy milk }
      endpoints:
        operations:
          createNote: { method: POST, path: /notes, action: create, resource: Note, status: 201, auth: none }
          getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note, auth: none }
      errors:
        body:
          media_type: application/vnd.notes.error+json
          fields:
            error_code: { type: integer }
            why: { type: string }
            status: { type: integer }
          code: error_code
          message: why
        codes:
          bad_input: { status: 422, title: Input breaks a rule, when: [validation, malformed_request, unsupported_media_type, body_too_large] }
          missing: { status: 404, title: No such note, when: [missing_resource, route_not_found, method_not_allowed] }
          broken: { status: 500, when: [internal, headers_too_large, unavailable, timeout] }
    `);
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = await startModel(c.model!);
    const context = await browser.newContext();
    try {
      const { page, errors } = await open(context, `${s.url}${SERVICE_PATHS.docs}`);
      const all = await errorExamples(page);
      const missing = all.find((e) => e.code === 'missing')!;
      expect(missing.label).toBe('404 missing application/vnd.notes.error+json');
      expect(missing.body).toEqual({ error_code: 404, status: 404, why: 'No such note' });
      const real = await s.call('GET', '/notes/01890a5d-ac96-774b-bcce-b302099a8057');
      expect(real.headers.get('content-type')).toContain('application/vnd.notes.error+json');
      expect({ ...real.body, why: 'No such note' }).toEqual(missing.body);
      expect(all.find((e) => e.code === 'broken')!.body).toEqual({ error_code: 500, status: 500, why: 'Internal Server Error' });
      expect(pageErrors(errors)).toEqual([]);
    } finally {
      await context.close();
      await s.close();
    }
  });
});
