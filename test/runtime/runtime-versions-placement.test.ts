import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { startService, type Running } from './helpers.js';

// Where a request names its version, and which version one naming none gets: a version in the media type
// (`placement.media_type`, a template with `{version}` where the version goes), and `default: oldest` decided per
// request against the runtime's clock (a version past its sunset is no longer the oldest served).

const SPEC = `
servicespec: 1
resources:
  Bed:
    fields:
      id: { type: uuid, readOnly: true }
      label: { type: string }
      crop: { type: string, optional: true }
endpoints:
  operations:
    addBed: { method: POST, path: /beds, action: create, resource: Bed }
    getBed: { method: GET, path: "/beds/{id}", action: read, resource: Bed }
authentication:
  default: none
errors:
  body: problem
  codes:
    invalid: { status: 422, when: [validation] }
    version: { status: 406, when: [unsupported_version] }
    unreadable: { status: 400, when: [malformed_request] }
    notjson: { status: 415, when: [unsupported_media_type] }
versioning:
  scheme: integer
  current: 3
  placement: { VERSION_PLACEMENT }
  default: oldest
  supported:
    - version: 2
      SUNSET_2
      changes: [{ rename_field: { resource: Bed, from: plant, to: crop } }]
    - version: 1
      sunset: "2026-01-01"
      changes: [{ add_field: { resource: Bed, field: plant } }]
`;

function model(placement: string, fallback = 'oldest', sunset2 = ''): ServiceModel {
  const text = SPEC.replace('VERSION_PLACEMENT', placement).replace('default: oldest', `default: ${fallback}`).replace('SUNSET_2', sunset2);
  const c = compileSpecText(text, 'open.yaml');
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return c.model!;
}

describe('versioning placed in the media type ("the media type, with {version} where the version goes")', () => {
  let s: Running;
  const V = (n: number) => `application/vnd.garden.v${n}+json`;
  const answered = (n: number) => `${V(n)}; charset=utf-8`;
  beforeAll(async () => {
    s = await startService(model('media_type: "application/vnd.garden.v{version}+json"', 'current'));
  });
  afterAll(async () => s?.close());

  // The old runtime read the placement as the name of a media type parameter
  // (`Accept: application/json; application/vnd.garden.v{version}+json=2`): this Accept named no version there.
  it('Accept: application/vnd.garden.v2+json is served as version 2, answered as that media type', async () => {
    const bed = await s.call('POST', '/beds', { label: 'A', crop: 'kale' }, { accept: V(3) });
    expect(bed.status).toBe(201);
    expect(bed.headers.get('content-type')).toBe(answered(3));
    const old = await s.call('GET', `/beds/${bed.body.id}`, undefined, { accept: V(2) });
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ plant: 'kale' });
    expect(old.body.crop).toBeUndefined();
    expect(old.headers.get('content-type')).toBe(answered(2));
    expect(old.headers.get('vary')).toBe('Accept');
  });

  it("a body sent as a version's media type is parsed as JSON and read in that version", async () => {
    const bed = await s.call('POST', '/beds', { label: 'B', plant: 'leek' }, { 'content-type': V(2), accept: V(2) });
    expect(bed.status).toBe(201);
    expect(bed.body).toMatchObject({ plant: 'leek' });
    expect(bed.headers.get('content-type')).toBe(answered(2));
    const now = await s.call('GET', `/beds/${bed.body.id}`, undefined, { accept: V(3) });
    expect(now.body).toMatchObject({ crop: 'leek' });
    // Content-Type alone names the version as well.
    const typed = await s.call('POST', '/beds', { label: 'C', plant: 'bean' }, { 'content-type': V(2) });
    expect(typed.status).toBe(201);
    expect(typed.body).toMatchObject({ plant: 'bean' });
  });

  it('the media type is matched without regard to case, among other ranges, and not with q=0', async () => {
    const bed = await s.call('POST', '/beds', { label: 'D', crop: 'pea' });
    const mixed = await s.call('GET', `/beds/${bed.body.id}`, undefined, { accept: 'text/html, Application/VND.Garden.V2+JSON;q=0.9, */*;q=0.1' });
    expect(mixed.body).toMatchObject({ plant: 'pea' });
    const refused = await s.call('GET', `/beds/${bed.body.id}`, undefined, { accept: `${V(2)};q=0, application/json` });
    expect(refused.body).toMatchObject({ crop: 'pea' });
  });

  it('no version named (application/json, */*, none) is the default, answered as its media type', async () => {
    const bed = await s.call('POST', '/beds', { label: 'E', crop: 'rye' }, { accept: 'application/json' });
    expect(bed.status).toBe(201);
    for (const accept of ['application/json', '*/*', undefined]) {
      const read = await s.call('GET', `/beds/${bed.body.id}`, undefined, accept === undefined ? {} : { accept });
      expect(read.body).toMatchObject({ crop: 'rye' });
      expect(read.headers.get('content-type')).toBe(answered(3));
    }
  });

  it('a version the spec does not serve, in Accept or Content-Type, is unsupported_version (errors keep their own type)', async () => {
    const read = await s.call('GET', '/beds/00000000-0000-4000-8000-000000000000', undefined, { accept: V(9) });
    expect(read.status).toBe(406);
    expect(read.body.code).toBe('version');
    expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const sent = await s.call('POST', '/beds', { label: 'F' }, { 'content-type': V(9) });
    expect(sent.body.code).toBe('version');
    const past = await s.call('GET', '/beds/00000000-0000-4000-8000-000000000000', undefined, { accept: V(1) });
    expect(past.body.code).toBe('version');
  });

  it('Accept and Content-Type naming two versions is unsupported_version', async () => {
    const r = await s.call('POST', '/beds', { label: 'G', crop: 'oat' }, { 'content-type': V(2), accept: V(3) });
    expect(r.status).toBe(406);
    expect(r.body.code).toBe('version');
    expect(r.body.detail).toBe('Accept names version 3 and Content-Type version 2; name one version (served: 3, 2, 1)');
  });

  it('an error of a versioned request is not answered as the versioned media type', async () => {
    const r = await s.call('POST', '/beds', '{"label":', { 'content-type': V(3) });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('versioning in a parameter of the media type (application/json; v={version})', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(model('media_type: "application/json; v={version}"', 'current'));
  });
  afterAll(async () => s?.close());

  it('reads the parameter, ignores others, and answers with it filled', async () => {
    const bed = await s.call('POST', '/beds', { label: 'A', plant: 'kale' }, { 'content-type': 'application/json; charset=utf-8; v=2' });
    expect(bed.status).toBe(201);
    expect(bed.body).toMatchObject({ plant: 'kale' });
    expect(bed.headers.get('content-type')).toBe('application/json; v=2; charset=utf-8');
    const read = await s.call('GET', `/beds/${bed.body.id}`, undefined, { accept: 'application/json;V="3"' });
    expect(read.body).toMatchObject({ crop: 'kale' });
    expect(read.headers.get('content-type')).toBe('application/json; v=3; charset=utf-8');
    const plain = await s.call('GET', `/beds/${bed.body.id}`, undefined, { accept: 'application/json' });
    expect(plain.headers.get('content-type')).toBe('application/json; v=3; charset=utf-8');
  });
});

