// Run-level behaviour: seeds replay, bounds stop a run honestly, only the base URL is contacted.

import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { formatReportText } from '../../src/tester/tester-report.js';
import { REAL_CLOCK } from '../../src/tester/tester-pacing.js';
import { testService } from '../../src/tester/tester-run.js';
import { startOrders, type OrdersServer } from './helpers.js';
import { startProxy, type Mutant, type ProxyResponse as ProxyAnswer } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startOrders();
});
afterAll(async () => {
  await s?.close();
});

const ISO = /^\/orders\/[^/?]+\/(pay|ship|cancel)$/;
const illegalAllowed: Mutant = {
  name: 'illegal transition allowed',
  caughtBy: 'states.sequences',
  only: [],
  async response(r, req, send) {
    if (r.status !== 409 || !ISO.test(req.path)) return r;
    const read = await send({ ...req, method: 'GET', path: req.path.replace(ISO, (m) => m.slice(0, m.lastIndexOf('/'))), body: Buffer.alloc(0) });
    return { ...read, status: 200 };
  },
};

it('the same --seed replays the same shrunk counterexample', async () => {
  const proxy = await startProxy(s.url, illegalAllowed);
  try {
    const once = async () => {
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1234, only: ['states.sequences'] });
      const f = r.results.find((x) => x.outcome === 'failed')!.failure!;
      return { expected: f.expected, then: /# then \(([^)]*)\)/.exec(f.curl ?? '')?.[1] };
    };
    const a = await once();
    expect(a.then).toBeDefined();
    expect(await once()).toEqual(a);
  } finally {
    await proxy.close();
  }
}, 60_000);

it('--max-requests stops the run: the checks not reached are skipped with the reason, the verdict is INCOMPLETE', async () => {
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, maxRequests: 25 });
  expect(r.requests).toBeLessThanOrEqual(25);
  expect(r.stoppedBy).toBe('max-requests');
  expect(r.ok).toBe(true);
  expect(r.results.some((x) => x.outcome === 'skipped' && x.reason === 'not run: the --max-requests bound was reached')).toBe(true);
  expect(formatReportText(r)).toMatch(/^INCOMPLETE: 0 failed, .* stopped early by --max-requests$/m);
}, 60_000);

it('--time-limit stops the run', async () => {
  // On the run's clock (TestOptions.clock), which here moves 50 ms at each reading: the 300 ms bound is reached after
  // a few steps however fast or loaded the machine is; the run's waits are the real ones.
  let t = 0;
  const clock = { now: () => (t += 50), sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
  const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, timeLimitMs: 300, clock });
  expect(r.stoppedBy).toBe('time-limit');
  expect(r.results.some((x) => x.outcome === 'skipped' && x.reason === 'not run: the --time-limit bound was reached')).toBe(true);
}, 30_000);

