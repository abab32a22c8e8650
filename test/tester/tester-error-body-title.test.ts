// A declared error body's `title` and `detail` are written on every answer by the runtime (ERROR_BODY_EXTRAS), so
// an answer without them, where the body requires them, breaks the declared shape. Before, the tester required only
// the code, status and message roles' fields, and an RFC 7807 body answered without its required title passed (a
// booking sweep's problem_missing_title escaped).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, isObject, MALFORMED, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';
import { startService } from '../runtime/helpers.js';

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 10 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, errors: [invalid] }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note, errors: [not_found] }
authentication:
  default: none
errors:
  body:
    media_type: application/problem+json
    fields:
      type: { type: string, optional: true }
      title: { type: string }
      status: { type: integer }
      detail: { type: string }
  codes:
    bad_body: { status: 400, when: [malformed_request] }
    invalid: { status: 422, when: [validation] }
    not_json: { status: 415, when: [unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

function start(withTitle: boolean): Promise<HandServer> {
  const notes = new Map<string, { id: string; text: string }>();
  return startHandServer((req, reply) => {
    const problem = (status: number, detail: string) =>
      reply.json(status, { type: 'about:blank', ...(withTitle ? { title: 'Refused' } : {}), status, detail }, 'application/problem+json');
    const one = /^\/notes\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const n = notes.get(decodeURIComponent(one[1]!));
      return n ? reply.json(200, n) : problem(404, 'no such note');
    }
    if (req.method !== 'POST' || req.url !== '/notes') return problem(404, 'no route');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return problem(415, 'not JSON');
    const b = readJson(req);
    if (b === MALFORMED) return problem(400, 'unreadable');
    const { text: t, ...rest } = isObject(b) ? b : { x: 1 };
    if (Object.keys(rest).length > 0 || codePoints(t) < 0 || codePoints(t) > 10) return problem(422, 'invalid');
    const n = { id: crypto.randomUUID(), text: t as string };
    notes.set(n.id, n);
    reply.json(201, n, 'application/json', { location: `/notes/${n.id}` });
  });
}

describe("a declared error body's required title", () => {
  let faithful: HandServer;
  let untitled: HandServer;
  beforeAll(async () => {
    faithful = await start(true);
    untitled = await start(false);
  });
  afterAll(() => {
    faithful?.close();
    untitled?.close();
  });
  const only = ['endpoints.invalid-requests', 'errors.missing-object'];
  const failed = async (url: string) =>
    (await testService(checkedModel(SPEC), { baseUrl: url, seed: 1, only })).results.filter((x) => x.outcome === 'failed').map((x) => x.failure?.actual ?? '');

  it('is held: a faithful service passes, one answering without it fails', async () => {
    expect(await failed(faithful.url)).toEqual([]);
    expect((await failed(untitled.url)).some((a) => a.includes("must have required property 'title'"))).toBe(true);
  }, 60_000);

  it('servicespec serve writes it: its own answers pass', async () => {
    const s = await startService(checkedModel(SPEC));
    try {
      expect(await failed(s.url)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);
});