describe('default: oldest, with the oldest supported version past its sunset', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(model('query: api'));
  });
  afterAll(async () => s?.close());

  it('named, the version past its sunset is refused', async () => {
    expect((await s.call('GET', '/beds/00000000-0000-4000-8000-000000000000?api=1')).body.code).toBe('version');
  });

  // The old runtime took `oldest` as the last supported entry whatever its sunset, resolved once at start-up: version 1
  // (sunset 2026-01-01) was still served to a request naming none, with a Sunset header in the past.
  it('a request naming no version is served the oldest version still served (2), not the one past its sunset', async () => {
    const bed = await s.call('POST', '/beds?api=3', { label: 'A', crop: 'kale' });
    expect(bed.status).toBe(201);
    const read = await s.call('GET', `/beds/${bed.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ plant: 'kale' });
    expect(read.headers.get('sunset')).toBeNull();
  });
});

describe("default: oldest, decided per request against the runtime's clock", () => {
  let s: Running;
  let t = new Date('2025-12-31T23:59:00Z');
  beforeAll(async () => {
    s = await startService(model('header: Api-Version', 'oldest', 'sunset: "2027-01-01"'), { now: () => t });
  });
  afterAll(async () => s?.close());

  it('moves to the next version as the clock crosses each sunset, then to the current one', async () => {
    const bed = await s.call('POST', '/beds', { label: 'A', crop: 'kale' }, { 'api-version': '3' });
    expect(bed.status).toBe(201);
    const read = () => s.call('GET', `/beds/${bed.body.id}`);
    // Before version 1's sunset: version 1, which has neither name for the field.
    let r = await read();
    expect(r.headers.get('api-version')).toBe('1');
    expect(r.body.crop).toBeUndefined();
    expect(r.body.plant).toBeUndefined();
    expect((await s.call('GET', `/beds/${bed.body.id}`, undefined, { 'api-version': '1' })).status).toBe(200);
    t = new Date('2026-01-01T00:00:00Z');
    r = await read();
    expect(r.headers.get('api-version')).toBe('2');
    expect(r.body).toMatchObject({ plant: 'kale' });
    expect((await s.call('GET', `/beds/${bed.body.id}`, undefined, { 'api-version': '1' })).body.code).toBe('version');
    t = new Date('2027-01-01T00:00:00Z');
    r = await read();
    expect(r.headers.get('api-version')).toBe('3');
    expect(r.body).toMatchObject({ crop: 'kale' });
    expect(r.headers.get('sunset')).toBeNull();
  });
});

describe('a version in the media type: the event stream, answers without a body, and default: required', () => {
  let s: Running;
  const V = (n: number) => `application/vnd.garden.v${n}+json`;
  beforeAll(async () => {
    const text = SPEC.replace('VERSION_PLACEMENT', 'media_type: "application/vnd.garden.v{version}+json"')
      .replace('default: oldest', 'default: required')
      .replace('SUNSET_2', '')
      .replace(
        '    getBed: { method: GET, path: "/beds/{id}", action: read, resource: Bed }',
        '    getBed: { method: GET, path: "/beds/{id}", action: read, resource: Bed }\n    dropBed: { method: DELETE, path: "/beds/{id}", action: delete, resource: Bed }',
      )
      .replace(
        'authentication:',
        'events:\n  delivery:\n    stream: { path: /events, heartbeat: 200ms }\n  kinds:\n    bed.added: { payload: { resource: Bed }, on: [create] }\nauthentication:',
      )
      .replace('    notjson:', '    missing: { status: 404, when: [missing_resource, route_not_found] }\n    notjson:');
    const c = compileSpecText(text, 'stream.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    s = await startService(c.model!);
  });
  afterAll(async () => s?.close());

  it('refuses a request naming no version, and serves one naming it', async () => {
    expect((await s.call('POST', '/beds', { label: 'A' })).body.code).toBe('version');
    expect((await s.call('POST', '/beds', { label: 'A' }, { accept: V(3) })).status).toBe(201);
  });

  it('a delete is answered 204 without a body', async () => {
    const bed = await s.call('POST', '/beds', { label: 'B' }, { 'content-type': V(3) });
    const gone = await s.call('DELETE', `/beds/${bed.body.id}`, undefined, { accept: V(3) });
    expect(gone.status).toBe(204);
    expect(gone.body).toBeUndefined();
  });

  it('the event stream names no version: text/event-stream is served (events in the current version)', async () => {
    const controller = new AbortController();
    const res = await fetch(`${s.url}/events`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
  });
});

describe('a version that is not served, or named twice', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(model('header: Api-Version', 'oldest', 'sunset: "2099-01-01"'), { now: () => new Date('2026-06-01T00:00:00Z') });
  });
  afterAll(async () => s?.close());

  // One setup sent its API key in the version header, and the answer echoed it back.
  it('unsupported_version does not echo the value sent; it names the versions served', async () => {
    const r = await s.call('GET', '/beds/00000000-0000-4000-8000-000000000000', undefined, { 'api-version': 'sk_live_secret123' });
    expect(r.body.code).toBe('version');
    expect(JSON.stringify(r.body)).not.toContain('sk_live_secret123');
    expect(r.body.detail).toBe('the version named is not served; served: 3, 2, 1');
  });

  it('an answer whose version a header chose says so to caches: Vary names the header', async () => {
    const bed = await s.call('POST', '/beds', { label: 'V', crop: 'kale' }, { 'api-version': '3' });
    expect(bed.status).toBe(201);
    expect(bed.headers.get('vary')).toBe('Api-Version');
    const old = await s.call('GET', `/beds/${bed.body.id}`, undefined, { 'api-version': '2' });
    expect(old.headers.get('vary')).toBe('Api-Version');
  });

  it('the version header sent twice is malformed_request, on two lines or listed on one', async () => {
    const url = new URL(`${s.url}/beds/00000000-0000-4000-8000-000000000000`);
    const twice = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { headers: { 'api-version': ['3', '2'] } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(twice.status).toBe(400);
    expect(JSON.parse(twice.body)).toMatchObject({ code: 'unreadable', detail: 'the Api-Version header is sent more than once; name one version' });
    const listed = await s.call('GET', '/beds/00000000-0000-4000-8000-000000000000', undefined, { 'api-version': '3, 2' });
    expect(listed.status).toBe(400);
    expect(listed.body).toMatchObject({ code: 'unreadable', detail: 'the Api-Version header names more than one value; name one version' });
  });

  it('the version query parameter sent twice is malformed_request', async () => {
    const q = await startService(model('query: v', 'oldest', 'sunset: "2099-01-01"'), { now: () => new Date('2026-06-01T00:00:00Z') });
    try {
      const r = await q.call('GET', '/beds/00000000-0000-4000-8000-000000000000?v=3&v=2');
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'unreadable', detail: 'the v parameter is sent more than once; name one version' });
    } finally {
      await q.close();
    }
  });
});