it('a redirect to another address is not followed: only the base URL is contacted', async () => {
  // Counted by a prefix only the redirect names: the port may have been another test's, whose clients (a webhook
  // worker retrying, say) can still knock on it (CI saw one such request).
  const prefix = `/elsewhere-${randomUUID()}`;
  let elsewhere = 0;
  const other: Server = createServer((req, res) => {
    if (req.url?.startsWith(prefix)) elsewhere++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(other.address() as AddressInfo).port}${prefix}`;
  const proxy = await startProxy(s.url, {
    name: 'redirect',
    caughtBy: '',
    only: [],
    request: (r) => ({ status: 307, headers: { location: `${target}${r.path}` }, body: Buffer.alloc(0) }),
  });
  try {
    const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['versioning', 'limits.page-size'] });
    expect(elsewhere).toBe(0);
    expect(r.ok).toBe(false);
  } finally {
    await proxy.close();
    await new Promise<void>((resolve) => other.close(() => resolve()));
  }
}, 30_000);

it('refuses to send a request that is not a path under the base URL', async () => {
  const { TestClient } = await import('../../src/tester/tester-http.js');
  const c = new TestClient({ baseUrl: s.url, maxRequests: 10, deadline: Date.now() + 10_000 });
  await expect(c.send({ method: 'GET', path: 'http://example.com/' })).rejects.toThrow(/only sends paths under the base URL/);
  await expect(c.send({ method: 'GET', path: '//example.com/' })).rejects.toThrow(/only sends paths under the base URL/);
});

it('nothing answering at the base URL: no check runs, the report says so in one line', async () => {
  const r = await testService(s.model, { baseUrl: 'http://127.0.0.1:9', ...s.options, seed: 1 });
  expect(r.unreachable).toBe('cannot reach http://127.0.0.1:9: connection refused');
  expect(r.results).toEqual([]);
  expect(r.requests).toBe(0);
  expect(r.verdict).toBe('incomplete');
  expect(formatReportText(r)).toBe('cannot reach http://127.0.0.1:9: connection refused\n');
});

/** A TCP server on loopback that answers each connection's first bytes with `reply` (or closes it, given null). */
async function startRaw(reply: string | null): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createNetServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => (reply === null ? socket.destroy() : socket.end(reply)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('a port that accepts connections but does not speak HTTP: no check runs, the report says so in one line', () => {
  it.each([
    ['answers bytes that are not HTTP (an SSH banner)', 'SSH-2.0-OpenSSH_9.2\r\n', 'it answered bytes that are not HTTP (HPE_INVALID_CONSTANT)'],
    ['closes the connection without an answer (a database)', null, 'it closed the connection without an answer (UND_ERR_SOCKET)'],
  ])('%s', async (_name, reply, how) => {
    const raw = await startRaw(reply);
    try {
      const r = await testService(s.model, { baseUrl: raw.url, ...s.options, seed: 1 });
      // Node 24's undici names the parse error HTTPParserError, without Node 20's HPE_ code.
      expect(r.unreachable?.replace('(HTTPParserError)', '(HPE_INVALID_CONSTANT)')).toBe(
        `${raw.url} accepts connections but gives no HTTP answer: ${how}. Is it the service's address (not a database's port), or does it take https://?`,
      );
      expect(r.results).toEqual([]);
      // The first request and one GET of the base URL to tell the port from a service failing one request.
      expect(r.requests).toBe(2);
      expect(r.verdict).toBe('incomplete');
      expect(formatReportText(r)).toBe(`${r.unreachable}\n`);
    } finally {
      await raw.close();
    }
  });

  it('a service that cuts only some requests off but answers a GET of its base URL is tested, and fails there', async () => {
    // The orders service behind a proxy that drops the connection of every create: a fault of the service, not of the address.
    const server = createServer((req, res) => {
      if (req.method === 'POST') return req.socket.destroy();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(`${s.url}${req.url}`, { method: req.method, headers: req.headers as Record<string, string> }).then(async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const r = await testService(s.model, {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        ...s.options,
        seed: 1,
        only: ['endpoints.valid-requests'],
      });
      expect(r.unreachable).toBeUndefined();
      const failed = r.results.filter((x) => x.outcome === 'failed');
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.map((x) => x.failure?.actual).join('\n')).toContain('UND_ERR_SOCKET');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

it("every list and create answered 404 (a base URL without the paths' prefix): a warning says so", async () => {
  const server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const r = await testService(s.model, { baseUrl: url, ...s.options, seed: 1, only: ['endpoints'] });
    const [first] = r.warnings;
    expect(first).toMatch(
      /^all \d+ requests to list or create operations \(such as POST http:\/\/127\.0\.0\.1:\d+\/customers\) were answered 404: is the base URL right\?/,
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  // The service itself, at the right address: no such warning.
  const ok = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints'] });
  expect(ok.warnings.filter((w) => w.includes('answered 404'))).toEqual([]);
});

it('a service throttling the requests made before any check (the parent of a nested list): the run stops and says so, no internal error', async () => {
  // tasks.openapi.yaml lists tasks under a project: a project is made first, outside every check. Answered 429 with
  // a Retry-After past the run's time limit, the tester threw "rate limited: Retry-After 60 s" out of testService.
  const imported = await importOpenApiFile(fileURLToPath(new URL('./fixtures/tasks.openapi.yaml', import.meta.url)));
  const model = imported.compiled!.checked!;
  const server = createServer((_req, res) => res.writeHead(429, { 'retry-after': '60', 'content-type': 'application/json' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const r = await testService(model, {
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seed: 1,
      timeLimitMs: 5_000,
      credentials: { headers: { authorization: 'Bearer t' } },
    });
    expect(r.warnings).toContain("stopped: the service's declared rate limit asks to wait 60 s (Retry-After)");
    expect(r.verdict).not.toBe('passed');
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}, 60_000);

it('the verdict: failed over incomplete over passed; a not-applicable skip leaves a run complete', async () => {
  const { getVerdict } = await import('../../src/tester/tester-run.js');
  const { isNotApplicable } = await import('../../src/tester/tester-context.js');
  const passed = { part: 'states', check: 'states.pairs', target: 'x', outcome: 'passed', requests: 1 } as const;
  const notShown = {
    part: 'limits',
    check: 'limits.body-size',
    target: 'y',
    outcome: 'skipped',
    reason: 'the spec does not show a body size limit (not shown)',
    requests: 0,
  } as const;
  const notRun = {
    part: 'authentication',
    check: 'authentication.ownership',
    target: 'z',
    outcome: 'skipped',
    reason: 'no second subject',
    notRun: true,
    requests: 0,
  } as const;
  const failed = {
    part: 'states',
    check: 'states.pairs',
    target: 'w',
    outcome: 'failed',
    failure: { operation: 'o', expected: 'e', actual: 'a' },
    requests: 1,
  } as const;
  expect(getVerdict({ results: [passed, notShown] })).toBe('passed');
  expect(getVerdict({ results: [passed, notShown, notRun] })).toBe('incomplete');
  expect(getVerdict({ results: [passed], stoppedBy: 'time-limit' })).toBe('incomplete');
  expect(getVerdict({ results: [notShown] })).toBe('incomplete');
  expect(getVerdict({ results: [passed, notRun, failed] })).toBe('failed');
  for (const reason of [
    'no credential for this operation',
    'no second subject (give one with --other-header)',
    'not run: the --max-requests bound was reached',
    "not finished: the service's declared rate limit asks to wait 60 s (Retry-After)",
    'cannot create a Jar',
    'the credential given lacks a scope this operation requires (orders:read): give one that has them',
  ]) {
    expect(isNotApplicable(reason), reason).toBe(false);
  }
  for (const reason of [
    'the spec does not show a maximum page size (not shown)',
    'no error code declared for idempotency_conflict (not shown)',
    'the spec declares no event kinds',
    'not asked for: --rate-limits spends the declared budget',
    'the limited credential holds every scope getOrder requires (orders:read)',
  ]) {
    expect(isNotApplicable(reason), reason).toBe(true);
  }
});

describe('a service that never answers', () => {
  // The proxy holds every read by identifier open (no status line, ever); everything else passes through.
  const hangReads = {
    name: 'never answers a read',
    caughtBy: '',
    only: [],
    response: (r: ProxyAnswer, req: { method: string; path: string }) =>
      req.method === 'GET' && /^\/orders\/[^/?]+$/.test(req.path) ? new Promise<ProxyAnswer>(() => undefined) : r,
  };

  it('fails the check sending that request once --request-timeout passes, and the run goes on', async () => {
    const proxy = await startProxy(s.url, hangReads);
    try {
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['getOrder', 'listOrders'], requestTimeoutMs: 300 });
      const read = r.results.find((x) => x.check === 'endpoints.valid-requests' && x.target === 'getOrder');
      expect(read?.outcome).toBe('failed');
      expect(read?.failure?.actual).toBe('the request failed: no answer within 0.3 s (--request-timeout)');
      // The checks after it ran: the list was read.
      expect(r.results.some((x) => x.target === 'listOrders' && x.outcome === 'passed')).toBe(true);
      expect(r.stoppedBy).toBeUndefined();
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('fails a property check whose request is never answered (a generated create), without shrinking on it', async () => {
    const proxy = await startProxy(s.url, {
      response: (r: ProxyAnswer, req: { method: string; path: string }) =>
        req.method === 'POST' && req.path === '/orders' ? new Promise<ProxyAnswer>(() => undefined) : r,
    });
    try {
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['endpoints.valid-requests'], requestTimeoutMs: 300 });
      const create = r.results.find((x) => x.check === 'endpoints.valid-requests' && x.target === 'createOrder');
      expect(create?.outcome).toBe('failed');
      expect(create?.failure?.actual).toBe('the request failed: no answer within 0.3 s (--request-timeout)');
      // One request of it, not one per generated case and shrink.
      expect(create?.requests).toBe(1);
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('an event stream whose headers never come: the same time-out', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { TestClient } = await import('../../src/tester/tester-http.js');
      const c = new TestClient({
        baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        maxRequests: 10,
        deadline: Date.now() + 60_000,
        requestTimeoutMs: 200,
      });
      await expect(c.openStream('/events', {})).rejects.toThrow('no answer within 0.2 s (--request-timeout)');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);

  it('stops the run at --time-limit even while a request waits for its answer', async () => {
    const proxy = await startProxy(s.url, hangReads);
    try {
      // The request time-out (10 s by default) is longer than what is left of the run: the run's bound cuts it.
      // On the real clock: the run's deadline caps a request's wait only there (the helpers' clock skips long waits).
      const r = await testService(s.model, { baseUrl: proxy.url, ...s.options, clock: REAL_CLOCK, seed: 1, only: ['getOrder'], timeLimitMs: 3000 });
      expect(r.stoppedBy).toBe('time-limit');
      // The check whose request was waiting is cut short, not failed; those after it are not run.
      expect(r.results.some((x) => x.target === 'getOrder' && x.reason === 'not finished: the --time-limit bound was reached')).toBe(true);
      expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual])).toEqual([]);
    } finally {
      await proxy.close();
    }
  }, 30_000);
});
