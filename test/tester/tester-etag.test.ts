// Conditional requests in the tester (`etag: true`): endpoints.etag holds a read to a quoted ETag, a 304 with no body
// to If-None-Match naming it and a new tag once the object changed; endpoints.if-match holds each one-object change to
// the declared 412 for a stale If-Match (the object unchanged), a success with the current tag and with `*`, and with
// `if_match: required` the declared 428 without one. The served spec passes; hand-written services each break one
// rule and fail the check that says so. Before, the tester sent no If-Match: a service ignoring it passed.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { PLAIN_ERRORS, checkedModel } from '../support/specs.js';
import { ETAG_SPEC } from '../support/etag-spec.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const failures = (report: Awaited<ReturnType<typeof testService>>) => report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}`);
const outcomes = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results
    .filter((r) => r.check.startsWith('endpoints.etag') || r.check.startsWith('endpoints.if-match'))
    .map((r) => `${r.check} ${r.target} ${r.outcome}`);

const NOTES = `servicespec: 1
resources:
  Note:
    etag: true
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 20 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
    updateNote: { method: PATCH, path: '/notes/{id}', action: update, resource: Note }
    deleteNote: { method: DELETE, path: '/notes/{id}', action: delete, resource: Note, if_match: required }
authentication:
  default: none
${PLAIN_ERRORS}    stale: { status: 412, when: [precondition_failed] }
    tag_required: { status: 428, when: [precondition_required] }
`;

type Mode = 'faithful' | 'ignores-if-match' | 'never-304' | 'same-etag' | 'same-etag-never-304' | 'refuses-empty' | 'refuses-star' | 'refuses-changes';

/** The notes service by hand, faithful but for the one rule its mode breaks. */
function startHandWritten(mode: Mode): Promise<{ url: string; server: Server }> {
  const notes = new Map<string, { id: string; title: string; version: number }>();
  const tagOf = (n: { id: string; title: string; version: number }) =>
    `"${createHash('sha256')
      .update(mode === 'same-etag' || mode === 'same-etag-never-304' ? n.id : `${n.id} ${n.version}`)
      .digest('base64url')
      .slice(0, 16)}"`;
  const problem = (res: ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: code, status, code }));
  };
  const send = (res: ServerResponse, status: number, n: { id: string; title: string; version: number }) => {
    res.writeHead(status, { 'content-type': 'application/json', etag: tagOf(n), ...(status === 201 ? { location: `/notes/${n.id}` } : {}) });
    res.end(JSON.stringify({ id: n.id, title: n.title }));
  };
  const matches = (req: IncomingMessage, n: { id: string; title: string; version: number }) => {
    const h = req.headers['if-match'];
    if (h === undefined || mode === 'ignores-if-match') return true;
    // refuses-star: `*` compared as though it were a tag, so it never matches (RFC 9110 §13.1.1: it matches any object).
    return (mode !== 'refuses-star' && h.trim() === '*') || h.split(',').some((t) => t.trim() === tagOf(n));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = (): Record<string, unknown> | undefined => {
        try {
          const b = JSON.parse(text) as unknown;
          return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
        } catch {
          return undefined;
        }
      };
      const valid = (b: Record<string, unknown> | undefined, partial: boolean) =>
        b !== undefined &&
        Object.keys(b).every((k) => k === 'title') &&
        (b.title === undefined ? partial : typeof b.title === 'string' && b.title.length >= 1 && b.title.length <= 20);
      if (url.pathname === '/notes') {
        if (req.method !== 'POST') return problem(res, 405, 'not_allowed');
        if (!/json/.test(req.headers['content-type'] ?? '')) return problem(res, 415, 'not_json');
        const b = body();
        if (b === undefined && text !== '') return problem(res, 400, 'bad_body');
        if (!valid(b, false)) return problem(res, 422, 'invalid');
        const n = { id: randomUUID(), title: b!.title as string, version: 1 };
        notes.set(n.id, n);
        return send(res, 201, n);
      }
      const one = /^\/notes\/([^/]+)$/.exec(url.pathname);
      if (!one) return problem(res, 404, 'not_found');
      const n = notes.get(decodeURIComponent(one[1]!));
      if (req.method === 'GET') {
        if (!n) return problem(res, 404, 'not_found');
        const inm = req.headers['if-none-match'];
        if (
          mode !== 'never-304' &&
          mode !== 'same-etag-never-304' &&
          inm !== undefined &&
          (inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === tagOf(n)))
        ) {
          res.writeHead(304, { etag: tagOf(n) });
          return res.end();
        }
        return send(res, 200, n);
      }
      if (req.method === 'PATCH') {
        if (!/json/.test(req.headers['content-type'] ?? '')) return problem(res, 415, 'not_json');
        const b = body();
        if (b === undefined) return problem(res, text === '' ? 422 : 400, text === '' ? 'invalid' : 'bad_body');
        if (!valid(b, true)) return problem(res, 422, 'invalid');
        // A document's `minProperties: 1` (which the format cannot say): an empty update refused first.
        if (mode === 'refuses-empty' && Object.keys(b).length === 0) return problem(res, 422, 'invalid');
        // Every change refused (a service that takes none through this path): no tag can be seen to move.
        if (mode === 'refuses-changes') return problem(res, 422, 'invalid');
        if (!n) return problem(res, 404, 'not_found');
        if (!matches(req, n)) return problem(res, 412, 'stale');
        if (typeof b.title === 'string') n.title = b.title;
        n.version++;
        return send(res, 200, n);
      }
      if (req.method === 'DELETE') {
        if (!n) return problem(res, 404, 'not_found');
        if (req.headers['if-match'] === undefined) return problem(res, 428, 'tag_required');
        if (!matches(req, n)) return problem(res, 412, 'stale');
        notes.delete(n.id);
        res.writeHead(204);
        return res.end();
      }
      return problem(res, 405, 'not_allowed');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

