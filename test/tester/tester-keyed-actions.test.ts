// A custom action on one object of a resource keyed by a field it binds (no identifier: an issue by its number, as
// `unique_keys` and `bind` say) is held to the missing-object and malformed-key answers as an identified one's is.
// Before, such an action got neither check and no word why: an outside sweep's close-missing-500 (closing an issue
// that does not exist answered 500) escaped on every seed.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Issue:
    unique_keys: [[number]]
    fields:
      number: { type: integer, minimum: 1, maximum: 100000 }
      title: { type: string, maxLength: 40 }
endpoints:
  operations:
    createIssue: { method: POST, path: /issues, action: create, resource: Issue, errors: [taken] }
    getIssue: { method: GET, path: '/issues/{number}', action: read, resource: Issue, bind: { number: number } }
    closeIssue:
      method: POST
      path: '/issues/{number}/close'
      action: custom
      handler: close
      request: none
      response: { resource: Issue }
      errors: [missing, invalid]
authentication:
  default: none
errors:
  codes:
    invalid: { status: 400, when: [validation, malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    taken: { status: 409, when: [unique_conflict] }
`;

/** The issues service by hand; `fault`: closing an issue that does not exist answers 500. */
function startIssues(fault: boolean): Promise<{ url: string; server: Server }> {
  const issues = new Map<number, { number: number; title: string }>();
  const problem = (res: ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: code, status, code }));
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const one = /^\/issues\/([^/]+)(\/close)?$/.exec(url.pathname);
      if (url.pathname === '/issues' && req.method === 'POST') {
        let b: unknown;
        try {
          b = JSON.parse(text);
        } catch {
          return problem(res, 400, 'invalid');
        }
        const { number, title, ...rest } = (b ?? {}) as Record<string, unknown>;
        const ok = Number.isInteger(number) && (number as number) >= 1 && (number as number) <= 100000 && typeof title === 'string' && [...title].length <= 40;
        if (!ok || Object.keys(rest).length > 0 || !(req.headers['content-type'] ?? '').startsWith('application/json')) return problem(res, 400, 'invalid');
        if (issues.has(number as number)) return problem(res, 409, 'taken');
        const issue = { number: number as number, title };
        issues.set(issue.number, issue);
        return send(res, 201, issue);
      }
      if (!one) return problem(res, 404, 'missing');
      const n = /^[1-9][0-9]*$/.test(one[1]!) ? Number(one[1]) : undefined;
      const close = one[2] !== undefined;
      if ((close && req.method !== 'POST') || (!close && req.method !== 'GET')) return problem(res, 404, 'missing');
      if (n === undefined) return problem(res, 404, 'missing');
      const issue = issues.get(n);
      if (!issue) return close && fault ? problem(res, 500, 'internal') : problem(res, 404, 'missing');
      return send(res, 200, issue);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

const failures = (report: Awaited<ReturnType<typeof testService>>) => report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}`);

let faithful: { url: string; server: Server };
let faulty: { url: string; server: Server };
beforeAll(async () => {
  faithful = await startIssues(false);
  faulty = await startIssues(true);
});
afterAll(() => {
  faithful.server.close();
  faulty.server.close();
});

describe('a custom action on an object keyed by a bound field', () => {
  it('is asked for an object that does not exist and a malformed key: the faithful service passes, one answering 500 fails', async () => {
    const ok = await testService(checkedModel(SPEC), { baseUrl: faithful.url, seed: 1, only: ['errors'] });
    expect(failures(ok)).toEqual([]);
    const checked = ok.results.filter((r) => r.target === 'closeIssue' && r.outcome === 'passed').map((r) => r.check);
    expect(checked).toEqual(expect.arrayContaining(['errors.missing-object', 'errors.malformed-id']));
    const bad = await testService(checkedModel(SPEC), { baseUrl: faulty.url, seed: 1, only: ['errors'] });
    expect(failures(bad)).toContain('errors.missing-object closeIssue');
  }, 60_000);

  it('never makes an object under the key the missing-object check sends: a key field of two values, on six seeds', async () => {
    // The key an object that does not exist is asked under is the field's maximum; a run drawing keys at random
    // made the object under it about one run in twenty here, and one in two with a range this narrow.
    // A service of its own: the other test's objects are under keys of the wider range.
    const narrow = SPEC.replace('maximum: 100000', 'maximum: 2');
    const own = await startIssues(false);
    try {
      for (let seed = 1; seed <= 6; seed++) {
        const report = await testService(checkedModel(narrow), { baseUrl: own.url, seed, only: ['errors'] });
        expect(failures(report), `seed ${seed}`).toEqual([]);
      }
    } finally {
      own.server.close();
    }
  }, 60_000);
});
