// A JSON merge patch (request_media_type: application/merge-patch+json) sent in an older served version: checked
// as the current version's is (a null removes an optional field, an object merges into the stored one), in that
// version's field names, then upgraded. Where the version adapter checked it with the plain update's schema, a null
// and a partial object were refused. On the test database (SQLite, or PostgreSQL with SERVICESPEC_TEST_DB=postgres).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startService, type Running } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      body: { type: string }
      reason: { type: string, optional: true }
      place: { type: object, optional: true, fields: { city: { type: string }, zip: { type: string, optional: true } } }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note }
    getNote: { method: GET, path: "/notes/{id}", action: read, resource: Note }
    patchNote: { method: PATCH, path: "/notes/{id}", action: update, resource: Note, request_media_type: application/merge-patch+json }
authentication:
  default: none
${PLAIN_ERRORS}    unsupported_version: { status: 400, when: [unsupported_version] }
versioning:
  scheme: semver
  current: 2.0.0
  placement: { query: api_version }
  default: current
  supported:
    - version: 1.0.0
      changes:
        - rename_field: { resource: Note, from: text, to: body }
`;

const PATCH = { 'content-type': 'application/merge-patch+json' };

describe('a merge patch in an older version', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(checkedModel(SPEC));
  });
  afterAll(async () => s?.close());

  for (const [version, name] of [
    ['2.0.0', 'body'],
    ['1.0.0', 'text'],
  ] as const) {
    it(`version ${version}: a null removes, an object merges, a required field's null is refused at its own name`, async () => {
      const q = `?api_version=${version}`;
      const made = await s.call('POST', `/notes${q}`, { [name]: 'a', reason: 'r', place: { city: 'c', zip: 'z' } });
      expect(made.status).toBe(201);
      const at = `/notes/${made.body.id as string}${q}`;
      const removed = await s.call('PATCH', at, JSON.stringify({ reason: null }), PATCH);
      expect([removed.status, removed.body]).toEqual([200, { id: made.body.id, [name]: 'a', place: { city: 'c', zip: 'z' } }]);
      const merged = await s.call('PATCH', at, JSON.stringify({ place: { zip: null }, [name]: 'b' }), PATCH);
      expect([merged.status, merged.body]).toEqual([200, { id: made.body.id, [name]: 'b', place: { city: 'c' } }]);
      const refused = await s.call('PATCH', at, JSON.stringify({ [name]: null }), PATCH);
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ pointer: `/${name}`, message: 'is required and not nullable: a merge patch cannot remove it' }]);
      const wrong = await s.call('PATCH', at, JSON.stringify({ place: { city: 7 } }), PATCH);
      expect(wrong.status).toBe(422);
      expect((await s.call('GET', at)).body).toEqual(merged.body);
    });
  }
});
