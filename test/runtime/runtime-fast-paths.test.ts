// ci: postgres
// SERVICESPEC_FAST_PATHS=off is the reference every fast path must agree with (docs/architecture.md, "Fast paths"):
// the same spec served twice in this process, once with the fast paths (the route table, stored-text answers,
// synchronous reads and writes, generated presenters and row codecs) and once without, gets the same requests, in
// the same order; every answer must be byte-identical once ids, times and cursors (signed with each database's own
// secret) are set aside. On SQLite by default, on PostgreSQL with SERVICESPEC_TEST_DB=postgres.
import { request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRoutes } from '../../src/model/model-routes.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { loadModel, startService, TICKETS, type Running } from './helpers.js';

const VERSIONED_ACTIONS = fileURLToPath(new URL('./fixtures/versioned-actions.yaml', import.meta.url));
const KEYED = fileURLToPath(new URL('./fixtures/fast-paths.yaml', import.meta.url));
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** One request of a script: `{Name}` in the path or body is the id the create captured as Name, on that server. */
interface Step {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Remember the created object's id under this name (and its ETag, where it answers one, under the name and `Tag`). */
  as?: string;
}

function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { 'content-type': 'application/json', ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const r = request({ host: hostname, port, method, path, headers: sized }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    r.on('error', reject);
    r.end(body);
  });
}

