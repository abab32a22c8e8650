// `unknown_fields` in the tester: where a create, update or replace says `ignore`, a valid body with a member its
// request does not name is sent and must be accepted, the member neither answered nor stored (read back); the
// members it drops are not sent as invalid requests. A faithful service passes; one answering the member, one
// storing it, and one refusing it are each caught.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { UNKNOWN_SPEC } from '../support/unknown-fields-spec.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy, type ProxyResponse } from './mutant-proxy.js';

let s: OrdersServer;
beforeAll(async () => {
  s = await startSpecText('notes.yaml', UNKNOWN_SPEC);
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const run = (baseUrl: string) => testService(s.model, { baseUrl, ...s.options, seed: 3, only: ['endpoints.valid-requests', 'endpoints.invalid-requests'] });
const IGNORED = [
  'createNote: a member its request does not name (unknown_fields: ignore)',
  'replaceNote: a member its request does not name (unknown_fields: ignore)',
];

it('passes the faithful service, sends no unknown member to an ignoring request as invalid, and a read-only one to be dropped', async () => {
  const r = await run(s.url);
  expect(r.results.filter((x) => x.outcome === 'failed').map((f) => [f.target, f.failure?.actual])).toEqual([]);
  expect(r.results.filter((x) => IGNORED.includes(x.target)).map((x) => `${x.target} ${x.outcome}`)).toEqual(IGNORED.map((t) => `${t} passed`));
  const invalid = r.results.filter((x) => x.check === 'endpoints.invalid-requests').map((x) => x.target);
  expect(invalid).toContain('updateNote: an unknown field');
  expect(invalid.filter((t) => /^(createNote|replaceNote): an unknown field$/.test(t))).toEqual([]);
  // A field the request names but does not take is sent to be dropped, not refused: the faithful service drops it.
  expect(
    r.results
      .filter((x) => x.check === 'endpoints.invalid-requests' && /^(createNote|replaceNote): id \(read-only\) sent$/.test(x.target))
      .map((x) => x.outcome),
  ).toEqual(['passed', 'passed']);
}, 120_000);

const answering = (edit: (body: Record<string, unknown>, req: { method: string; body: Buffer }) => boolean) => ({
  response: (res: ProxyResponse, req: { method: string; body: Buffer }) => {
    if (res.status >= 300 || res.body.length === 0) return res;
    const body = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
    if (!edit(body, req)) return res;
    const text = JSON.stringify(body);
    return { ...res, body: Buffer.from(text), headers: { ...res.headers, 'content-length': String(Buffer.byteLength(text)) } };
  },
});
const sentUnknown = (req: { body: Buffer }) => req.body.length > 0 && req.body.toString('utf8').includes('__unknown_field__');

it('fails a service that answers the member (echoed)', async () => {
  const proxy = await startProxy(s.url, answering((b, req) => sentUnknown(req) && ((b.__unknown_field__ = 'x'), true)) as never);
  try {
    const failed = (await run(proxy.url)).results.filter((x) => x.outcome === 'failed');
    expect(failed.map((f) => f.target).sort()).toEqual(IGNORED);
    expect(failed[0]!.failure!.expected).toMatch(/__unknown_field__ left out of the answer/);
  } finally {
    await proxy.close();
  }
}, 120_000);

it('fails a service that stores it (a read afterwards holds it)', async () => {
  const stored = new Set<string>();
  const proxy = await startProxy(s.url, {
    response: (res: ProxyResponse, req: { method: string; path: string; body: Buffer }) => {
      if (res.status >= 300 || res.body.length === 0) return res;
      const body = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
      if (req.method !== 'GET' && sentUnknown(req)) stored.add(String(body.id));
      if (req.method !== 'GET' || !stored.has(String(body.id))) return res;
      body.__unknown_field__ = 'x';
      const text = JSON.stringify(body);
      return { ...res, body: Buffer.from(text), headers: { ...res.headers, 'content-length': String(Buffer.byteLength(text)) } };
    },
  } as never);
  try {
    const failed = (await run(proxy.url)).results.filter((x) => x.outcome === 'failed' && IGNORED.includes(x.target));
    expect(failed.map((f) => f.target).sort()).toEqual(IGNORED);
    expect(failed[0]!.failure!.expected).toMatch(/not stored/);
  } finally {
    await proxy.close();
  }
}, 120_000);

it('fails a service that refuses it', async () => {
  const proxy = await startProxy(s.url, {
    request: (req) =>
      sentUnknown(req) && req.method !== 'PATCH'
        ? {
            status: 422,
            headers: { 'content-type': 'application/problem+json' },
            body: Buffer.from('{"type":"about:blank","title":"x","status":422,"code":"invalid"}'),
          }
        : req,
  });
  try {
    const failed = (await run(proxy.url)).results.filter((x) => x.outcome === 'failed');
    expect(failed.map((f) => f.target).sort()).toEqual(IGNORED);
  } finally {
    await proxy.close();
  }
}, 120_000);
