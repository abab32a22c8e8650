// A document's own key as a plain header parameter, outside its security schemes (listennotes' `X-ListenAPI-Key`,
// discourse's `Api-Username`): the user gives it as any credential, `--header 'X-ListenAPI-Key: …'`, and the tester
// sends it to the operations declaring the header. Before, the CLI refused the flag (no credential travels in it) and
// every check of such an operation was skipped: "the tester does not generate request headers".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { runCli } from '../cli/cli-helpers.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
purpose:
  name: Podcasts
endpoints:
  operations:
    searchPodcasts:
      method: GET
      path: /search
      action: custom
      handler: searchPodcasts
      request: none
      query:
        q: { type: string, minLength: 1, maxLength: 20 }
      headers:
        X-ListenAPI-Key: { type: string, minLength: 1 }
      response: { fields: { results: { type: array, items: { type: string } } } }
      errors: [unauthorized, invalid]
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation] }
    unauthorized: { status: 401, when: [missing_credential, invalid_credential] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    method: { status: 405, when: [method_not_allowed] }
`;

let server: Server;
let url: string;
let dir: string;
/** The key each request to /search carried. */
const seen: (string | undefined)[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'servicespec-header-params-'));
  writeFileSync(join(dir, 'podcasts.yaml'), SPEC);
  server = createServer((req, res) => {
    const problem = (status: number, code: string) => {
      res.writeHead(status, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: code, status, code }));
    };
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    req.resume();
    req.on('end', () => {
      if (u.pathname !== '/search') return problem(404, 'not_found');
      if (req.method !== 'GET') {
        res.setHeader('allow', 'GET');
        return problem(405, 'method');
      }
      const key = req.headers['x-listenapi-key'];
      seen.push(typeof key === 'string' ? key : undefined);
      if (key !== 'lk-main') return problem(401, 'unauthorized');
      const q = u.searchParams.get('q');
      if (q === null || q.length < 1 || q.length > 20) return problem(422, 'invalid');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [] }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  rmSync(dir, { recursive: true, force: true });
});

it('sends the key given for a declared header parameter, so the operation is checked', async () => {
  seen.length = 0;
  const report = await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, credentials: { headers: { 'X-ListenAPI-Key': 'lk-main' } } });
  expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
  expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'searchPodcasts')?.outcome).toBe('passed');
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((k) => k !== 'lk-main')).toEqual([]);
}, 60_000);

it('without it the operation is not run, and says which header it needs', async () => {
  const report = await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.valid-requests'] });
  expect(report.results.find((r) => r.target === 'searchPodcasts')?.reason).toBe(
    'the tester does not generate request headers; searchPodcasts requires X-ListenAPI-Key',
  );
}, 60_000);

it('servicespec test takes --header for it (it named no credential before: a usage error)', async () => {
  const r = await runCli(['test', join(dir, 'podcasts.yaml'), '--base-url', url, '--header', 'x-listenapi-key: lk-main', '--only', 'endpoints.valid-requests']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/PASSED: 0 failed, 1 passed, 0 skipped/);
  const bad = await runCli(['test', join(dir, 'podcasts.yaml'), '--base-url', url, '--header', 'X-Listen-Key: lk-main']);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toMatch(
    /--header "X-Listen-Key" is no header a credential of .*podcasts\.yaml travels in \(its authentication declares none\) nor a header parameter of its operations \(X-ListenAPI-Key\): it would not be sent/,
  );
}, 60_000);
