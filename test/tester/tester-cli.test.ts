// `servicespec test` as users run it: a child process against the real runtime (and a broken proxy in front
// of it), with credentials given as flags.

import { readFileSync } from 'node:fs';
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
    const r = await runCli(['test', ORDERS, '--base-url', s.url, ...s.flags, '--only', 'states,authentication.missing-scope,limits.page-size', '--seed', '3', '--runs', '3', '--no-progress']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^states\s+1\s+0\s+0$/m);
    expect(r.stdout).toMatch(/^authentication\s+\d+\s+0\s+\d+$/m);
    expect(r.stdout).toMatch(/PASSED: 0 failed, \d+ passed, \d+ skipped; \d+ requests in [\d.]+ s \(\d+\/s\); seed 3/);
  }, 60_000);

  it('fails (exit 1) with the operation, the expectation quoting the spec line, what came back and a curl line; credentials redacted', async () => {
    const before = seen;
    const r = await runCli(['test', ORDERS, '--base-url', broken.url, ...s.flags, '--only', 'limits.rate-headers', '--seed', '3', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL 1\) \[limits\] limits\.rate-headers — getCustomer$/m);
    expect(r.stdout).toMatch(/^ {2}operation: getCustomer$/m);
    expect(r.stdout).toMatch(new RegExp(String.raw`^ {2}expected: {2}RateLimit-Policy and RateLimit headers naming the declared policies {2}\(.*orders\.yaml:${RATE_LINE}: rate:\)$`, 'm'));
    expect(r.stdout).toMatch(/^ {2}actual: {4}no RateLimit header; 200/m);
    // The tester names the current version on every request (docs/testing.md), so the reproduction does too.
    expect(r.stdout).toMatch(/^ {2}reproduce: curl -i -X GET -H 'X-API-Key: <main credential>' -H 'Service-Version: 2026-11-01' 'http:\/\/127\.0\.0\.1:\d+\/customers\/[0-9a-f-]+'$/m);
    expect(r.stdout).not.toContain(s.keys.alice);
    expect(r.stdout).toMatch(/^FAILED: \d+ failed/m);
    // Every request went to the base URL given (through the proxy), none elsewhere.
    const report = await runCli(['test', ORDERS, '--base-url', broken.url, ...s.flags, '--only', 'limits.rate-headers', '--seed', '3', '--no-progress', '--format', 'json']);
    const parsed = JSON.parse(report.stdout) as { requests: number; parts: unknown[]; ok: boolean };
    expect(parsed.ok).toBe(false);
    expect(parsed.parts).toHaveLength(9);
    expect(seen - before).toBe(parsed.requests * 2);
  }, 60_000);

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

  it('reports what it is not given as skipped, with the reason', async () => {
    const r = await runCli(['test', ORDERS, '--base-url', s.url, '--header', `X-API-Key: ${s.keys.alice}`, '--only', 'authentication.ownership,authentication.missing-scope', '--no-progress', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^skip \[authentication\] authentication\.ownership — getOrder: no second subject \(give one with --other-header/m);
    expect(r.stdout).toMatch(/^skip \[authentication\] authentication\.missing-scope — createOrder: no credential lacking orders:write/m);
    expect(r.stdout).toMatch(/^NOTHING CHECKED: 0 failed, 0 passed, \d+ skipped/m);
  }, 60_000);

  it.each([
    [['--base-url', 'not a url'], /--base-url "not a url" is not a URL/],
    [['--base-url', 'ftp://127.0.0.1/'], /only http and https are tested/],
    [['--base-url', 'http://127.0.0.1:1', '--header', 'no colon'], /--header "no colon": write it as 'Name: value'/],
    [['--base-url', 'http://127.0.0.1:1', '--client-id', 'x'], /--client-id and --client-secret go together/],
    [['--base-url', 'http://127.0.0.1:1', '--other-basic', 'nocolon'], /--other-basic: write it as user:password/],
    [['--base-url', 'http://127.0.0.1:1', '--max-requests', '0'], /--max-requests "0": a positive whole number is needed/],
    [['--base-url', 'http://127.0.0.1:1', '--time-limit', 'soon'], /--time-limit "soon": a duration is needed/],
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

  it('an unreachable service: each check fails with the reason, exit 1, no stack', async () => {
    const r = await runCli(['test', ORDERS, '--base-url', 'http://127.0.0.1:9', ...s.flags, '--only', 'versioning.unsupported', '--no-progress']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/actual: {4}the request failed: fetch failed/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });
});
