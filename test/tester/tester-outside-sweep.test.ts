// What a second outside sweep found (a hand-written Events and Registrations service, planted faults, the tester
// run from its OpenAPI document): each false failure and each fault let through, held here against the real
// runtime, through a mutating proxy where a fault is needed.
// - addresses drawn from a space so small that one repeats in a run (a@example.com), failing a faithful service
//   that keeps one registration per address;
// - a time sort held to the text's order: 10:00+05:00 is before 06:00Z;
// - a bad credential sent to a merge-patch update as application/json (415, not 401, from servicespec serve itself),
//   and a merge patch's reproduction showing application/json;
// - a date field never sent a date-time (a service parsing any time takes it), a list under one parent answering
//   another's objects, a malformed identifier sent under an empty parent segment (the parent's 404 answered first),
//   a sort by a field it does not sort on never sent.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldArbitrary, getMutations } from '../../src/tester/tester-arbitraries.js';
import { checkSortOrder } from '../../src/tester/tester-checks-lists.js';
import type { TestContext } from '../../src/tester/tester-context.js';
import { testService } from '../../src/tester/tester-run.js';
import { getOperationRoute, type OperationRoute } from '../../src/model/model-routes.js';
import { loadModel, startService, type Running } from '../runtime/helpers.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy } from './mutant-proxy.js';

const BOUND = new URL('../fixtures/bound-parent-ref.yaml', import.meta.url).pathname;

const EVENTS = `
servicespec: 1
resources:
  Event:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 40 }
      starts_at: { type: datetime }
      deadline: { type: date, optional: true }
      contact: { type: email }
      room: { type: string, optional: true, nullable: true }
endpoints:
  operations:
    createEvent: { method: POST, path: /events, action: create, resource: Event, auth: { schemes: [key] } }
    getEvent: { method: GET, path: '/events/{id}', action: read, resource: Event, auth: { schemes: [key] } }
    listEvents: { method: GET, path: /events, action: list, resource: Event, sort: [starts_at], auth: { schemes: [key] } }
    patchEvent:
      { method: PATCH, path: '/events/{id}', action: update, resource: Event, request_media_type: application/merge-patch+json, auth: { schemes: [key] } }
authentication:
  schemes:
    key: { type: api_key, in: header, name: X-Key }
${PLAIN_ERRORS}    unauthorized: { status: 401, when: [missing_credential, invalid_credential, expired_credential] }
`;

describe('generated values', () => {
  it('an email field draws addresses that do not repeat within a run', () => {
    const model = checkedModel(EVENTS);
    const contact = model.resources[0]!.fields.find((f) => f.name === 'contact')!;
    const drawn = fc.sample(fieldArbitrary(model, contact, model.resources[0]), { seed: 1, numRuns: 300 }) as string[];
    expect(new Set(drawn).size).toBe(300);
    for (const a of drawn) expect(a).toMatch(/^[a-z][a-z0-9]{0,3}\.[0-9a-f]{6}@example\.(com|org)$/);
  });

  it('a date field is sent a date-time, a date-time field a date, as invalid requests', () => {
    const model = checkedModel(EVENTS);
    const r = model.resources[0]!;
    const labels = getMutations(model, r.fields, r, 'create').map((m) => m.label);
    expect(labels).toContain('deadline a date-time, not a date');
    expect(labels).toContain('starts_at a date, not a date-time');
  });
});

describe('a time sort', () => {
  it('is in order as instants or as text: 10:00+05:00 before 06:00Z is no failure; out of both orders is', async () => {
    const model = checkedModel(EVENTS);
    const route = getOperationRoute(model, 'listEvents') as OperationRoute;
    const ctx = {
      failure: (operation: string, expected: string, pointer: unknown, req: unknown, actual: string) => ({ operation, expected, actual }),
      client: { curlPages: () => '' },
    } as unknown as TestContext;
    const seen = (...times: string[]) => times.map((starts_at) => ({ starts_at }));
    const req = { method: 'GET', path: '/events?sort=starts_at' };
    expect(await checkSortOrder(ctx, route, 'starts_at', seen('2030-01-01T10:00:00+05:00', '2030-01-01T06:00:00Z'), req, [])).toBeUndefined();
    expect(await checkSortOrder(ctx, route, 'starts_at', seen('2030-01-01T06:00:00Z', '2030-01-01T10:00:00+05:00'), req, [])).toBeUndefined();
    expect(await checkSortOrder(ctx, route, 'starts_at', seen('2030-01-02T06:00:00Z', '2030-01-01T06:00:00Z'), req, [])).toMatchObject({
      expected: 'items ordered by starts_at',
    });
  });
});

