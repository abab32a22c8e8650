// The failed-credential bound (limits.failed_auth) counts on the authenticator's clock, as token lifetimes do: a
// test that moves the clock moves the bound, and no test of it waits on the wall clock.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAuthService, type AuthServer } from './helpers.js';

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
