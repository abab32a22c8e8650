// `serve --cors ORIGIN`: a browser's preflight and its actual request, over real HTTP; nothing when the option is off.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, freePort, startCli, type ServeProcess } from './cli-helpers.js';

const ORDERS = EXAMPLES[2]!;
const HANDLERS = join(ORDERS, '..', 'orders-handlers.js');
const APP = 'http://app.example.test';

async function serve(extra: string[]): Promise<{ base: string; p: ServeProcess }> {
  const port = await freePort();
  const p = startCli(['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--log', 'silent', '--handlers', HANDLERS, '--port', String(port), ...extra]);
  await p.waitFor(/serving .* at http:/);
  return { base: `http://127.0.0.1:${port}`, p };
}

const preflight = (base: string, path: string, origin: string, method = 'POST') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, x-api-key' },
  });

describe('serve --cors', { timeout: 180_000 }, () => {
  let on: { base: string; p: ServeProcess };
  let off: { base: string; p: ServeProcess };
  beforeAll(async () => {
    [on, off] = await Promise.all([serve(['--cors', `${APP},http://other.test`, '--cors', 'http://third.test']), serve([])]);
  });
  afterAll(async () => {
    await Promise.all([on?.p.stop(), off?.p.stop()]);
  });

  it('answers the preflight for a declared path with its methods and the spec credential headers', async () => {
    const r = await preflight(on.base, '/orders', APP);
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe(APP);
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
    const allowHeaders = r.headers.get('access-control-allow-headers')!.split(', ');
    expect(allowHeaders).toEqual(expect.arrayContaining(['content-type', 'x-api-key', 'authorization']));
    expect(r.headers.get('vary')).toContain('Origin');
    // Every origin given, comma-separated or repeated.
    expect((await preflight(on.base, '/orders', 'http://third.test')).headers.get('access-control-allow-origin')).toBe('http://third.test');
  });

  it('the actual request carries Access-Control-Allow-Origin, on errors too', async () => {
    const r = await fetch(`${on.base}/orders`, { headers: { origin: APP } });
    expect(r.status).toBe(401);
    expect(r.headers.get('access-control-allow-origin')).toBe(APP);
    expect(r.headers.get('access-control-expose-headers')).toContain('www-authenticate');
    expect(((await r.json()) as { code: string }).code).toBe('unauthenticated');
  });

  it('an origin not allowed gets no CORS headers; an undeclared path keeps its declared route_not_found body', async () => {
    const r = await preflight(on.base, '/orders', 'http://evil.test');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(r.headers.get('access-control-allow-methods')).toBeNull();
    const missing = await preflight(on.base, '/nowhere', APP);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found'); // the spec's code for route_not_found
  });

  it('without --cors: no CORS headers, a preflight is route_not_found as before', async () => {
    const r = await preflight(off.base, '/orders', APP);
    expect(r.status).toBe(404);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const actual = await fetch(`${off.base}/orders`, { headers: { origin: APP } });
    expect(actual.headers.get('access-control-allow-origin')).toBeNull();
  });
});
