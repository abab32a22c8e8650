// A custom operation whose path parameters are all fields of one resource (`/projects/{project_id}/issues/{number}`,
// an imported read keyed by a project and a number): the tester fills them from an object the run made, so the
// request reaches an object that exists. Before, each was a drawn word, the service's 404 for it passed as a declared
// refusal, and a read answering an Issue without its title was never seen (the tracker sweep: no request reached a
// real issue).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Issue:
    fields:
      id: { type: uuid, readOnly: true }
      project_id: { type: string, pattern: '^[a-z]{3}$' }
      number: { type: integer, minimum: 1, maximum: 1000 }
      title: { type: string, minLength: 1, maxLength: 20 }
endpoints:
  operations:
    createIssue: { method: POST, path: /issues, action: create, resource: Issue }
    findIssue:
      method: GET
      path: '/projects/{project_id}/issues/{number}'
      action: custom
      handler: find
      response: { resource: Issue }
      errors: [not_found]
authentication:
  default: none
${PLAIN_ERRORS}`;

/** The issues service by hand; `fault`: the keyed read leaves the title out. */
function start(fault: boolean): Promise<{ url: string; server: Server }> {
  const issues: Record<string, unknown>[] = [];
  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const missing = () => send(res, 404, { type: 'about:blank', title: 'not_found', status: 404, code: 'not_found' }, 'application/problem+json');
      if (req.method === 'POST' && url.pathname === '/issues') {
        let b: Record<string, unknown>;
        try {
          b = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return send(res, 400, { type: 'about:blank', title: 'bad_body', status: 400, code: 'bad_body' }, 'application/problem+json');
        }
        const ok =
          typeof b.project_id === 'string' &&
          /^[a-z]{3}$/.test(b.project_id) &&
          Number.isInteger(b.number) &&
          (b.number as number) >= 1 &&
          (b.number as number) <= 1000 &&
          typeof b.title === 'string' &&
          b.title.length >= 1 &&
          b.title.length <= 20 &&
          Object.keys(b).every((k) => ['project_id', 'number', 'title'].includes(k));
        if (!ok) return send(res, 422, { type: 'about:blank', title: 'invalid', status: 422, code: 'invalid' }, 'application/problem+json');
        const issue = { id: crypto.randomUUID(), project_id: b.project_id, number: b.number, title: b.title };
        issues.push(issue);
        return send(res, 201, issue);
      }
      const m = /^\/projects\/([^/]+)\/issues\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && m) {
        const found = issues.find((i) => i.project_id === decodeURIComponent(m[1]!) && String(i.number) === m[2]);
        if (!found) return missing();
        const { title: _t, ...rest } = found;
        return send(res, 200, fault ? rest : found);
      }
      return missing();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('custom path parameters from the fields of an object the run made', () => {
  let faithful: { url: string; server: Server };
  let faulty: { url: string; server: Server };
  beforeAll(async () => {
    faithful = await start(false);
    faulty = await start(true);
  });
  afterAll(() => {
    faithful?.server.close();
    faulty?.server.close();
  });
  const run = (url: string) => testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only: ['endpoints.valid-requests'] });

  it('the faithful service passes', async () => {
    const r = await run(faithful.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => [x.target, x.failure?.actual])).toEqual([]);
  }, 60_000);

  it('a keyed read leaving the title out fails', async () => {
    const r = await run(faulty.url);
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => x.target)).toContain('findIssue');
  }, 60_000);
});