describe('against the runtime', () => {
  let s: OrdersServer;
  beforeAll(async () => {
    s = await startSpecText('events.yaml', EVENTS);
  });
  afterAll(async () => s?.close());

  it('passes every endpoints, authentication and errors check: the bad credential reaches the merge patch as its type', async () => {
    const report = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints', 'authentication', 'errors'] });
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
    expect(report.results.find((r) => r.check === 'authentication.bad-credential' && r.target === 'patchEvent')?.outcome).toBe('passed');
  }, 60_000);

  it('a merge patch refused as another type shows its own Content-Type in the reproduction', async () => {
    // The service takes plain JSON updates; the spec says merge patch: every patch is refused 415, and the curl shows why.
    const plain = await startSpecText('events-plain.yaml', EVENTS.replace(', request_media_type: application/merge-patch+json', ''));
    try {
      const report = await testService(s.model, { baseUrl: plain.url, ...plain.options, seed: 1, only: ['endpoints.valid-requests'] });
      const failed = report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'patchEvent' && r.outcome === 'failed');
      expect(failed?.failure?.curl).toContain('content-type: application/merge-patch+json');
    } finally {
      await plain.close();
    }
  }, 60_000);
});

describe('a nested list through a mutating proxy (bound-parent-ref.yaml)', () => {
  let s: Running;
  beforeAll(async () => {
    s = await startService(loadModel(BOUND));
  });
  afterAll(async () => s?.close());

  const runThrough = async (hooks: Parameters<typeof startProxy>[1]) => {
    const proxy = await startProxy(s.url, hooks);
    try {
      return await testService(loadModel(BOUND), { baseUrl: proxy.url, seed: 1, only: ['endpoints', 'errors'] });
    } finally {
      await proxy.close();
    }
  };

  it('the runtime itself passes', async () => {
    const report = await runThrough({});
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
  }, 60_000);

  it("a list answering another project's tasks is caught (endpoints.valid-requests)", async () => {
    const other = '0190a0b0-0000-7000-8000-0000000000aa';
    const report = await runThrough({
      response(res, req) {
        if (req.method !== 'GET' || !/^\/projects\/[^/]+\/tasks(\?|$)/.test(req.path) || res.status !== 200) return res;
        const page = JSON.parse(res.body.toString()) as { items: Record<string, unknown>[] };
        page.items = page.items.map((t) => ({ ...t, project_id: other }));
        const body = Buffer.from(JSON.stringify(page));
        return { ...res, headers: { ...res.headers, 'content-length': String(body.length) }, body };
      },
    });
    const failed = report.results.filter((r) => r.outcome === 'failed' && r.check === 'endpoints.valid-requests' && r.target === 'listTasks');
    expect(failed.map((r) => r.failure?.expected)).toEqual([expect.stringContaining('only items whose project_id is')]);
  }, 60_000);

  it('a malformed task id is sent under a project that exists; one answered 500 there is caught', async () => {
    const paths: string[] = [];
    const report = await runThrough({
      request(req) {
        if (/^\/projects\/[^/]*\/tasks\/not-a-uuid/.test(req.path)) {
          paths.push(req.path);
          if (!req.path.startsWith('/projects//')) return { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') };
        }
        return req;
      },
    });
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => p.startsWith('/projects//'))).toEqual([]);
    expect(report.results.some((r) => r.outcome === 'failed' && r.check === 'errors.malformed-id' && r.target === 'getTask')).toBe(true);
  }, 60_000);
});

describe('a sort by a field it does not sort on', () => {
  it('is sent, and a 500 to it is caught', async () => {
    const s = await startSpecText('events.yaml', EVENTS);
    const proxy = await startProxy(s.url, {
      request: (req) =>
        req.path.includes('sort=__no_such_field__') ? { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') } : req,
    });
    try {
      const report = await testService(s.model, { baseUrl: proxy.url, ...s.options, seed: 1, only: ['endpoints.list-edges', 'endpoints.no-server-error'] });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => r.check)).toContain('endpoints.list-edges');
    } finally {
      await proxy.close();
      await s.close();
    }
  }, 60_000);
});

