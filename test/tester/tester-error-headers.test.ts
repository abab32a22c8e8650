// errors.answer-headers (docs/testing.md): the tester holds every error answer to the declared headers of error
// answers, the built-in ones too — a path no route takes, another method — and those the runtime writes raw (a
// header section over limits.header_size). Against the runtime every one passes; a service that leaves the header
// off its no-route and wrong-method answers, or off its 431, is caught.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService, type TestReport } from '../../src/tester/tester-api.js';
import { startSpec, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

const SPEC = `servicespec: 1
resources:
  Note:
    plural: notes
    fields: { id: { type: uuid, readOnly: true }, text: { type: string, maxLength: 20 } }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
errors:
  headers:
    Cache-Control: { type: string, values: [no-store], default: no-store }
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found], headers: { X-Error-Kind: { type: string, values: [missing], default: missing } } }
    method: { status: 405, when: [method_not_allowed] }
    invalid: { status: 422, when: [validation] }
    malformed: { status: 400, when: [malformed_request] }
    unsupported: { status: 415, when: [unsupported_media_type] }
    headers_too_large: { status: 431, when: [headers_too_large] }
limits:
  header_size: 4KiB
`;

const ONLY = ['endpoints.method-not-allowed', 'endpoints.unknown-path', 'endpoints.invalid-requests', 'limits.header-size', 'errors.answer-headers'];

let dir: string;
let s: OrdersServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-tester-error-headers-'));
  writeFileSync(join(dir, 'notes.yaml'), SPEC);
  s = await startSpec(join(dir, 'notes.yaml'));
}, 60_000);
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (baseUrl: string): Promise<TestReport> => testService(s.model, { baseUrl, ...s.options, seed: 1, only: ONLY });
const answerHeaders = (r: TestReport) => r.results.filter((x) => x.check === 'errors.answer-headers');

it('against the runtime: the built-in answers, the raw 431 and the operations’ error answers are judged and pass', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
  const passed = answerHeaders(r)
    .filter((x) => x.outcome === 'passed')
    .map((x) => x.target);
  // No route and another method (the built-in answers), the 431 (on listNotes' path), malformed JSON and text/plain.
  expect(passed).toEqual(expect.arrayContaining(['a request no route matches', 'listNotes', 'createNote']));
}, 60_000);

const strip = (headers: Record<string, string>, name: string) => Object.fromEntries(Object.entries(headers).filter(([k]) => k !== name));

it('a service that leaves Cache-Control off its no-route and wrong-method answers is caught', async () => {
  const proxy = await startProxy(s.url, { response: (r) => (r.status === 404 || r.status === 405 ? { ...r, headers: strip(r.headers, 'cache-control') } : r) });
  try {
    const failed = answerHeaders(await run(proxy.url)).filter((x) => x.outcome === 'failed');
    // One verdict per target: the first answer found without it (a 405 or a 404), named by the code its body names.
    expect(failed.map((x) => [x.target, x.failure?.actual.split(';')[0]])).toContainEqual([
      'a request no route matches',
      expect.stringMatching(/^no Cache-Control header \(declared required on (method|not_found)\)$/),
    ]);
  } finally {
    await proxy.close();
  }
}, 60_000);

it('a service that leaves the headers off its 431 is caught', async () => {
  const proxy = await startProxy(s.url, { response: (r) => (r.status === 431 ? { ...r, headers: strip(r.headers, 'cache-control') } : r) });
  try {
    const failed = answerHeaders(await run(proxy.url)).filter((x) => x.outcome === 'failed');
    expect(failed.map((x) => [x.target, x.failure?.actual.split(';')[0]])).toEqual([
      ['listNotes', 'no Cache-Control header (declared required on headers_too_large)'],
    ]);
  } finally {
    await proxy.close();
  }
}, 60_000);
