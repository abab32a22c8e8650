// The benchmark's hand-written baseline (bench/baseline/orders-baseline.ts) must answer what the served spec
// answers, or the comparison in bench/RESULTS.md compares different work: same status, same header set, same
// body, for the benchmarked requests and their refusals, with and without an API key.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBaseline } from '../../bench/baseline/orders-baseline.js';
import { startServed } from '../../bench/lib/bench-served.js';
import { ORDER_BODY } from '../../bench/lib/orders-body.js';

interface Server {
  url: string;
  key: string;
  customerId: string;
  close: () => Promise<unknown>;
}
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Header names and the values that must agree (ids and dates differ from server to server). */
const VARYING = new Set(['x-request-id', 'date', 'location', 'content-length', 'connection', 'keep-alive']);

function normalise(value: unknown, ids: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v, ids));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, ids)]));
  if (typeof value !== 'string') return value;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) {
    if (!ids.has(value)) ids.set(value, `<id ${ids.size}>`);
    return ids.get(value);
  }
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value)) return '<time>';
  if (/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/.test(value)) return '<cursor>';
  return value;
}

async function call(s: Server, method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; key?: boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.key === false ? {} : { 'x-api-key': s.key }), ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.url}${path}`, {
    method,
    headers,
    ...(init.body !== undefined ? { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** What must be equal between the two: status, header names, the values that do not vary, the body without ids. */
function comparable(a: Answer): unknown {
  const ids = new Map<string, string>();
  const location = a.headers.location;
  return {
    status: a.status,
    headers: Object.fromEntries(Object.entries(a.headers).map(([k, v]) => [k, VARYING.has(k) ? '*' : v])),
    location: location === undefined ? undefined : location.replace(/[0-9a-f-]{36}$/, (id) => String(normalise(id, ids))),
    // An error's detail is prose for people, not part of the contract; the rest of the body is.
    body: normalise(a.status >= 400 ? { ...(a.body as object), detail: '*' } : a.body, ids),
  };
}

for (const open of [false, true]) {
  describe(`the benchmark's baseline answers as served (${open ? 'no credential' : 'API key'})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'ss-bench-baseline-'));
    let served: Server;
    let baseline: Server;
    beforeAll(async () => {
      const s = await startServed(join(dir, 'served.db'), 'none', 'normal', open);
      served = { ...s, close: () => s.app.close() };
      baseline = await startBaseline(join(dir, 'baseline.db'), { synchronous: 'normal', open });
    });
    afterAll(async () => {
      await served?.close();
      await baseline?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Runs `scenario` against both and expects the same answers. */
    const same = async (scenario: (s: Server) => Promise<Answer[]>) => {
      const a = await scenario(served);
      const b = await scenario(baseline);
      expect(b.map(comparable)).toEqual(a.map(comparable));
      return a;
    };

    it('create, read and list: same status, headers and body', async () => {
      const [created] = await same(async (s) => {
        const c = await call(s, 'POST', '/orders', { body: ORDER_BODY(s.customerId) });
        const id = (c.body as { id: string }).id;
        expect(c.headers.location).toBe(`/orders/${id}`);
        return [c, await call(s, 'GET', `/orders/${id}`)];
      });
      expect(created!.status).toBe(201);
      expect(created!.headers['x-content-type-options']).toBe('nosniff');
      expect(created!.headers['service-version']).toBe('2026-11-01');
      expect(created!.headers['x-request-id']).toBeTruthy();
      // Optional fields given: stored and answered by both.
      await same(async (s) => [
        await call(s, 'POST', '/orders', { body: { ...ORDER_BODY(s.customerId), weight_kg: 1.5, note: 'ring twice', tracking_number: null } }),
      ]);
    });

    it('a list is paged with signed cursors bound to the query', async () => {
      await same(async (s) => {
        for (let i = 0; i < 3; i++) await call(s, 'POST', '/orders', { body: ORDER_BODY(s.customerId) });
        const first = await call(s, 'GET', '/orders?limit=2');
        const cursor = (first.body as { next_cursor: string }).next_cursor;
        expect(typeof cursor).toBe('string');
        const second = await call(s, 'GET', `/orders?limit=2&cursor=${encodeURIComponent(cursor)}`);
        // The page after the first starts after its last item.
        const firstIds = (first.body as { items: { id: string }[] }).items.map((o) => o.id);
        expect((second.body as { items: { id: string }[] }).items[0]!.id > firstIds[1]!).toBe(true);
        const forged = await call(s, 'GET', `/orders?limit=2&cursor=${encodeURIComponent(`${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`)}`);
        return [
          first,
          second,
          forged,
          await call(s, 'GET', '/orders?limit=101'),
          await call(s, 'GET', '/orders?limit=0&colour=red'),
          await call(s, 'GET', '/orders'),
        ];
      });
    });

    it('refusals: an invalid body, an unknown or malformed identifier, a missing key, an unknown version', async () => {
      const answers = await same(async (s) => [
        await call(s, 'POST', '/orders', { body: { ...ORDER_BODY(s.customerId), amount: 0, colour: 'red' } }),
        await call(s, 'POST', '/orders', { body: { ...ORDER_BODY(s.customerId), amount: '2598' } }),
        await call(s, 'POST', '/orders', { body: { ...ORDER_BODY(s.customerId), customer: '019a0000-0000-7000-8000-000000000000' } }),
        await call(s, 'GET', '/orders/019a0000-0000-7000-8000-000000000000'),
        await call(s, 'GET', '/orders/not-an-id'),
        await call(s, 'GET', '/orders', { headers: { 'service-version': '1999-01-01' } }),
        ...(open ? [] : [await call(s, 'GET', '/orders', { key: false }), await call(s, 'POST', '/orders', { key: false, body: ORDER_BODY(s.customerId) })]),
      ]);
      expect(answers.map((a) => a.status)).toEqual([422, 422, 422, 404, 404, 400, ...(open ? [] : [401, 401])]);
    });

    it('Idempotency-Key: the answer is stored with the change, replayed, and refused for another body', async () => {
      const [first, again] = await same(async (s) => {
        const key = { 'idempotency-key': `k-${Math.random()}` };
        return [
          await call(s, 'POST', '/orders', { body: ORDER_BODY(s.customerId), headers: key }),
          await call(s, 'POST', '/orders', { body: ORDER_BODY(s.customerId), headers: key }),
          await call(s, 'POST', '/orders', { body: { ...ORDER_BODY(s.customerId), amount: 1 }, headers: key }),
          await call(s, 'POST', '/orders', { body: ORDER_BODY(s.customerId), headers: { 'idempotency-key': 'ä' } }),
        ];
      });
      expect(first!.status).toBe(201);
      expect(again!.headers['idempotent-replayed']).toBe('true');
      expect(again!.body).toEqual(first!.body);
    });
  });
}
