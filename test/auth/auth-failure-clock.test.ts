// The failed-credential bound (limits.failed_auth) counts on the authenticator's clock, as token lifetimes do: a
// test that moves the clock moves the bound, and no test of it waits on the wall clock.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Authenticator } from '../../src/runtime/runtime-context.js';
import { ServiceError } from '../../src/runtime/runtime-errors.js';
import { createService } from '../../src/runtime/service/runtime-service.js';
import { createSqliteStorage } from '../../src/runtime/storage/storage-sqlite.js';
import { compileSpecText } from '../../src/program.js';
import { createClock, startAuthService, type AuthServer } from './helpers.js';

const GUARDED = fileURLToPath(new URL('./fixtures/guarded.yaml', import.meta.url));
const ATTEMPTS = 5; // limits.failed_auth.attempts in guarded.yaml

let s: AuthServer;
beforeAll(async () => {
  s = await startAuthService({ spec: GUARDED });
});
afterAll(async () => {
  await s?.close();
});

it('a spent bound admits another attempt once the injected clock passes its Retry-After', async () => {
  const bad = { 'x-guarded-key': 'gk_never-issued-0123456789' };
  for (let i = 0; i < ATTEMPTS; i++) expect((await s.call('GET', '/notes', { headers: bad })).status).toBe(401);
  const refused = await s.call('GET', '/notes', { headers: bad });
  expect(refused.status).toBe(429);
  expect(refused.body.code).toBe('slow_down'); // guarded.yaml's code for rate_limited
  const seconds = Number(refused.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan(0);
  // Still refused a moment before the wait is over, admitted (and refused as a bad credential) once it is.
  s.clock.advance(seconds * 1000 - 1500);
  expect((await s.call('GET', '/notes', { headers: bad })).status).toBe(429);
  s.clock.advance(1500);
  const again = await s.call('GET', '/notes', { headers: bad });
  expect([again.status, again.body.code]).toEqual([401, 'invalid_credential']);
});

it("an embedding application's own authenticator is bounded on the service's clock too", async () => {
  const model = compileSpecText(`servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-Guarded-Key }
  default: { schemes: [key] }
limits:
  failed_auth: { attempts: ${ATTEMPTS}, per: 1m }
`).checked!;
  expect(model).toBeDefined();
  const clock = createClock();
  const storage = createSqliteStorage({ path: ':memory:' });
  // Refuses every credential, as one the service never issued.
  const own: Authenticator = {
    authenticate: () => {
      throw new ServiceError('invalid_credential', 'unknown key');
    },
  };
  const app = await createService(model, { storage, authenticator: own, allowGaps: true, now: clock.now });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const get = () => fetch(`${url}/notes`, { headers: { 'x-guarded-key': 'gk_never-issued-0123456789' } });
    for (let i = 0; i < ATTEMPTS; i++) expect((await get()).status).toBe(401);
    const refused = await get();
    expect(refused.status).toBe(429);
    clock.advance(Number(refused.headers.get('retry-after')) * 1000);
    expect((await get()).status).toBe(401);
  } finally {
    await app.close();
    await storage.close();
  }
});