describe('a read-only member where no rule makes the service refuse it (no code declares validation, none stated)', () => {
  const ITEMS = `
servicespec: 1
resources:
  Item:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    createItem: { method: POST, path: /items, action: create, resource: Item }
    getItem: { method: GET, path: '/items/{id}', action: read, resource: Item }
authentication:
  default: none
errors:
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;
  it('is sent: refused with a client error passes, taken and stored (answered as sent) fails', async () => {
    const s = await startService(checkedModel(ITEMS));
    const storing = await startProxy(s.url, {
      async response(res, req, send) {
        if (req.method !== 'POST' || req.path !== '/items') return res;
        const sent = JSON.parse(req.body.toString() || '{}') as Record<string, unknown>;
        if (typeof sent.id !== 'string') return res;
        // Takes the member the runtime refused: made without it, answered with it.
        const { id, ...rest } = sent;
        const made = await send({
          ...req,
          body: Buffer.from(JSON.stringify(rest)),
          headers: { ...req.headers, 'content-length': String(JSON.stringify(rest).length) },
        });
        const body = Buffer.from(JSON.stringify({ ...(JSON.parse(made.body.toString()) as object), id }));
        return { ...made, headers: { ...made.headers, 'content-length': String(body.length) }, body };
      },
    });
    try {
      const target = (r: { check: string; target: string }) => r.check === 'endpoints.invalid-requests' && r.target === 'createItem: id (read-only) sent';
      const plain = await testService(checkedModel(ITEMS), { baseUrl: s.url, seed: 1, only: ['endpoints.invalid-requests'] });
      expect(plain.results.find(target)?.outcome).toBe('passed');
      const stored = await testService(checkedModel(ITEMS), { baseUrl: storing.url, seed: 1, only: ['endpoints.invalid-requests'] });
      expect(stored.results.find(target)?.outcome).toBe('failed');
    } finally {
      await storing.close();
      await s.close();
    }
  }, 60_000);
});

describe('a key unique together that holds the parent a path names', () => {
  // [event_id, attendee_email]: event_id is the parent /events/{eventId}/registrations names, not a key to leave to
  // an identifier (the run sent /events//registrations, 26 checks failed), and attendee_email is drawn fresh for each
  // body (one address registered twice for the run's event was a 409 to a valid request).
  const REGISTRATIONS = `
servicespec: 1
resources:
  Event:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string, maxLength: 40 }
  Registration:
    unique_keys:
      - [event_id, attendee_email]
    fields:
      id: { type: uuid, readOnly: true }
      event_id: { type: ref, to: Event, readOnly: true }
      attendee_email: { type: email }
endpoints:
  operations:
    createEvent: { method: POST, path: /events, action: create, resource: Event }
    getEvent: { method: GET, path: '/events/{eventId}', action: read, resource: Event }
    createRegistration: { method: POST, path: '/events/{eventId}/registrations', action: create, resource: Registration, bind: { eventId: event_id } }
    listRegistrations: { method: GET, path: '/events/{eventId}/registrations', action: list, resource: Registration, bind: { eventId: event_id } }
    getRegistration:
      { method: GET, path: '/events/{eventId}/registrations/{id}', action: read, resource: Registration, bind: { eventId: event_id, id: id } }
authentication:
  default: none
${PLAIN_ERRORS}    conflict: { status: 409, when: [unique_conflict, reference_not_found, in_use] }
`;
  it('the runtime passes every endpoints and errors check', async () => {
    const s = await startService(checkedModel(REGISTRATIONS));
    try {
      const report = await testService(checkedModel(REGISTRATIONS), { baseUrl: s.url, seed: 1, only: ['endpoints', 'errors'] });
      expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
      expect(report.results.find((r) => r.check === 'endpoints.valid-requests' && r.target === 'createRegistration')?.outcome).toBe('passed');
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe('an address the service keeps unique without the spec saying so', () => {
  // OpenAPI has no word for a unique field, so an imported spec never says one; a service keeping one attendee per
  // address answered 409 to a body reusing the run's sample address (valid-requests, input-space of the create and of
  // the update, the body-size limit): four failures of a faithful service in every seed.
  const ATTENDEES = (unique: boolean) => `
servicespec: 1
resources:
  Attendee:
    fields:
      id: { type: uuid, readOnly: true }
      email: { type: email, maxLength: 80${unique ? ', unique: true' : ''} }
      name: { type: string, minLength: 1, maxLength: 40 }
      seats: { type: integer, minimum: 1, maximum: 4, optional: true }
endpoints:
  operations:
    createAttendee: { method: POST, path: /attendees, action: create, resource: Attendee }
    getAttendee: { method: GET, path: '/attendees/{id}', action: read, resource: Attendee }
    updateAttendee: { method: PATCH, path: '/attendees/{id}', action: update, resource: Attendee }
authentication:
  default: none
${PLAIN_ERRORS}    conflict: { status: 409, when: [unique_conflict] }
limits:
  body_size: 64KiB
`;
  it('is sent fresh in each body: the run passes', async () => {
    const s = await startService(checkedModel(ATTENDEES(true)));
    try {
      for (const seed of [1, 2, 3]) {
        const report = await testService(checkedModel(ATTENDEES(false)), { baseUrl: s.url, seed, only: ['endpoints', 'errors', 'limits'] });
        expect(report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.actual}`)).toEqual([]);
        expect(report.results.find((r) => r.check === 'endpoints.input-space' && r.target === 'updateAttendee')?.outcome).toBe('passed');
      }
    } finally {
      await s.close();
    }
  }, 120_000);
});
