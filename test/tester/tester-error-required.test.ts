// Every required field of a declared error body is the contract's, GitHub's `{ message, documentation_url }` among
// them. The runtime fills the code, status and message and a few fields by name; a required field nothing fills is
// the spec's gap (`gaps` names it, serve refuses it without --allow-gaps and answers without it with). The tester
// holds a service to all of them. Before, only the filled ones were held, so an answer without documentation_url
// passed, and serve started without a word but check's warning.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatGapReport, getGapReport } from '../../src/check/check-gaps.js';
import { compileSpecText } from '../../src/program.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, isObject, MALFORMED, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';
import { startService } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
resources:
  Repo:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createRepo: { method: POST, path: /repos, action: create, resource: Repo, errors: [invalid] }
    getRepo: { method: GET, path: '/repos/{id}', action: read, resource: Repo, errors: [not_found] }
authentication:
  default: none
errors:
  body:
    fields:
      message: { type: string }
      documentation_url: { type: string }
    answer_members: open
  codes:
    bad_body: { status: 400, when: [malformed_request] }
    invalid: { status: 422, when: [validation] }
    not_json: { status: 415, when: [unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

function start(withUrl: boolean): Promise<HandServer> {
  const repos = new Map<string, { id: string; name: string }>();
  return startHandServer((req, reply) => {
    const error = (status: number, message: string) =>
      reply.json(status, { message, ...(withUrl ? { documentation_url: 'https://docs.example.com/rest' } : {}) });
    const one = /^\/repos\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const r = repos.get(decodeURIComponent(one[1]!));
      return r ? reply.json(200, r) : error(404, 'Not Found');
    }
    if (req.method !== 'POST' || req.url !== '/repos') return error(404, 'Not Found');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return error(415, 'Unsupported Media Type');
    const b = readJson(req);
    if (b === MALFORMED) return error(400, 'Problems parsing JSON');
    const { name, ...rest } = isObject(b) ? b : { x: 1 };
    if (Object.keys(rest).length > 0 || codePoints(name) < 0 || codePoints(name) > 10) return error(422, 'Validation Failed');
    const r = { id: crypto.randomUUID(), name: name as string };
    repos.set(r.id, r);
    reply.json(201, r, 'application/json', { location: `/repos/${r.id}` });
  });
}

describe('a required field of the declared error body that nothing fills', () => {
  let faithful: HandServer;
  let without: HandServer;
  beforeAll(async () => {
    faithful = await start(true);
    without = await start(false);
  });
  afterAll(() => {
    faithful?.close();
    without?.close();
  });
  const only = ['endpoints.invalid-requests', 'errors.missing-object'];
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only })).results.filter((x) => x.outcome === 'failed').map((x) => x.failure?.actual ?? '');

  it('is held by the tester: a service answering with it passes, one answering without it fails', async () => {
    expect(await failed(faithful.url)).toEqual([]);
    expect((await failed(without.url)).some((a) => a.includes("must have required property 'documentation_url'"))).toBe(true);
  }, 60_000);

  it('is a gap: named by gaps and by serve, which refuses it without --allow-gaps and answers without it with, naming it', async () => {
    const c = compileSpecText(SPEC);
    expect(formatGapReport(getGapReport(c.checked!))).toContain('  - value of error body field (documentation_url): not shown');
    expect(getRuntimeGaps(c.checked!).map((g) => g.item)).toContain(
      'value of error body field documentation_url (required; no code, status or message role, no default): not shown',
    );
    const storage = createSqliteStorage({ path: ':memory:' });
    try {
      await expect(createService(c.checked!, { storage })).rejects.toThrow(/value of error body field documentation_url/);
    } finally {
      await storage.close();
    }
    const s = await startService(c.checked!);
    try {
      const r = await s.call('GET', `/repos/${crypto.randomUUID()}`);
      expect([r.status, r.body]).toEqual([404, { message: expect.any(String) }]);
      // Naming the field it leaves out (Servicespec-Unset-Fields), as for a `source: service` resource field: the
      // tester does not hold it against serve's answers (test/tester/tester-error-unset-field.test.ts).
      expect(r.headers.get('servicespec-unset-fields')).toBe('documentation_url');
      expect((await failed(s.url)).some((a) => a.includes("must have required property 'documentation_url'"))).toBe(false);
    } finally {
      await s.close();
    }
  }, 60_000);
});

// The extras serve writes on every answer: the request id, and a required list of invalid inputs (empty where there
// are none). Before, the tester required them nowhere, so a service leaving them out of a 404 passed.
const EXTRAS_SPEC = SPEC.replace(
  `      message: { type: string }
      documentation_url: { type: string }`,
  `      message: { type: string }
      request_id: { type: string }
      errors: { type: json }`,
);

function startExtras(leaveOut: 'nothing' | 'request_id' | 'errors'): Promise<HandServer> {
  const repos = new Map<string, { id: string; name: string }>();
  return startHandServer((req, reply) => {
    const error = (status: number, message: string, invalid: unknown[] = []) => {
      const body: Record<string, unknown> = { message, request_id: crypto.randomUUID(), errors: invalid };
      // The fault planted: the field left out where the answer has nothing for it (no invalid inputs; any 404).
      if (leaveOut === 'errors' && invalid.length === 0) delete body.errors;
      if (leaveOut === 'request_id' && status === 404) delete body.request_id;
      reply.json(status, body);
    };
    const one = /^\/repos\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const r = repos.get(decodeURIComponent(one[1]!));
      return r ? reply.json(200, r) : error(404, 'Not Found');
    }
    if (req.method !== 'POST' || req.url !== '/repos') return error(404, 'Not Found');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return error(415, 'Unsupported Media Type');
    const b = readJson(req);
    if (b === MALFORMED) return error(400, 'Problems parsing JSON');
    const { name, ...rest } = isObject(b) ? b : { x: 1 };
    if (Object.keys(rest).length > 0 || codePoints(name) < 0 || codePoints(name) > 10)
      return error(422, 'Validation Failed', [{ field: Object.keys(rest)[0] ?? 'name' }]);
    const r = { id: crypto.randomUUID(), name: name as string };
    repos.set(r.id, r);
    reply.json(201, r, 'application/json', { location: `/repos/${r.id}` });
  });
}

describe('the request id and a required invalid-input list, on every error answer', () => {
  const only = ['endpoints.invalid-requests', 'errors.missing-object'];
  const failed = async (spec: string, url: string) =>
    (await testService(checkedModel(spec), { baseUrl: url, seed: 1, only })).results.filter((x) => x.outcome === 'failed').map((x) => x.failure?.actual ?? '');

  it('are held by the tester: a service leaving either out of an answer fails; serve and a faithful service pass', async () => {
    const servers = await Promise.all((['nothing', 'request_id', 'errors'] as const).map((x) => startExtras(x)));
    const served = await startService(checkedModel(EXTRAS_SPEC));
    try {
      expect(await failed(EXTRAS_SPEC, servers[0]!.url)).toEqual([]);
      expect((await failed(EXTRAS_SPEC, servers[1]!.url)).some((a) => a.includes("must have required property 'request_id'"))).toBe(true);
      expect((await failed(EXTRAS_SPEC, servers[2]!.url)).some((a) => a.includes("must have required property 'errors'"))).toBe(true);
      expect(await failed(EXTRAS_SPEC, served.url)).toEqual([]);
    } finally {
      for (const s of servers) s.close();
      await served.close();
    }
  }, 60_000);
});
