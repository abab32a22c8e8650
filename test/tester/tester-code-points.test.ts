// String lengths are counted in code points (JSON Schema), not UTF-16 code units. A service checking `s.length`
// refuses a valid string of maxLength code points some of which are astral (an emoji is two UTF-16 units), and
// takes a string one code point short of minLength whose astral characters make it long enough in UTF-16. The
// edges sent were ASCII at the bounds, and the full-Unicode edge at most 60 code points: a maxLength of 100 counted
// in UTF-16, and any minLength counted so, escaped (an outside review's notes service). Now the upper edge is also
// sent in astral characters, and the short string too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMutations } from '../../src/tester/tester-arbitraries.js';
import { getEdgeCases } from '../../src/tester/tester-input-edges.js';
import { testService } from '../../src/tester/tester-run.js';
import { codePoints, isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, minLength: 3, maxLength: 100 }
      code: { type: string, pattern: '^[A-Z]{2,6}$', maxLength: 6, optional: true }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: '/notes/{id}', action: read, resource: Note }
authentication:
  default: none
errors:
  codes:
    invalid: { status: 422, when: [validation, malformed_request, unsupported_media_type] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

type Mode = 'faithful' | 'utf16-max' | 'utf16-min';

function start(mode: Mode): Promise<HandServer> {
  const notes = new Map<string, Record<string, unknown>>();
  // The fault planted: one bound counted in UTF-16 code units (`s.length`), as a JavaScript service does.
  const min = (s: string) => (mode === 'utf16-min' ? s.length : codePoints(s)) >= 3;
  const max = (s: string) => (mode === 'utf16-max' ? s.length : codePoints(s)) <= 100;
  const valid = (b: Record<string, unknown>) =>
    typeof b.title === 'string' &&
    min(b.title) &&
    max(b.title) &&
    (b.code === undefined || (typeof b.code === 'string' && /^[A-Z]{2,6}$/.test(b.code))) &&
    Object.keys(b).every((k) => k === 'title' || k === 'code');
  return startHandServer((req, reply) => {
    const one = /^\/notes\/([^/?]+)$/.exec(req.url);
    if (req.method === 'GET' && one) {
      const n = notes.get(decodeURIComponent(one[1]!));
      return n ? reply.json(200, n) : reply.problem(404, 'not_found');
    }
    if (req.method !== 'POST' || req.url !== '/notes') return reply.problem(404, 'not_found');
    const b = readJson(req);
    if (!isObject(b) || !valid(b)) return reply.problem(422, 'invalid');
    const made = { id: crypto.randomUUID(), ...b };
    notes.set(made.id, made);
    reply.json(201, made, 'application/json', { location: `/notes/${made.id}` });
  });
}

describe('string lengths counted in UTF-16 code units', () => {
  const servers: Partial<Record<Mode, HandServer>> = {};
  beforeAll(async () => {
    for (const mode of ['faithful', 'utf16-max', 'utf16-min'] as const) servers[mode] = await start(mode);
  });
  afterAll(() => {
    for (const s of Object.values(servers)) s.close();
  });
  const failed = async (mode: Mode, seed: number) =>
    (await testService(checkedModel(SPEC), { baseUrl: servers[mode]!.url, seed, only: ['endpoints.input-space', 'endpoints.invalid-requests'] })).results
      .filter((r) => r.outcome === 'failed')
      .map((r) => `${r.check} ${r.target}`);

  it.each([1, 2, 3])('seed %i: a faithful service passes; maxLength and minLength counted in UTF-16 each fail', async (seed) => {
    expect(await failed('faithful', seed)).toEqual([]);
    expect(await failed('utf16-max', seed)).toContain('endpoints.input-space createNote');
    expect((await failed('utf16-min', seed)).some((f) => f.startsWith('endpoints.invalid-requests createNote: title shorter than minLength 3'))).toBe(true);
  });
});

it('the astral edge is exactly maxLength code points, more UTF-16 units; a patterned field that refuses it keeps its value', () => {
  const model = checkedModel(SPEC);
  const note = model.resources.find((r) => r.name === 'Note')!;
  const base = { title: 'abc', code: 'AB' };
  const astral = getEdgeCases(model, note.fields, note, 'create', base).find((c) => c.label.includes('astral (two UTF-16'))!;
  const title = astral.body.title as string;
  expect(codePoints(title)).toBe(100);
  expect(title.length).toBeGreaterThan(100);
  expect(astral.body.code).toBe('AB');
  const short = getMutations(model, note.fields, note, 'create').find((m) => m.label.startsWith('title shorter than minLength 3 in code points'))!;
  const sent = short.apply(base).title as string;
  expect([codePoints(sent), sent.length]).toEqual([2, 4]);
});
