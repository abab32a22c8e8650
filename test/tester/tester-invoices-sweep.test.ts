// An outside sweep, kept: an Invoices service written by hand (fixtures/invoices-server.mjs, node:http, in its own
// process) from its own OpenAPI 3.1 document (fixtures/invoices.openapi.yaml), imported as `servicespec import openapi`
// makes it, nothing edited;
// fixtures/invoices.refined.spec.yaml is the sweep's own edit of that import (a state machine, a reference). Before:
// - a page answered as { data, page, per_page, total } whose per_page says `minimum: 1` was imported as a custom
//   operation (a page size's floor read as a constraint the runtime could break), so a wrong total, pages off by one
//   and per_page ignored got through; and the import warned of a write-only field "dropped" from the page component;
// - a service answering members the document allows inside the objects of a list field (a line item's tax_cents)
//   failed "line_items kept as sent";
// - a client sending a read-only status (an invoice created `paid`) stored was let through: the tester sent 'x';
// - only the first list was asked for its maximum page size: a second list serving limit=101 got through;
// - a failure found by valid-requests was shrunk to another one, an empty PATCH the document refuses
//   (minProperties: 1, which the format cannot hold), hiding the fault.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { compileSpecFile } from '../../src/program.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';

const SERVER = fileURLToPath(new URL('./fixtures/invoices-server.mjs', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const CREDENTIALS = { main: { headers: { authorization: 'Bearer main-token' } } };

async function startInvoices(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`invoices-server exited (${code}): ${out}`)));
  });
  return { url, child };
}

async function imported(name: string) {
  const r = await importOpenApiFile(fixture(name));
  if (!r.compiled?.checked) throw new Error(`${name} does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
  return { model: r.compiled.checked, diagnostics: r.diagnostics };
}

function refined(): CheckedModel {
  const c = compileSpecFile(fixture('invoices.refined.spec.yaml'));
  if (!c.checked) throw new Error('invoices.refined.spec.yaml does not compile');
  return c.checked;
}

async function run(model: CheckedModel, env: Record<string, string>, seed: number, only?: string[]) {
  const { url, child } = await startInvoices(env);
  try {
    return await testService(model, { baseUrl: url, seed, credentials: CREDENTIALS.main, ...(only ? { only } : {}) });
  } finally {
    child.kill();
  }
}

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`);

describe('the Invoices service, by hand from an OpenAPI 3.1 document', () => {
  it('a page { data, page, per_page, total } with a page size floor of 1 is a list, and its component says nothing of its own', async () => {
    const { model, diagnostics } = await imported('invoices.openapi.yaml');
    const list = model.endpoints!.operations.find((o) => o.id === 'listCustomers')!;
    expect(list.action).toBe('list');
    expect(list.paging).toMatchObject({ style: 'page', body: 'array' });
    expect(list.envelope?.values.map((v) => `${v.source}:${v.path.join('.')}`).sort()).toEqual(['limit:per_page', 'page:page', 'total:total']);
    expect(model.resources.map((r) => r.name)).not.toContain('CustomerPage');
    expect(diagnostics.filter((d) => d.message.includes('CustomerPage'))).toEqual([]);
    // A request component read as a resource's request still says what it loses.
    expect(diagnostics.some((d) => d.message.startsWith('resource CustomerUpdate: minProperties'))).toBe(true);
  });

  it.each([
    ['customers-total-wrong', 'endpoints.list-paging'],
    ['customers-page-offbyone', 'endpoints.list-paging'],
    ['per-page-ignored', 'limits.page-size'],
    // A read-only enum sent as another of its values (not as 'x', which a service may refuse as no value of it).
    ['status-from-client', 'endpoints.invalid-requests'],
  ])(
    'the imported document: %s is caught by %s',
    async (fault, check) => {
      const { model } = await imported('invoices.openapi.yaml');
      const report = await run(model, { FAULT: fault, LAX_CUSTOMER: '1' }, 1);
      expect(failures(report).map((f) => f.split(' ')[0])).toContain(check);
    },
    120_000,
  );

  it.each([1, 2])(
    'the faithful server answering members the open document allows (EXTRA_ANSWER) passes on seed %i',
    async (seed) => {
      const { model } = await imported('invoices.openapi.yaml');
      const report = await run(model, { EXTRA_ANSWER: '1', LAX_CUSTOMER: '1' }, seed);
      expect(failures(report)).toEqual([]);
    },
    120_000,
  );

  it('the refined spec: status-from-client (a state field set by the client) is caught by endpoints.invalid-requests', async () => {
    const report = await run(refined(), { FAULT: 'status-from-client' }, 1);
    expect(failures(report).map((f) => f.split(' ')[0])).toContain('endpoints.invalid-requests');
  }, 120_000);

  it('the refined spec: limit-over-max (the second list taking a page size over the maximum) is caught by limits.page-size', async () => {
    const report = await run(refined(), { FAULT: 'limit-over-max' }, 1);
    expect(failures(report).filter((f) => f.startsWith('limits.page-size listInvoices max'))).toHaveLength(1);
  }, 120_000);

  it.each([
    ['created-at-changes', /created_at/],
    ['patch-customer-wipes-unsent', /left out of the update|kept/],
  ])(
    'the refined spec: %s is reported as itself, not shrunk to an empty PATCH the service refuses',
    async (fault, named) => {
      const report = await run(refined(), { FAULT: fault }, 2);
      const update = failures(report).filter((f) => f.startsWith('endpoints.valid-requests updateCustomer'));
      expect(update.length).toBe(1);
      expect(update[0]).toMatch(named);
      expect(update[0]).not.toContain('send at least one field');
    },
    120_000,
  );
});
