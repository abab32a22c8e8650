// Three false failures an outside sweep (a clinic's patients) met on a faithful hand-written service:
// - a custom operation at the read's own path (`PUT /patients/{id}`, custom for its If-Match header) was sent a
//   made-up identifier, so the service's 404 came before the body each invalid-request check meant to send;
// - errors.missing-object on a read sent a UUID to an identifier with its own pattern (`^P[0-9]{6}$`): the
//   service's validation refusal of the malformed id was failed as a wrong missing-object answer;
// - a delete's read-back went without a credential where the read takes another scheme than the run holds.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Patient:
    identifier_source: client
    fields:
      id: { type: string, pattern: '^P[0-9]{6}$' }
      name: { type: string, minLength: 1, maxLength: 40 }
endpoints:
  operations:
    createPatient: { method: POST, path: /patients, action: create, resource: Patient, errors: [invalid, unreadable, taken] }
    getPatient: { method: GET, path: '/patients/{id}', action: read, resource: Patient, errors: [invalid, missing], auth: { schemes: [bearer] } }
    deletePatient: { method: DELETE, path: '/patients/{id}', action: delete, resource: Patient, errors: [invalid, missing] }
    renamePatient:
      method: PUT
      path: '/patients/{id}'
      action: custom
      handler: rename
      request: { fields: { id: { type: string, pattern: '^P[0-9]{6}$', optional: true }, name: { type: string, minLength: 1, maxLength: 40 } } }
      response: { resource: Patient }
      errors: [invalid, missing, unreadable]
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-API-Key }
    bearer: { type: bearer }
  default: { schemes: [key] }
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    unreadable: { status: 400, when: [malformed_request, unsupported_media_type] }
    missing: { status: 404, when: [missing_resource, route_not_found] }
    taken: { status: 409, when: [unique_conflict] }
    nokey: { status: 401, when: [missing_credential, invalid_credential] }
`;

const KEY = 'key-1';
const TOKEN = 'token-1';

/** The patients service by hand: ids the client gives as P000001…; an id not of that form is refused 422 before it is looked up. */
function startPatients(): Promise<{ url: string; server: Server; seen: string[] }> {
  const patients = new Map<string, { id: string; name: string }>();
  const seen: string[] = [];
  const problem = (res: ServerResponse, status: number, code: string) => {
    res.writeHead(status, { 'content-type': 'application/problem+json' });
    res.end(JSON.stringify({ type: 'about:blank', title: code, status, code }));
  };
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  /** The body's `{ id, name }` (`id`: the path's, when given one), or the status refusing it. */
  const bodyOf = (text: string, req: IncomingMessage, path?: string): { id: string; name: string } | number => {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return 400;
    let b: unknown;
    try {
      b = JSON.parse(text);
    } catch {
      return 400;
    }
    if (typeof b !== 'object' || b === null || Array.isArray(b)) return 422;
    const { id, name, ...rest } = b as Record<string, unknown>;
    const okId = path === undefined ? typeof id === 'string' && /^P[0-9]{6}$/.test(id) : id === undefined || id === path;
    const ok = okId && typeof name === 'string' && name.length >= 1 && [...name].length <= 40 && Object.keys(rest).length === 0;
    return ok ? { id: path ?? (id as string), name: name as string } : 422;
  };
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const one = /^\/patients\/([^/]+)$/.exec(url.pathname);
      const reading = one && req.method === 'GET';
      // The read takes a bearer token; every other operation the API key.
      if (reading ? req.headers.authorization !== `Bearer ${TOKEN}` : req.headers['x-api-key'] !== KEY) return problem(res, 401, 'nokey');
      if (url.pathname === '/patients' && req.method === 'POST') {
        const p = bodyOf(text, req);
        if (typeof p === 'number') return problem(res, p, p === 400 ? 'unreadable' : 'invalid');
        if (patients.has(p.id)) return problem(res, 409, 'taken');
        patients.set(p.id, p);
        return send(res, 201, p, { location: `/patients/${p.id}` });
      }
      if (!one || !['GET', 'PUT', 'DELETE'].includes(req.method ?? '')) return problem(res, 404, 'missing');
      const id = decodeURIComponent(one[1]!);
      if (!/^P[0-9]{6}$/.test(id)) return problem(res, 422, 'invalid');
      const p = patients.get(id);
      if (!p) return problem(res, 404, 'missing');
      if (req.method === 'GET') return send(res, 200, p);
      if (req.method === 'DELETE') {
        patients.delete(id);
        return send(res, 204);
      }
      seen.push(id);
      const b = bodyOf(text, req, id);
      if (typeof b === 'number') return problem(res, b, b === 400 ? 'unreadable' : 'invalid');
      p.name = b.name;
      return send(res, 200, p);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, seen })),
  );
}

let s: Awaited<ReturnType<typeof startPatients>>;
beforeAll(async () => {
  s = await startPatients();
});
afterAll(() => {
  s.server.close();
});

describe('objects named by their own paths', () => {
  it('a faithful service passes: the custom PUT beside the read acts on a patient the run made, ids keep their pattern', async () => {
    const both = await testService(checkedModel(SPEC), { baseUrl: s.url, seed: 1, credentials: { headers: { 'X-API-Key': KEY }, bearer: TOKEN } });
    expect(both.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
    const outcome = (check: string, target: string) => both.results.find((r) => r.check === check && r.target === target)?.outcome;
    expect(outcome('errors.missing-object', 'getPatient')).toBe('passed');
    expect(outcome('errors.missing-object', 'renamePatient')).toBe('passed');
    // Every PUT that got past the id's form named a patient the service holds (the run made it).
    expect(s.seen.length).toBeGreaterThan(0);
  }, 60_000);

  it('with the API key alone, the delete is not failed for a read-back it holds no credential for', async () => {
    const keyOnly = await testService(checkedModel(SPEC), { baseUrl: s.url, seed: 1, credentials: { headers: { 'X-API-Key': KEY } } });
    expect(keyOnly.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
  }, 60_000);
});
