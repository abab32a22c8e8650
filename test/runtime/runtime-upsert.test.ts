// A replace with `upsert: true` (PUT /patients/{id}, no create operation): a PUT naming an identifier no object has
// makes it with that identifier (201, Location, defaults filled, validated as a create), one naming an existing object
// replaces it (200). Before, the PUT of a new identifier was answered 404. Both with the fast paths and without.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import { UPSERT_SPEC } from '../support/upsert-spec.js';
import { startService, type Running } from './helpers.js';

for (const fastPaths of [true, false])
  describe(`upsert (fast paths ${fastPaths ? 'on' : 'off'})`, () => {
    let s: Running;
    beforeAll(async () => {
      s = await startService(compileSpecText(UPSERT_SPEC()).checked!, { fastPaths });
    });
    afterAll(async () => {
      await s?.close();
    });

    it('creates under the path identifier (201, Location, defaults), then replaces (200); a read shows each', async () => {
      const made = await s.call('PUT', '/patients/P000001', { name: 'Ada' });
      expect(made.status).toBe(201);
      expect(made.headers.get('location')).toBe('/patients/P000001');
      expect(made.body).toEqual({ id: 'P000001', name: 'Ada', ward: 'general' });
      expect((await s.call('GET', '/patients/P000001')).body).toEqual({ id: 'P000001', name: 'Ada', ward: 'general' });
      const replaced = await s.call('PUT', '/patients/P000001', { name: 'Bea', ward: 'icu' });
      expect(replaced.status).toBe(200);
      expect(replaced.headers.get('location')).toBeNull();
      expect(replaced.body).toEqual({ id: 'P000001', name: 'Bea', ward: 'icu' });
      expect((await s.call('GET', '/patients/P000001')).body).toEqual({ id: 'P000001', name: 'Bea', ward: 'icu' });
      expect((await s.call('GET', '/patients')).body.items).toHaveLength(1);
    });

    it('validates a made object as a create: an id its pattern refuses, a missing required field', async () => {
      const bad = await s.call('PUT', '/patients/X1', { name: 'Ada' });
      expect(bad.status).toBe(422);
      expect(JSON.stringify(bad.body)).toContain('/id');
      expect((await s.call('PUT', '/patients/P000002', {})).status).toBe(422);
      expect((await s.call('GET', '/patients/P000002')).status).toBe(404);
    });

    it('two PUTs of one new identifier at once: each a success, one object', async () => {
      const both = await Promise.all([s.call('PUT', '/patients/P000003', { name: 'A' }), s.call('PUT', '/patients/P000003', { name: 'B' })]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 201]);
      expect((await s.call('GET', '/patients/P000003')).status).toBe(200);
    });
  });