/** What may differ between the two: dates, ids, the request id, cursors (each database signs its own), ETags (of those). */
function normalise(a: Answer): string {
  const { date: _date, 'x-request-id': _id, ...headers } = a.headers;
  if (typeof headers.etag === 'string') headers.etag = /^"[A-Za-z0-9_-]{22}"$/.test(headers.etag) ? 'ETAG' : headers.etag;
  return JSON.stringify({ ...a, headers })
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID')
    .replace(/\d{4}-\d\d-\d\dT[0-9:.]+Z/g, 'TIME')
    .replace(/(\\"next_cursor\\":\\")[A-Za-z0-9_.-]+/g, '$1CURSOR');
}

/** Every path of the spec (its parameters the unknown id), every method, no body, a JSON body, a malformed one. */
function getSweep(model: ServiceModel): Step[] {
  // The event stream is left out: its answer never ends (runtime-fast-paths covers the operations).
  const paths = new Set(
    getRoutes(model)
      .filter((r) => r.kind !== 'stream')
      .map((r) => r.path.replace(/\{[^}]+\}/g, UNKNOWN)),
  );
  const steps: Step[] = [];
  for (const path of [...paths, '/nothing', '/_servicespec/health'])
    for (const method of METHODS)
      for (const body of [undefined, '{"name":"x"}', '{bad', '[]'])
        if (!((method === 'GET' || method === 'HEAD') && body !== undefined)) steps.push({ method, path, ...(body !== undefined ? { body } : {}) });
  for (const path of paths)
    for (const variant of [
      `${path}/`,
      `${path}//`,
      `${path}/x`,
      `${path}?a=1&b=%zz`,
      path.toUpperCase(),
      path.replaceAll(UNKNOWN, 'a%2Fb'),
      path.replaceAll(UNKNOWN, ''),
    ])
      for (const method of ['GET', 'POST', 'DELETE']) steps.push({ method, path: variant });
  return steps;
}

const json = (v: unknown) => JSON.stringify(v);

const TICKET_SCRIPT: Step[] = [
  { method: 'POST', path: '/projects', body: json({ slug: 'alpha', name: 'Alpha' }), as: 'P' },
  { method: 'POST', path: '/projects', body: json({ slug: 'alpha', name: 'Again' }) },
  { method: 'POST', path: '/projects', body: json({ slug: 'Bad Slug', name: '' }) },
  { method: 'POST', path: '/projects', body: json({ slug: 'beta', name: 'Beta' }), headers: { 'content-type': 'text/plain' } },
  { method: 'POST', path: '/projects', body: json({ slug: 'beta', name: 'Beta' }), headers: { 'content-type': 'application/json; charset=latin1' } },
  { method: 'GET', path: '/projects/{P}' },
  { method: 'HEAD', path: '/projects/{P}' },
  {
    method: 'POST',
    path: '/tickets',
    body: json({
      project: '{P}',
      title: 'One',
      reporter: 'a@example.com',
      points: 3,
      labels: ['x', 'y'],
      meta: { source: 'web', weight: 1.5 },
      resolution: null,
    }),
    as: 'T1',
  },
  { method: 'POST', path: '/tickets', body: json({ project: '{P}', title: 'Two', reporter: 'b@example.com', priority: 'high', points: 8 }), as: 'T2' },
  { method: 'POST', path: '/tickets', body: json({ project: '{P}', title: 'Three', reporter: 'c@example.com', priority: 'low' }), as: 'T3' },
  {
    method: 'POST',
    path: '/tickets',
    body: json({ project: '{P}', summary: 'Old four', reporter: 'd@example.com' }),
    headers: { 'api-version': '1' },
    as: 'T4',
  },
  { method: 'POST', path: '/tickets', body: json({ project: UNKNOWN, title: 'Nowhere', reporter: 'e@example.com' }) },
  { method: 'POST', path: '/tickets', body: json({ project: '{P}', title: 'Bad', reporter: 'not an email', points: -1, extra: true }) },
  { method: 'GET', path: '/tickets/{T1}' },
  { method: 'GET', path: '/tickets/{T1}', headers: { 'api-version': '1' } },
  { method: 'GET', path: '/tickets/{T1}', headers: { 'api-version': '9' } },
  { method: 'GET', path: '/tickets/{T4}' },
  { method: 'GET', path: '/tickets/not-a-uuid' },
  { method: 'GET', path: '/tickets' },
  { method: 'GET', path: '/tickets?limit=2' },
  { method: 'GET', path: '/tickets?limit=2&sort=-points' },
  { method: 'GET', path: '/tickets?sort=created_at&priority=high' },
  { method: 'GET', path: '/tickets?status=open&project={P}' },
  { method: 'GET', path: '/tickets?status=nowhere' },
  { method: 'GET', path: '/tickets?limit=0' },
  { method: 'GET', path: '/tickets?limit=999' },
  { method: 'GET', path: '/tickets?limit=1&limit=2' },
  { method: 'GET', path: '/tickets?bogus=1' },
  { method: 'GET', path: '/tickets?cursor=forged' },
  { method: 'GET', path: '/tickets', headers: { 'api-version': '1' } },
  { method: 'PATCH', path: '/tickets/{T1}', body: json({ points: 5, resolution: 'tbd' }) },
  { method: 'PATCH', path: '/tickets/{T1}', body: json({ reporter: 'z@example.com' }) },
  { method: 'PUT', path: '/tickets/{T2}', body: json({ project: '{P}', title: 'Two again', reporter: 'b@example.com' }) },
  { method: 'POST', path: '/tickets/{T1}/start' },
  { method: 'POST', path: '/tickets/{T1}/start' },
  { method: 'POST', path: '/tickets/{T1}/resolve', body: json({ resolution: null }) },
  { method: 'POST', path: '/tickets/{T1}/resolve', body: json({ resolution: 'fixed' }) },
  { method: 'POST', path: '/tickets/{T2}/reject' },
  { method: 'GET', path: '/tickets/{T1}' },
  { method: 'DELETE', path: '/tickets/{T3}' },
  { method: 'GET', path: '/tickets/{T3}' },
  { method: 'DELETE', path: '/tickets/{T3}' },
  { method: 'DELETE', path: '/projects/{P}' },
  { method: 'POST', path: '/estimates', body: json({ title: 'x' }) },
  { method: 'GET', path: '/tickets?limit=50&sort=points' },
];

const PARCEL_SCRIPT: Step[] = [
  { method: 'POST', path: '/parcels', body: json({ weight: 3 }), headers: { 'idempotency-key': 'k1' }, as: 'A' },
  { method: 'POST', path: '/parcels', body: json({ weight: 3 }), headers: { 'idempotency-key': 'k1' } },
  { method: 'POST', path: '/parcels', body: json({ weight: 4 }), headers: { 'idempotency-key': 'k1' } },
  { method: 'POST', path: '/parcels', body: json({ weight: 5, tracking: 'T-1' }), headers: { 'idempotency-key': 'k2', 'api-version': '1' }, as: 'B' },
  { method: 'POST', path: '/parcels', body: json({ weight: 5, tracking: 'T-1' }), headers: { 'idempotency-key': 'k2', 'api-version': '1' } },
  { method: 'POST', path: '/parcels', body: json({ weight: 0 }), headers: { 'idempotency-key': 'k3' } },
  { method: 'POST', path: '/parcels', body: json({ weight: 6, carrier: 'ups' }), as: 'C' },
  { method: 'GET', path: '/parcels/{A}' },
  { method: 'GET', path: '/parcels/{B}', headers: { 'api-version': '1' } },
  { method: 'POST', path: '/parcels/{A}/ship' },
  { method: 'POST', path: '/parcels/{B}/ship', headers: { 'idempotency-key': 'k4' } },
  { method: 'POST', path: '/parcels/{B}/ship', headers: { 'idempotency-key': 'k4' } },
  { method: 'POST', path: '/parcels/{C}/ship', body: json({ tracking_number: 'Z9' }) },
  { method: 'POST', path: '/parcel-previews', body: json({ weight: 1 }) },
];

const ORDER_SCRIPT: Step[] = [
  {
    method: 'POST',
    path: '/orders',
    body: json({ status: 'pending', amount: 100, currency: 'EUR', gift: true, lines: [{ sku: 'a', n: 2 }], note: null }),
    as: 'O1',
  },
  { method: 'POST', path: '/orders', body: json({ status: 'paid', amount: 5, currency: 'USD', gift: false }), headers: { 'idempotency-key': 'o2' }, as: 'O2' },
  { method: 'POST', path: '/orders', body: json({ status: 'paid', amount: 5, currency: 'USD', gift: false }), headers: { 'idempotency-key': 'o2' } },
  { method: 'POST', path: '/orders', body: json({ status: 'paid', amount: 6, currency: 'USD' }), headers: { 'idempotency-key': 'o2' } },
  { method: 'POST', path: '/orders', body: json({ status: 'lost', amount: -1, currency: 'eu' }) },
  { method: 'POST', path: '/orders', body: json({ status: 'shipped', amount: 7, currency: 'GBP', note: 'leave at the door' }), as: 'O3' },
  { method: 'POST', path: '/orders', body: '{"status":"paid","amount":1,"currency":"EUR","__proto__":{"x":1}}' },
  { method: 'POST', path: '/orders', body: '{"status":"paid","amount":1e400,"currency":"EUR"}' },
  { method: 'GET', path: '/orders/{O1}' },
  { method: 'GET', path: '/orders/{O2}' },
  { method: 'GET', path: '/orders/{O3}' },
  { method: 'HEAD', path: '/orders/{O3}' },
  { method: 'GET', path: '/orders' },
  { method: 'GET', path: '/orders?limit=1' },
  { method: 'GET', path: '/orders?limit=2&sort=-amount' },
  { method: 'GET', path: '/orders?gift=true' },
  { method: 'GET', path: '/orders?note=null' },
  { method: 'GET', path: '/orders?status=paid&currency=USD' },
  { method: 'PATCH', path: '/orders/{O1}', body: json({ note: 'changed', lines: [] }) },
  { method: 'GET', path: '/orders/{O1}' },
  // etag: true. A tag captured at a create no longer matches once the order changed; the read's does.
  { method: 'GET', path: '/orders/{O2}', headers: { 'if-none-match': '{O2Tag}' } },
  { method: 'HEAD', path: '/orders/{O2}', headers: { 'if-none-match': '{O2Tag}' } },
  { method: 'GET', path: '/orders/{O1}', headers: { 'if-none-match': '{O1Tag}' } },
  { method: 'PATCH', path: '/orders/{O1}', body: json({ amount: 1 }), headers: { 'if-match': '{O1Tag}' } },
  { method: 'PATCH', path: '/orders/{O2}', body: json({ amount: 1 }), headers: { 'if-match': '{O2Tag}', 'idempotency-key': 'o2-change' } },
  { method: 'PATCH', path: '/orders/{O2}', body: json({ amount: 1 }), headers: { 'if-match': '{O2Tag}', 'idempotency-key': 'o2-change' } },
  { method: 'PATCH', path: '/orders/{O2}', body: json({ amount: 2 }), headers: { 'if-match': '{O2Tag}' } },
  { method: 'DELETE', path: '/orders/{O3}', headers: { 'if-match': '"stale"' } },
  { method: 'DELETE', path: '/orders/{O3}' },
  { method: 'GET', path: '/orders/{O3}' },
];

/** Runs the script on one server: its own ids (and the cursor of its last page) fill the placeholders. */
async function run(server: Running, steps: readonly Step[]): Promise<string[]> {
  const ids = new Map<string, string>();
  let cursor: string | undefined;
  const fill = (text: string) => text.replace(/\{([A-Z][A-Za-z0-9]*)\}/g, (_, name: string) => ids.get(name) ?? UNKNOWN).replace('{cursor}', cursor ?? 'none');
  const out: string[] = [];
  for (const step of steps) {
    const path = fill(step.path);
    const headers = Object.fromEntries(Object.entries(step.headers ?? {}).map(([k, v]) => [k, fill(v)]));
    const a = await send(server.url, step.method, path, headers, step.body === undefined ? undefined : fill(step.body));
    if (step.as !== undefined && a.status < 300) ids.set(step.as, (JSON.parse(a.body) as { id: string }).id);
    if (step.as !== undefined && typeof a.headers.etag === 'string') ids.set(`${step.as}Tag`, a.headers.etag);
    if (a.status === 200 && a.body.startsWith('{"items"')) cursor = (JSON.parse(a.body) as { next_cursor: string | null }).next_cursor ?? undefined;
    out.push(
      `${step.method} ${step.path}${step.headers ? ` ${JSON.stringify(step.headers)}` : ''}${step.body !== undefined ? ` ${step.body}` : ''}\n  ${normalise(a)}`,
    );
  }
  return out;
}

/** Follows the cursor of the script's last page to the end: every page's items, through each server's own cursors. */
async function walk(server: Running, path: string): Promise<string[]> {
  const pages: string[] = [];
  let next: string | null = '';
  for (let i = 0; i < 20 && next !== null; i++) {
    const a = await send(server.url, 'GET', next === '' ? path : `${path}&cursor=${encodeURIComponent(next)}`, {});
    pages.push(normalise(a));
    next = a.status === 200 ? (JSON.parse(a.body) as { next_cursor: string | null }).next_cursor : null;
  }
  return pages;
}

for (const [name, file, script, pages] of [
  ['tickets (versions, events, transitions, custom)', TICKETS, TICKET_SCRIPT, '/tickets?limit=1&sort=-points'],
  ['parcels (keyed creates, versions)', VERSIONED_ACTIONS, PARCEL_SCRIPT, undefined],
  ['orders (keyed sync creates, JSON, booleans, nulls)', KEYED, ORDER_SCRIPT, '/orders?limit=1&sort=amount'],
] as const) {
  describe(`SERVICESPEC_FAST_PATHS: ${name}`, () => {
    let fast: Running;
    let plain: Running;
    beforeAll(async () => {
      const model = loadModel(file);
      fast = await startService(model, { fastPaths: true });
      plain = await startService(model, { fastPaths: false });
    });
    afterAll(async () => {
      await fast?.close();
      await plain?.close();
    });

    it('answers the scripted requests byte-identically with the fast paths on and off', async () => {
      const [a, b] = [await run(fast, script), await run(plain, script)];
      expect(b).toEqual(a);
      // The script reached the actions, not only their refusals.
      expect(a.filter((line) => /"status":20[01]/.test(line)).length).toBeGreaterThan(5);
    });

    it('pages through a list alike, each through its own cursors', async () => {
      if (pages === undefined) return; // no list operation
      const [a, b] = [await walk(fast, pages), await walk(plain, pages)];
      expect(b).toEqual(a);
      expect(a.length).toBeGreaterThan(1);
    });

    it('answers every method on every path (and the variants a router reads its own way) alike', async () => {
      const sweep = getSweep(loadModel(file));
      const [a, b] = [await run(fast, sweep), await run(plain, sweep)];
      expect(b).toEqual(a);
      expect(a.length).toBeGreaterThan(100);
    });
  });
}

// The benchmark's spec (issue 27), compared as raw responses: the status line, every header in order and the body,
// with only the date, generated request ids, ids and times set aside, over reads and everything a router or a
// faster answer could read its own way (errors, HEAD, queries, encodings, slashes, long URLs, other methods).
const ORDERS_PLAIN = fileURLToPath(new URL('./fixtures/orders-plain.yaml', import.meta.url));

/** Sends `head` (the request line and headers, CRLF-separated, without the blank line) and `body` on a new connection. */
function sendRaw(url: string, head: string, body = ''): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // Written, not ended: a client's half-close before an asynchronous answer (PostgreSQL) would lose the answer.
    const socket = connect(Number(port), hostname, () => socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

/** The raw answer with what may differ set aside: the date, a generated request id, ids and times in the body. */
function normaliseRaw(text: string): string {
  return text
    .replace(/\r\nDate: [^\r]*/i, '\r\nDate: DATE')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, 'UUID')
    .replace(/\d{4}-\d\d-\d\dT[0-9:.]+Z/g, 'TIME')
    .replace(/("next_cursor":")[A-Za-z0-9_.-]+/g, '$1CURSOR');
}

describe('SERVICESPEC_FAST_PATHS: the benchmark spec, raw answers byte for byte', () => {
  let fast: Running;
  let plain: Running;
  beforeAll(async () => {
    const model = loadModel(ORDERS_PLAIN);
    fast = await startService(model, { fastPaths: true });
    plain = await startService(model, { fastPaths: false });
  });
  afterAll(async () => {
    await fast?.close();
    await plain?.close();
  });

  /** Each case's raw request, `{id}` the server's own created order. */
  const cases = (id: string): [head: string, body?: string][] => {
    const h = (line: string, ...headers: string[]) => [line, 'Host: x', ...headers].join('\r\n');
    const other = UNKNOWN;
    return [
      [h(`GET /orders/${id} HTTP/1.1`)],
      [h(`GET /orders/${id} HTTP/1.1`, 'X-Request-Id: given-1')],
      [h(`GET /orders/${id} HTTP/1.1`, 'X-Request-Id: not a plain id')],
      [h(`GET /orders/${id.toUpperCase()} HTTP/1.1`)],
      [h(`GET /orders/${id} HTTP/1.1`, 'Accept: text/html', 'Content-Type: text/plain')],
      [h(`GET /orders/${id} HTTP/1.1`, 'Content-Type: application/json', 'Content-Length: 2'), '{}'],
      [h(`GET /orders/${id} HTTP/1.0`)],
      [`GET /orders/${id} HTTP/1.0`],
      [`GET /orders/${id} HTTP/1.1`],
      [h(`GET /orders/${id} HTTP/1.1`, 'Host: y')],
      [h(`HEAD /orders/${id} HTTP/1.1`)],
      [h(`GET /orders/${other} HTTP/1.1`)],
      [h(`HEAD /orders/${other} HTTP/1.1`)],
      [h(`GET /orders/not-a-uuid HTTP/1.1`)],
      [h(`GET /orders/${id}x HTTP/1.1`)],
      [h(`GET /orders/${id}?x=1 HTTP/1.1`)],
      [h(`GET /orders/${id}? HTTP/1.1`)],
      [h(`GET /orders/${id}?limit=2 HTTP/1.1`)],
      [h(`GET /orders/${id}/ HTTP/1.1`)],
      [h(`GET /orders/${id}// HTTP/1.1`)],
      [h(`GET //orders/${id} HTTP/1.1`)],
      [h(`GET /orders//${id} HTTP/1.1`)],
      [h(`GET /orders/${id}/x HTTP/1.1`)],
      [h(`GET /Orders/${id} HTTP/1.1`)],
      [h(`GET /orders/ HTTP/1.1`)],
      [h(`GET /orders HTTP/1.1`)],
      [h(`GET /orders/%${id.charCodeAt(0).toString(16)}${id.slice(1)} HTTP/1.1`)],
      [h(`GET /orders/${id.slice(0, 8)}%2D${id.slice(9)} HTTP/1.1`)],
      [h(`GET /orders/%zz HTTP/1.1`)],
      [h(`GET /orders/${id}%00 HTTP/1.1`)],
      [h(`GET /orders/${id}#frag HTTP/1.1`)],
      [h(`GET /orders/${id};x=1 HTTP/1.1`)],
      [h(`GET /orders/./${id} HTTP/1.1`)],
      [h(`GET /orders/${id}/.. HTTP/1.1`)],
      [h(`GET http://x/orders/${id} HTTP/1.1`)],
      [h(`GET /orders/${'a'.repeat(300)} HTTP/1.1`)],
      [h(`GET /orders/${'a'.repeat(600)} HTTP/1.1`)],
      [h(`GET /orders/${'a'.repeat(20_000)} HTTP/1.1`)],
      [h(`GET /orders/${id}?${'a'.repeat(600)} HTTP/1.1`)],
      [h(`GET /_servicespec/health HTTP/1.1`)],
      // Lists, with every kind of query.
      ...[
        '',
        '?limit=2',
        '?limit=1',
        '?limit=100',
        '?limit=101',
        '?limit=0',
        '?limit=abc',
        '?limit=',
        '?limit',
        '?=2',
        '?',
        '?&limit=2',
        '?limit=2&',
        '?limit=1&limit=2',
        '?limit=%32',
        '?limit=2+',
        '?limit=2#x',
        '?LIMIT=2',
        '?foo=1',
        '?__proto__=1',
        '?constructor=1',
        '?status=paid',
        '?status=lost',
        '?status=paid&limit=1',
        '?sort=amount',
        '?cursor=forged',
        '?cursor=a.b',
        `?limit=2&x=${'a'.repeat(600)}`,
        '/',
      ].map((q): [string] => [h(`GET /orders${q} HTTP/1.1`)]),
      [h(`GET /orders?limit=2 HTTP/1.1`, 'X-Request-Id: given-2')],
      [h(`HEAD /orders?limit=2 HTTP/1.1`)],
      [h(`POST /orders?limit=2 HTTP/1.1`, 'Content-Type: application/json', 'Content-Length: 2'), '{}'],
      ...['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'get'].map((m): [string] => [h(`${m} /orders/${id} HTTP/1.1`)]),
    ];
  };

  it('answers reads, lists and every odd request byte-identically with the fast paths on and off', async () => {
    const order = JSON.stringify({ status: 'paid', amount: 1250, currency: 'EUR' });
    const [a, b] = [fast, plain].map((s) => s.call('POST', '/orders', JSON.parse(order)));
    const ids = [(await a!).body as { id: string }, (await b!).body as { id: string }].map((o) => o.id);
    const answers = await Promise.all(
      [fast, plain].map(async (s, i) => {
        const out: string[] = [];
        for (const [k, [head, body]] of cases(ids[i]!).entries()) out.push(`case ${k}\n${normaliseRaw(await sendRaw(s.url, head, body))}`);
        return out;
      }),
    );
    expect(answers[0]).toEqual(answers[1]);
    // The reads were answered 200, and the errors were errors.
    expect(answers[0]!.filter((t) => t.includes('HTTP/1.1 200 OK')).length).toBeGreaterThan(8);
    expect(answers[0]!.some((t) => t.includes('HTTP/1.1 404 Not Found'))).toBe(true);
    expect(answers[0]!.some((t) => t.includes('HTTP/1.1 405 Method Not Allowed'))).toBe(true);
  });
});
