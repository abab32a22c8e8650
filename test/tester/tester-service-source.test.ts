// A required read-only field the service sets by a rule the spec does not state (`source: service`): every answer
// of the resource must hold it. What import writes for an OpenAPI property readOnly and required in the answer (a
// `created_at`, a `number`), where it wrote an optional field and a service leaving it out passed (the outside
// sweeps' no_created_at, no-updatedAt, closed-at-missing, status-missing). serve, with --allow-gaps, has no value for
// it and says so (Servicespec-Unset-Fields): the tester reports that as the spec's gap, not run, not a failure.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Issue:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 1, maxLength: 100 }
      number: { type: integer, readOnly: true, source: service }
      created_at: { type: datetime, readOnly: true, source: service }
endpoints:
  operations:
    createIssue: { method: POST, path: /issues, action: create, resource: Issue }
    readIssue: { method: GET, path: '/issues/{id}', action: read, resource: Issue }
    listIssues: { method: GET, path: /issues, action: list, resource: Issue }
authentication:
  default: none
${PLAIN_ERRORS}`;

const failures = (report: Awaited<ReturnType<typeof testService>>) => report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}`);

/** The issues service by hand: `faithful` answers every Issue whole; `no-created-at` leaves created_at out of its read. */
function startHandWritten(mode: 'faithful' | 'no-created-at'): Promise<{ url: string; server: Server }> {
  const issues = new Map<string, Record<string, unknown>>();
  const problem = (res: ServerResponse, status: number, title: string) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title, status, code: title }));
  };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/issues' && req.method === 'GET') {
        const limit = Number(url.searchParams.get('limit') ?? 20);
        return send(res, 200, { items: [...issues.values()].slice(0, limit), next_cursor: null });
      }
      if (url.pathname === '/issues' && req.method === 'POST') {
        let b: Record<string, unknown>;
        try {
          b = JSON.parse(text) as Record<string, unknown>;
        } catch {
          return problem(res, 400, 'bad_body');
        }
        if (typeof b !== 'object' || b === null || Array.isArray(b)) return problem(res, 422, 'invalid');
        if (Object.keys(b).some((k) => k !== 'title')) return problem(res, 422, 'invalid');
        if (typeof b.title !== 'string' || b.title.length === 0 || [...b.title].length > 100) return problem(res, 422, 'invalid');
        const issue = { id: randomUUID(), title: b.title, number: issues.size + 1, created_at: new Date().toISOString() };
        issues.set(issue.id, issue);
        return send(res, 201, issue, { location: `/issues/${issue.id}` });
      }
      const one = /^\/issues\/([^/]+)$/.exec(url.pathname);
      if (!one) return problem(res, 404, 'not_found');
      if (req.method !== 'GET') return problem(res, 405, 'not_allowed');
      const held = issues.get(decodeURIComponent(one[1]!));
      if (!held) return problem(res, 404, 'not_found');
      if (mode === 'no-created-at') {
        const { created_at: _left, ...rest } = held;
        return send(res, 200, rest);
      }
      return send(res, 200, held);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

describe('source: service in the tester', () => {
  let served: OrdersServer;
  let faithful: { url: string; server: Server };
  let faulty: { url: string; server: Server };
  beforeAll(async () => {
    served = await startSpecText('issues.yaml', SPEC);
    faithful = await startHandWritten('faithful');
    faulty = await startHandWritten('no-created-at');
  }, 60_000);
  afterAll(async () => {
    await served?.close();
    faithful?.server.close();
    faulty?.server.close();
  });

  const only = ['endpoints.valid-requests', 'resources.response-shape'];

  it('a faithful service, every answer holding number and created_at, passes', async () => {
    const r = await testService(checkedModel(SPEC), { baseUrl: faithful.url, seed: 1, only });
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => JSON.stringify(x.failure))).toEqual([]);
    expect(r.results.find((x) => x.check === 'resources.response-shape' && x.target === 'Issue')?.outcome).toBe('passed');
  }, 120_000);

  it('a service leaving created_at out of its read fails the answer-shape check', async () => {
    const r = await testService(checkedModel(SPEC), { baseUrl: faulty.url, seed: 1, only });
    expect(failures(r)).toContain('resources.response-shape Issue');
    const f = r.results.find((x) => x.check === 'resources.response-shape' && x.target === 'Issue')!.failure!;
    expect(f.actual).toContain('created_at');
  }, 120_000);

  it('an older version served (versioning.served) holds the same answers to the same gap', async () => {
    const text = SPEC.replace(
      'authentication:\n',
      'versioning:\n  scheme: integer\n  current: 2\n  placement: { header: Api-Version }\n  default: current\n  supported:\n    - version: 1\n      changes:\n        - add_field: { resource: Issue, field: number }\nauthentication:\n',
    );
    const versioned = await startSpecText('issues-versioned.yaml', text);
    try {
      const r = await testService(versioned.model, { baseUrl: versioned.url, ...versioned.options, seed: 1 });
      expect(r.results.filter((x) => x.outcome === 'failed').map((x) => `${x.check} ${x.target}: ${x.failure?.actual ?? ''}`)).toEqual([]);
      expect(r.results.some((x) => x.check === 'versioning.served' && x.outcome === 'passed')).toBe(true);
    } finally {
      await versioned.close();
    }
  }, 240_000);

  it('the spec served with --allow-gaps: no failure; the fields it leaves out are the spec’s gap, reported not run', async () => {
    const r = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1 });
    expect(r.results.filter((x) => x.outcome === 'failed').map((x) => JSON.stringify(x.failure))).toEqual([]);
    const gap = r.results.find((x) => x.check === 'resources.response-shape' && x.target === 'Issue: number, created_at');
    expect(gap).toMatchObject({ outcome: 'skipped', notRun: true });
    expect(gap!.reason).toContain('source: service');
  }, 240_000);
});
