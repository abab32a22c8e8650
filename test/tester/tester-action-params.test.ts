// A built-in action's declared parameters (operation.query, operation.headers; Xero's `Xero-Tenant-Id`): the
// served action refuses a request without a required one (validation), so the tester sends each required one with a
// valid value drawn from its type, or the value given for it (--header), and the run passes against serve.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService, type Running } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Invoice:
    fields:
      id: { type: uuid }
      total: { type: integer, minimum: 0 }
      status: { type: state }
states:
  Invoice:
    field: status
    initial: draft
    states: { draft: {}, authorised: {}, paid: { terminal: true } }
    transitions:
      authorise: { from: draft, to: authorised }
      pay: { from: authorised, to: paid }
endpoints:
  operations:
    createInvoice:
      method: POST
      path: /invoices
      action: create
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
    readInvoice:
      method: GET
      path: /invoices/{id}
      action: read
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
      query: { unitdp: { type: integer, minimum: 2, maximum: 4 } }
    listInvoices:
      method: GET
      path: /invoices
      action: list
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
    updateInvoice:
      method: PATCH
      path: /invoices/{id}
      action: update
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
    authoriseInvoice: { method: POST, path: "/invoices/{id}/authorise", action: transition, resource: Invoice, transition: authorise }
    payInvoice:
      method: POST
      path: /invoices/{id}/pay
      action: transition
      resource: Invoice
      transition: pay
      headers: { Xero-Tenant-Id: { type: uuid } }
    deleteInvoice:
      method: DELETE
      path: /invoices/{id}
      action: delete
      resource: Invoice
      headers: { Xero-Tenant-Id: { type: uuid } }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    other: { status: 400, when: [malformed_request, method_not_allowed, headers_too_large, body_too_large, unsupported_media_type, internal] }
`;

let s: Running;
beforeAll(async () => {
  s = await startService(checkedModel(SPEC));
});
afterAll(() => s.close());

it('sends the required declared header and query parameter of each action, and the run passes', async () => {
  const report = await testService(checkedModel(SPEC), { baseUrl: s.url, seed: 1, runs: 3 });
  expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`)).toEqual([]);
  for (const op of ['createInvoice', 'readInvoice', 'listInvoices', 'updateInvoice', 'deleteInvoice'])
    expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === op)?.outcome, op).toBe('passed');
  // Each required one of a read, list, create, update or delete left out in turn is refused (validation), and each
  // query parameter given a value it cannot take (past its bounds, not a number) is too.
  expect(
    report.results
      .filter((r) => r.check === 'endpoints.invalid-requests' && /: (header|query parameter) /.test(r.target))
      .map((r) => [r.target, r.outcome])
      .sort(),
  ).toEqual([
    ['createInvoice: header Xero-Tenant-Id missing (required)', 'passed'],
    ['deleteInvoice: header Xero-Tenant-Id missing (required)', 'passed'],
    ['listInvoices: header Xero-Tenant-Id missing (required)', 'passed'],
    ['payInvoice: header Xero-Tenant-Id missing (required)', 'passed'],
    ['readInvoice: header Xero-Tenant-Id missing (required)', 'passed'],
    ['readInvoice: query parameter unitdp missing (required)', 'passed'],
    ['readInvoice: query parameter unitdp=1 (below its minimum 2)', 'passed'],
    ['readInvoice: query parameter unitdp=5 (above its maximum 4)', 'passed'],
    ['readInvoice: query parameter unitdp=not-a-number (no integer)', 'passed'],
    ['updateInvoice: header Xero-Tenant-Id missing (required)', 'passed'],
  ]);
}, 120_000);

it('sends the value given for a declared header (--header) in place of a drawn one', async () => {
  const run = (tenant: string) =>
    testService(checkedModel(SPEC), { baseUrl: s.url, seed: 2, only: ['endpoints.valid-requests'], credentials: { headers: { 'Xero-Tenant-Id': tenant } } });
  expect((await run('0190a7e4-5b0c-7000-8000-0000000000aa')).results.filter((r) => r.outcome === 'failed')).toEqual([]);
  // A value the header's type refuses, given, is sent: the service refuses it (validation), the create fails.
  const bad = await run('not-a-tenant');
  expect(bad.results.find((r) => r.target === 'createInvoice')?.outcome).toBe('failed');
}, 120_000);

it('a service that does not validate a declared header fails the check that leaves it out', async () => {
  // Served from the spec without its headers: a read or list without Xero-Tenant-Id is answered, not refused.
  const lax = await startService(checkedModel(SPEC.replace(/\n {6}headers: \{ Xero-Tenant-Id: \{ type: uuid \} \}/g, '')));
  try {
    const report = await testService(checkedModel(SPEC), { baseUrl: lax.url, seed: 1, only: ['endpoints.invalid-requests'] });
    expect(
      report.results
        .filter((r) => r.outcome === 'failed')
        .map((r) => r.target)
        .sort(),
    ).toEqual([
      'createInvoice: header Xero-Tenant-Id missing (required)',
      'deleteInvoice: header Xero-Tenant-Id missing (required)',
      'listInvoices: header Xero-Tenant-Id missing (required)',
      'payInvoice: header Xero-Tenant-Id missing (required)',
      'readInvoice: header Xero-Tenant-Id missing (required)',
      'updateInvoice: header Xero-Tenant-Id missing (required)',
    ]);
  } finally {
    await lax.close();
  }
}, 120_000);
