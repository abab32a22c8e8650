// A list's required filters (required_filters): a request without one is refused with the validation condition, in
// the declared error body, naming the parameter; with it the list is answered; another list of the same resource
// declaring none answers without any filter. Both with the fast paths and without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { PLAIN_ERRORS } from '../support/specs.js';
import { startService, type Running } from './helpers.js';

const SPEC = `
servicespec: 1
resources:
  Label:
    fields:
      id: { type: uuid, readOnly: true }
      project_id: { type: uuid }
      name: { type: string }
endpoints:
  operations:
    listLabels: { method: GET, path: /labels, action: list, resource: Label, filter: [project_id, name], required_filters: [project_id] }
    listAllLabels: { method: GET, path: /all-labels, action: list, resource: Label, filter: [project_id] }
    createLabel: { method: POST, path: /labels, action: create, resource: Label }
authentication:
  default: none
${PLAIN_ERRORS}`;

const P1 = '0190a8a4-0000-7000-8000-000000000001';
const P2 = '0190a8a4-0000-7000-8000-000000000002';

for (const fastPaths of [true, false])
  describe(`a list's required filters (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(compileSpecText(SPEC).checked!, { fastPaths });
      for (const [project_id, name] of [
        [P1, 'a'],
        [P1, 'b'],
        [P2, 'c'],
      ])
        expect((await s.call('POST', '/labels', { project_id, name })).status).toBe(201);
    });
    afterAll(async () => {
      await s?.close();
    });

    it('refuses a list without it (validation, the declared body, the parameter named)', async () => {
      for (const path of ['/labels', '/labels?name=a', '/labels?limit=1']) {
        const r = await s.call('GET', path);
        expect(r.status, path).toBe(422);
        expect(r.headers.get('content-type'), path).toContain('application/problem+json');
        expect(JSON.stringify(r.body), path).toContain('project_id');
        expect(JSON.stringify(r.body), path).toContain('is required');
      }
    });

    it('answers a list with it, filtered', async () => {
      const r = await s.call('GET', `/labels?project_id=${P1}`);
      expect(r.status).toBe(200);
      expect(r.body.items.map((l: { name: string }) => l.name).sort()).toEqual(['a', 'b']);
      const both = await s.call('GET', `/labels?project_id=${P1}&name=b`);
      expect(both.body.items.map((l: { name: string }) => l.name)).toEqual(['b']);
      // An invalid value is refused as before (a filter value no object can hold).
      expect((await s.call('GET', '/labels?project_id=nope')).status).toBe(422);
    });

    it('a list declaring none answers without any filter', async () => {
      const r = await s.call('GET', '/all-labels');
      expect(r.status).toBe(200);
      expect(r.body.items).toHaveLength(3);
    });
  });
