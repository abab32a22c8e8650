// An update whose request is a JSON merge patch (`request_media_type: application/merge-patch+json`, RFC 7396),
// served on the test database with the fast paths and without: it reads that media type only (application/json is
// unsupported_media_type), a null removes an optional field and nulls a required nullable one, a null on a
// required non-nullable field is validation at its pointer, and an object merges into the stored one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { startService, type Running } from './helpers.js';
import { PLAIN_ERRORS } from '../support/specs.js';

const SPEC = `
servicespec: 1
resources:
  Project:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string }
      description: { type: string, nullable: true }
      note: { type: string, optional: true }
      label: { type: string, optional: true, writeOnce: true }
      closed_at: { type: datetime, optional: true, readOnly: true }
      settings:
        type: object
        optional: true
        fields:
          color: { type: string }
          icon: { type: string, optional: true }
          motto: { type: string, nullable: true }
endpoints:
  operations:
    addProject: { method: POST, path: /projects, action: create, resource: Project }
    getProject: { method: GET, path: "/projects/{id}", action: read, resource: Project }
    patchProject: { method: PATCH, path: "/projects/{id}", action: update, resource: Project, request_media_type: application/merge-patch+json }
authentication:
  default: none
${PLAIN_ERRORS}`;

const PATCH = { 'content-type': 'application/merge-patch+json' };

for (const fastPaths of [true, false]) {
  describe(`a merge-patch update served (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    let id: string;
    beforeAll(async () => {
      const c = compileSpecText(SPEC);
      expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      s = await startService(c.model!, { fastPaths });
    });
    afterAll(() => s.close());

    const make = async () => {
      const made = await s.call('POST', '/projects', {
        name: 'Garden',
        description: 'Beds',
        note: 'n',
        settings: { color: 'green', icon: 'leaf', motto: 'grow' },
      });
      expect(made.status).toBe(201);
      id = made.body.id as string;
    };

    it('reads application/merge-patch+json only: application/json is unsupported_media_type', async () => {
      await make();
      const json = await s.call('PATCH', `/projects/${id}`, { name: 'Yard' });
      expect(json.status).toBe(415);
      expect(JSON.stringify(json.body)).toContain('application/merge-patch+json');
      const patched = await s.call('PATCH', `/projects/${id}`, { name: 'Yard' }, PATCH);
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ name: 'Yard', description: 'Beds', note: 'n' });
    });

    it('a null on a field the update does not take (write-once, read-only) is refused as any value there, and nothing is cleared', async () => {
      const made = await s.call('POST', '/projects', { name: 'Orchard', description: null, label: 'first' });
      expect(made.status).toBe(201);
      for (const body of [{ label: null }, { closed_at: null }, { label: null, name: 'Grove' }]) {
        const r = await s.call('PATCH', `/projects/${made.body.id}`, body, PATCH);
        expect(r.status, JSON.stringify(body)).toBe(422);
        expect(r.body.code).toBe('invalid');
      }
      expect((await s.call('GET', `/projects/${made.body.id}`)).body).toMatchObject({ name: 'Orchard', label: 'first' });
    });

    it('a null removes an optional field and nulls a required nullable one; kept when read back', async () => {
      await make();
      const patched = await s.call('PATCH', `/projects/${id}`, { note: null, description: null }, PATCH);
      expect(patched.status).toBe(200);
      expect(patched.body).not.toHaveProperty('note');
      expect(patched.body.description).toBeNull();
      const read = await s.call('GET', `/projects/${id}`);
      expect(read.body).not.toHaveProperty('note');
      expect(read.body.description).toBeNull();
      expect(read.body.name).toBe('Garden');
    });

    it('a null on a required field that is not nullable is validation at its pointer, and nothing changes', async () => {
      await make();
      const refused = await s.call('PATCH', `/projects/${id}`, { name: null, note: 'changed' }, PATCH);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toContain('/name');
      const nested = await s.call('PATCH', `/projects/${id}`, { settings: { color: null } }, PATCH);
      expect(nested.status).toBe(422);
      expect(JSON.stringify(nested.body)).toContain('/settings/color');
      expect((await s.call('GET', `/projects/${id}`)).body).toMatchObject({ name: 'Garden', note: 'n', settings: { color: 'green' } });
    });

    it('an object merges into the stored one: members kept, changed, removed (optional) or nulled (nullable)', async () => {
      await make();
      const patched = await s.call('PATCH', `/projects/${id}`, { settings: { color: 'blue', icon: null, motto: null } }, PATCH);
      expect(patched.status).toBe(200);
      expect(patched.body.settings).toEqual({ color: 'blue', motto: null });
      const kept = await s.call('PATCH', `/projects/${id}`, { settings: { motto: 'again' } }, PATCH);
      expect(kept.body.settings).toEqual({ color: 'blue', motto: 'again' });
      // The object removed whole, then a patch into nothing must hold its required members.
      expect((await s.call('PATCH', `/projects/${id}`, { settings: null }, PATCH)).body).not.toHaveProperty('settings');
      const partial = await s.call('PATCH', `/projects/${id}`, { settings: { icon: 'sun' } }, PATCH);
      expect(partial.status).toBe(422);
      expect(JSON.stringify(partial.body)).toContain('color');
      expect((await s.call('GET', `/projects/${id}`)).body).not.toHaveProperty('settings');
    });

    it('a value of the wrong type is validation, checked before the object is read', async () => {
      await make();
      expect((await s.call('PATCH', `/projects/${id}`, { name: 7 }, PATCH)).status).toBe(422);
      expect((await s.call('PATCH', '/projects/00000000-0000-4000-8000-000000000000', { name: 'x' }, PATCH)).status).toBe(404);
    });
  });
}
