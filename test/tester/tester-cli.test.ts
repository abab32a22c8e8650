// `servicespec test` as users run it: a child process against the real runtime (and a broken proxy in front
// of it), with credentials given as flags.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, STACK_LINE } from '../cli/cli-helpers.js';
import { ORDERS, startOrders, type OrdersServer } from './helpers.js';
import { startProxy, type RunningProxy } from './mutant-proxy.js';

/** The line of orders.yaml's `limits.rate`, which the report quotes. */
const RATE_LINE = readFileSync(ORDERS, 'utf8').split('\n').indexOf('  rate:') + 1;

let s: OrdersServer;
let broken: RunningProxy;
let seen = 0;
beforeAll(async () => {
  s = await startOrders();
  broken = await startProxy(s.url, {
    name: 'no RateLimit header',
    caughtBy: 'limits.rate-headers',
    only: [],
    response(r) {
      seen++;
      const headers = { ...r.headers };
      delete headers.ratelimit;
      return { ...r, headers };
    },
  });
});
afterAll(async () => {
  await broken?.close();
  await s?.close();
});

describe('servicespec test', () => {
  it('passes (exit 0) against the runtime, with a summary per part', async () => {
    const r = await runCli([
      'test',
      ORDERS,
      '--base-url',
      s.url,
      ...s.flags,
      '--only',
      'states,authentication.missing-scope,limits.page-size',
      '--seed',
      '3',
      '--runs',
      '3',
      '--no-progress',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^states\s+5\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^state pairs tried 12\/12 \(100 %\)$/m);
    expect(r.stdout).toMatch(/^authentication\s+\d+\s+0\s+\d+$/m);
    expect(r.stdout).toMatch(/PASSED: 0 failed, \d+ passed, \d+ skipped; \d+ requests in [\d.]+ s \(\d+\/s\); seed 3/);
  }, 60_000);

  it('fails (exit 1) with the operation, the expectation quoting the spec line, what came back and a curl line; credentials redacted', async () => {
    const before = seen;
    const r = await runCli(['test', ORDERS, '--base-url', broken.url, ...s.flags, '--only', 'limits.rate-headers', '--seed', '3', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL 1\) \[limits\] limits\.rate-headers — getCustomer$/m);
    expect(r.stdout).toMatch(/^ {2}operation: getCustomer$/m);
    expect(r.stdout).toMatch(
      new RegExp(
        String.raw`^ {2}expected: {2}RateLimit-Policy and RateLimit headers naming the declared policies {2}\(.*orders\.yaml:${RATE_LINE}: rate:\)$`,
        'm',
      ),
    );
    expect(r.stdout).toMatch(/^ {2}actual: {4}no RateLimit header; 200/m);
    // The tester names the current version on every request (docs/testing.md), so the reproduction does too.
    expect(r.stdout).toMatch(
      /^ {2}reproduce: curl -i -X GET -H 'X-API-Key: <main credential>' -H 'Service-Version: 2026-11-01' 'http:\/\/127\.0\.0\.1:\d+\/customers\/[0-9a-f-]+'$/m,
    );
    expect(r.stdout).not.toContain(s.keys.alice);
    expect(r.stdout).toMatch(/^FAILED: \d+ failed/m);
    // Every request went to the base URL given (through the proxy), none elsewhere.
    const report = await runCli([
      'test',
      ORDERS,
      '--base-url',
      broken.url,
      ...s.flags,
      '--only',
      'limits.rate-headers',
      '--seed',
      '3',
      '--no-progress',
      '--format',
      'json',
    ]);
    const parsed = JSON.parse(report.stdout) as { requests: number; parts: unknown[]; ok: boolean };
    expect(parsed.ok).toBe(false);
    expect(parsed.parts).toHaveLength(9);
    expect(seen - before).toBe(parsed.requests * 2);
  }, 60_000);

  it('--replay REPORT.json re-runs the failed checks of a JSON report on their targets, with its seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'servicespec-replay-'));
    try {
      const first = await runCli([
        'test',
        ORDERS,
        '--base-url',
        broken.url,
        ...s.flags,
        '--only',
        'limits,versioning.unsupported',
        '--seed',
        '11',
        '--no-progress',
        '--format',
        'json',
      ]);
      expect(first.code).toBe(1);
      const file = join(dir, 'report.json');
      writeFileSync(file, first.stdout);
      const before = JSON.parse(first.stdout) as { results: { check: string; target: string; outcome: string }[] };
      const failed = before.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target]);
      expect(failed.length).toBeGreaterThan(0);
      const again = await runCli(['test', ORDERS, '--base-url', broken.url, ...s.flags, '--replay', file, '--no-progress', '--format', 'json']);
      expect(again.code).toBe(1);
      const after = JSON.parse(again.stdout) as { seed: number; results: { check: string; target: string; outcome: string }[] };
      expect(after.seed).toBe(11);
      // The same failed checks and targets (the judge's verdicts come in the order their answers were seen).
      const byName = (x: string[], y: string[]) => (x.join(' ') < y.join(' ') ? -1 : 1);
      expect(after.results.map((r) => [r.check, r.target]).sort(byName)).toEqual([...failed].sort(byName));
      expect(after.results.every((r) => r.outcome === 'failed')).toBe(true);
      // Against the service without the fault, the same replay passes.
      const fixed = await runCli(['test', ORDERS, '--base-url', s.url, ...s.flags, '--replay', file, '--no-progress']);
      expect(fixed.code).toBe(0);
      expect(fixed.stdout).toMatch(/^PASSED: 0 failed, \d+ passed, 0 skipped; .*seed 11$/m);
      writeFileSync(join(dir, 'clean.json'), JSON.stringify({ ...after, results: [] }));
      for (const [name, message] of [
        ['missing.json', /--replay .*missing\.json: no such file/],
        ['clean.json', /--replay .*clean\.json: the report has no failures to replay/],
      ] as const) {
        const r = await runCli(['test', ORDERS, '--base-url', s.url, '--replay', join(dir, name), '--no-progress']);
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('--format junit writes one testsuite per part with the failures', async () => {
    const r = await runCli(['test', ORDERS, '--base-url', broken.url, ...s.flags, '--only', 'limits.rate-headers', '--no-progress', '--format', 'junit']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="servicespec test" tests="\d+" failures="[1-9]\d*"/);
    expect(r.stdout.match(/<testsuite /g)).toHaveLength(9);
    expect(r.stdout).toContain('<testcase classname="limits.rate-headers" name="getCustomer">');
    expect(r.stdout).toContain('<failure message="expected RateLimit-Policy and RateLimit headers naming the declared policies">');
  }, 60_000);

  it('prints a progress line on stderr unless --no-progress', async () => {
    const r = await runCli(['test', ORDERS, '--base-url', s.url, ...s.flags, '--only', 'versioning', '--seed', '3']);
    expect(r.stderr).toMatch(/^servicespec test: \d+ requests, \d+ passed, \d+ failed, \d+ skipped — /m);
  }, 60_000);

  it('what it is not given makes the run INCOMPLETE (exit 3), naming each check not run and why', async () => {
    const args = [
      'test',
      ORDERS,
      '--base-url',
      s.url,
      '--header',
      `X-API-Key: ${s.keys.alice}`,
      '--only',
      'authentication.ownership,authentication.missing-scope',
      '--no-progress',
    ];
    const r = await runCli([...args, '--verbose']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^not checked \[authentication\] authentication\.ownership — getOrder: no second subject \(give one with --other-header/m);
    expect(r.stdout).toMatch(/^not checked \[authentication\] authentication\.missing-scope — createOrder: no credential lacking orders:write/m);
    expect(r.stdout).toMatch(/^INCOMPLETE: 0 failed, 0 passed, \d+ skipped; \d+ not checked;/m);
    const plain = await runCli(args);
    expect(plain.stdout).toMatch(/^not checked \(\d+\):$/m);
    expect(plain.stdout).toMatch(/^ {2}- authentication\.ownership: no second subject .* \(getOrder, listOrders, updateOrder, replaceOrder and \d+ more\)$/m);
    // --allow-incomplete: the same verdict, exit 0.
    const allowed = await runCli([...args, '--allow-incomplete']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^INCOMPLETE: /m);
  }, 60_000);

  it('a spec that needs credentials, tested without any: INCOMPLETE (exit 3), with a warning that most requests got 401', async () => {
    const r = await runCli(['test', ORDERS, '--base-url', s.url, '--only', 'endpoints.valid-requests,states', '--runs', '2', '--no-progress']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^INCOMPLETE: 0 failed, /m);
    expect(r.stdout).toMatch(
      /^ {2}- endpoints\.valid-requests: no credential for scheme key or bearer .* \(createCustomer, getCustomer, listCustomers, createOrder and \d+ more\)$/m,
    );
    expect(r.stdout).toMatch(/^ {2}- states\.pairs: cannot reach paid: no credential for payOrder \(Order in paid\)$/m);
    expect(r.stdout).toMatch(/^warning: no credential given, and 12 of 13 operations require one: their checks were not run/m);
    expect(r.stdout).toMatch(/^state pairs tried 0\/12 \(0 %\)$/m);
    // A credential the service does not take: most answers are 401, and the report says so.
    const wrong = await runCli([
      'test',
      ORDERS,
      '--base-url',
      s.url,
      '--header',
      'X-API-Key: not-a-key',
      '--only',
      'states,endpoints.list-paging',
      '--runs',
      '2',
      '--no-progress',
    ]);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(
      /^warning: \d+ of \d+ requests sent with the main credential were refused with 401: give the credentials the spec's operations need/m,
    );
  }, 60_000);

  it.each([
    ['--only', 'state'],
    ['--only', 'createParcel'],
    ['--skip', 'states,nonsense'],
  ])('%s %s: a name matching no part, check or operation is a usage error (exit 2) listing the names', async (flag, value) => {
    const r = await runCli(['test', ORDERS, '--base-url', s.url, flag, value, '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^servicespec test: ${flag} ".*" matches no part, check or operation of .*orders\\.yaml$`, 'm'));
    expect(r.stderr).toMatch(/^ {2}parts: purpose, resources, states, endpoints, authentication, events, errors, limits, versioning$/m);
    expect(r.stderr).toMatch(/^ {2}checks: .*states\.pairs, states\.sequences/m);
    expect(r.stderr).toMatch(/^ {2}operations: createCustomer, getCustomer/m);
  });

  it('--only an operation runs the checks on that operation; --skip leaves checks out', async () => {
    const r = await runCli([
      'test',
      ORDERS,
      '--base-url',
      s.url,
      ...s.flags,
      '--only',
      'getOrder',
      '--skip',
      'endpoints,errors,limits,versioning,authentication.ownership',
      '--format',
      'json',
      '--no-progress',
    ]);
    const report = JSON.parse(r.stdout) as { results: { check: string; target: string; outcome: string }[] };
    expect(report.results.length).toBeGreaterThan(0);
    for (const x of report.results) expect(x.target.split(/[\s(),]+/)).toContain('getOrder');
    expect(new Set(report.results.map((x) => x.check))).toEqual(
      new Set(
        ['authentication.no-credential', 'authentication.bad-credential', 'authentication.missing-scope', 'resources.response-shape'].filter((c) =>
          report.results.some((x) => x.check === c),
        ),
      ),
    );
    expect(report.results.some((x) => x.check.startsWith('endpoints.'))).toBe(false);
  }, 60_000);

  it.each([
    [['--base-url', 'not a url'], /--base-url "not a url" is not a URL/],
    [['--base-url', 'ftp://127.0.0.1/'], /only http and https are tested/],
    [['--base-url', '127.0.0.1:3000'], /--base-url "127\.0\.0\.1:3000" is not a URL; give http:\/\/127\.0\.0\.1:3000 /],
    [['--base-url', 'localhost:3000/v1'], /names no scheme; give http:\/\/localhost:3000\/v1/],
    [['--base-url', 'http://127.0.0.1:3000/v1/?x=1#frag'], /a base URL has no query or fragment; give http:\/\/127\.0\.0\.1:3000\/v1 /],
    [['--base-url', 'http://127.0.0.1:1', '--header', 'no colon'], /--header "no colon": write it as 'Name: value'/],
    [['--base-url', 'http://127.0.0.1:1', '--client-id', 'x'], /--client-id and --client-secret go together/],
    [['--base-url', 'http://127.0.0.1:1', '--other-basic', 'nocolon'], /--other-basic: write it as user:password/],
    [['--base-url', 'http://127.0.0.1:1', '--max-requests', '0'], /--max-requests "0": a positive whole number is needed/],
    [['--base-url', 'http://127.0.0.1:1', '--seed', '-1'], /--seed "-1": a whole number, 0 or more, is needed/],
    [['--base-url', 'http://127.0.0.1:1', '--webhook-listen', 'any'], /--webhook-listen "any": a whole number, 0 or more, is needed/],
    [
      ['--base-url', 'http://127.0.0.1:1', '--header', 'X-Api-Kee: k'],
      /--header "X-Api-Kee" is no header a credential of .*orders\.yaml travels in \(X-API-Key, Authorization\) nor a header parameter of its operations: it would not be sent/,
    ],
    [['--base-url', 'http://127.0.0.1:1', '--other-header', 'X-Tenant: a'], /--other-header "X-Tenant" is no header a credential/],
    [['--base-url', 'http://127.0.0.1:1', '--time-limit', 'soon'], /--time-limit "soon": a duration is needed/],
    [['--base-url', 'http://127.0.0.1:1', '--request-timeout', '0s'], /--request-timeout "0s": a duration is needed, e.g. 10s or 500ms/],
    [['--base-url', 'http://127.0.0.1:1', '--format', 'xml'], /argument 'xml' is invalid/],
    [[], /required option '--base-url <url>' not specified/],
  ])('usage error %j: exit 2, one line, no stack', async (args, message) => {
    const r = await runCli(['test', ORDERS, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK_LINE);
    expect(r.stdout).toBe('');
  });

  it('a spec with errors: exit 1 with the diagnostics, nothing sent', async () => {
    const r = await runCli(['test', '-', '--base-url', 'http://127.0.0.1:1'], { input: 'servicespec: 1\nresources: 7\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error/);
  });

  it('nothing answering at --base-url: one line, exit 2, before any check', async () => {
    const r = await runCli(['test', ORDERS, '--base-url', 'http://127.0.0.1:9', ...s.flags, '--no-progress']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('servicespec test: cannot reach http://127.0.0.1:9: connection refused\n');
  });
});