const ONLY = ['endpoints.etag', 'endpoints.if-match'];

describe('etag in the tester', () => {
  let served: OrdersServer;
  const hand = new Map<Mode, { url: string; server: Server }>();
  beforeAll(async () => {
    served = await startSpecText('notes.yaml', ETAG_SPEC());
    for (const mode of [
      'faithful',
      'ignores-if-match',
      'never-304',
      'same-etag',
      'same-etag-never-304',
      'refuses-empty',
      'refuses-star',
      'refuses-changes',
    ] as const)
      hand.set(mode, await startHandWritten(mode));
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    for (const h of hand.values()) h.server.close();
  });

  it('the served spec passes every check, the conditional ones run', async () => {
    const r = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1 });
    expect(failures(r)).toEqual([]);
    expect(outcomes(r)).toEqual([
      'endpoints.etag getNote passed',
      'endpoints.if-match updateNote passed',
      'endpoints.if-match replaceNote passed',
      'endpoints.if-match deleteNote passed',
      'endpoints.if-match publishNote passed',
      'endpoints.etag getContract passed',
      'endpoints.if-match updateContract passed',
      'endpoints.if-match deleteContract passed',
    ]);
  }, 240_000);

  it('a faithful hand-written service passes', async () => {
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('faithful')!.url, seed: 1, only: ONLY });
    expect(outcomes(r)).toEqual(['endpoints.etag getNote passed', 'endpoints.if-match updateNote passed', 'endpoints.if-match deleteNote passed']);
  }, 120_000);

  it('one ignoring If-Match fails endpoints.if-match', async () => {
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('ignores-if-match')!.url, seed: 1, only: ONLY });
    expect(failures(r)).toEqual(['endpoints.if-match updateNote', 'endpoints.if-match deleteNote']);
  }, 120_000);

  it('one refusing If-Match: * (412, as for a stale tag) fails endpoints.if-match on each change', async () => {
    // An outside review's notes service compared `*` as a tag: where If-Match is optional (updateNote) no request of
    // the run sent it, and the fault escaped.
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('refuses-star')!.url, seed: 1, only: ONLY });
    expect(failures(r)).toEqual(['endpoints.if-match updateNote', 'endpoints.if-match deleteNote']);
    expect(r.results.find((x) => x.target === 'updateNote')!.failure?.expected).toContain('a success for If-Match: *');
    expect(r.results.find((x) => x.target === 'updateNote')!.failure?.actual).toMatch(/^412/);
  }, 120_000);

  it("one refusing every change says endpoints.etag's new tag after a change was not run, and why (it passed in silence before)", async () => {
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('refuses-changes')!.url, seed: 1, only: ['endpoints.etag'] });
    expect(outcomes(r)).toEqual(['endpoints.etag getNote passed', 'endpoints.etag getNote: a new ETag after a change skipped']);
    const part = r.results.find((x) => x.target === 'getNote: a new ETag after a change')!;
    expect(part).toMatchObject({ notRun: true });
    expect(part.reason).toMatch(
      /^not run: updateNote with If-Match: its current tag answered 422 .*: no change was made, so a new ETag after one was not looked for$/,
    );
    expect(r.verdict).toBe('incomplete');
  }, 120_000);

  it('one never answering 304 fails endpoints.etag', async () => {
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('never-304')!.url, seed: 1, only: ONLY });
    expect(failures(r)).toEqual(['endpoints.etag getNote']);
  }, 120_000);

  it('one keeping the same ETag after a change fails endpoints.etag', async () => {
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('same-etag')!.url, seed: 1, only: ONLY });
    // endpoints.if-match sees it too: its change with the current tag leaves the tag where it was (Billing sweep).
    expect(failures(r)).toEqual(['endpoints.etag getNote', 'endpoints.if-match updateNote']);
    expect(r.results.find((x) => x.check === 'endpoints.etag')!.failure?.expected).toContain('a new ETag once updateNote changed the Note');
  }, 120_000);

  it('one keeping the same ETag and never answering 304 is failed for the tag, which the 304 does not hide', async () => {
    // An imported read answering an ETag whose document declares no 304 (etag: true adds it, said at import): the
    // tag that never changes is the fault seen first (an IoT sweep's etag-static was masked by the 304 step).
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('same-etag-never-304')!.url, seed: 1, only: ONLY });
    expect(r.results.find((x) => x.check === 'endpoints.etag')!.failure?.expected).toContain('a new ETag once updateNote changed the Note');
  }, 120_000);

  it('one refusing an empty update (a minProperties: 1 the format cannot say) passes: the probes send an update one field', async () => {
    // An outside sweep's calendar: endpoints.if-match and errors.missing-object sent PATCH {}, which the faithful
    // service refused before the condition each probes, and both failed it.
    const r = await testService(checkedModel(NOTES), { baseUrl: hand.get('refuses-empty')!.url, seed: 1, only: [...ONLY, 'errors.missing-object'] });
    expect(failures(r)).toEqual([]);
    expect(r.results.filter((x) => x.target === 'updateNote').map((x) => `${x.check} ${x.outcome}`)).toEqual([
      'endpoints.if-match passed',
      'errors.missing-object passed',
    ]);
  }, 120_000);
});
