// What a third outside sweep found (a hand-written Helpdesk service and a Clinic bookings service, each from its
// own OpenAPI document, with planted faults), held here against the real runtime:
// - an imported error body's free-text code field held to the names the import gave the codes (a helpdesk's
//   `validation_failed` failed as "not unprocessable_entity"): 61 of 66 false failures per seed;
// - a list paged by page number never sent page=0, -1, abc or 1.5 (a 500 to page=0 got through), and where no
//   code declares validation not even a page size of 0;
// - the stale-cursor probe deleting the parent the run's nested requests were all under;
// - a create time rewritten by an update, a default other than the declared one given to a field a create leaves
//   out, and maxItems unenforced under uniqueItems (probed with copies of one item, refused for repeating).
import { describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { json, startProxy, withJson } from './mutant-proxy.js';

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`);

/** A helpdesk's error body, { error: { code, message } }, with its own code names. */
const TICKETS = (codes: { invalid: string; missing: string }, codeValues?: 'unstated') => `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      subject: { type: string, minLength: 1, maxLength: 200 }
  Comment:
    fields:
      id: { type: uuid, readOnly: true }
      ticket_id: { type: ref, to: Ticket, readOnly: true }
      body: { type: string, minLength: 1, maxLength: 500 }
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket }
    getTicket: { method: GET, path: '/tickets/{id}', action: read, resource: Ticket }
    listTickets: { method: GET, path: /tickets, action: list, resource: Ticket }
    deleteTicket: { method: DELETE, path: '/tickets/{id}', action: delete, resource: Ticket }
    createComment: { method: POST, path: '/tickets/{ticketId}/comments', action: create, resource: Comment, bind: { ticketId: ticket_id } }
    listComments: { method: GET, path: '/tickets/{ticketId}/comments', action: list, resource: Comment, bind: { ticketId: ticket_id } }
authentication:
  default: none
errors:
  body:
    fields:
      error:
        type: object
        fields:
          code: { type: string }
          message: { type: string }
    code: error.code
    message: error.message${codeValues ? `\n    code_values: ${codeValues}` : ''}
  codes:
    ${codes.invalid}: { status: 422, when: [validation, malformed_request] }
    ${codes.missing}: { status: 404, when: [missing_resource, route_not_found] }
    not_json: { status: 415, when: [unsupported_media_type] }
    too_large: { status: 413, when: [body_too_large] }
    in_use: { status: 409, when: [in_use, reference_not_found] }
    not_allowed: { status: 405, when: [method_not_allowed] }
    internal: { status: 500, when: [internal] }
`;

describe('an error code field whose values the spec does not state (code_values: unstated)', () => {
  it('is held to its type: a service writing its own code names passes; held to names, the same service fails', async () => {
    const s = await startService(checkedModel(TICKETS({ invalid: 'validation_failed', missing: 'ticket_not_found' })));
    try {
      const imported = checkedModel(TICKETS({ invalid: 'unprocessable_entity', missing: 'not_found' }, 'unstated'));
      const report = await testService(imported, { baseUrl: s.url, seed: 1, only: ['endpoints', 'errors'] });
      expect(failures(report)).toEqual([]);
      expect(report.results.find((r) => r.check === 'errors.missing-object' && r.target === 'getTicket')?.outcome).toBe('passed');
      const named = await testService(checkedModel(TICKETS({ invalid: 'unprocessable_entity', missing: 'not_found' })), {
        baseUrl: s.url,
        seed: 1,
        only: ['errors.missing-object'],
      });
      expect(failures(named).join('\n')).toContain('error.code "ticket_not_found", not "not_found"');
    } finally {
      await s.close();
    }
  }, 60_000);

  it('a code of the wrong type still fails', async () => {
    const s = await startService(checkedModel(TICKETS({ invalid: 'validation_failed', missing: 'ticket_not_found' })));
    const proxy = await startProxy(s.url, {
      response: (r) => {
        const body = json(r) as { error?: { code?: unknown } } | undefined;
        return r.status === 404 && body?.error ? withJson(r, { ...body, error: { ...body.error, code: 404 } }) : r;
      },
    });
    try {
      const report = await testService(checkedModel(TICKETS({ invalid: 'x', missing: 'not_found' }, 'unstated')), {
        baseUrl: proxy.url,
        seed: 1,
        only: ['errors.missing-object'],
      });
      expect(failures(report).join('\n')).toMatch(/errors\.missing-object getTicket: .*error\.code 404 is not of the code field's type \(string\)/);
    } finally {
      await proxy.close();
      await s.close();
    }
  }, 60_000);
});

const PAGED = `
servicespec: 1
resources:
  Appointment:
    fields:
      id: { type: uuid, readOnly: true }
      patient_name: { type: string, minLength: 1, maxLength: 120 }
endpoints:
  operations:
    createAppointment: { method: POST, path: /appointments, action: create, resource: Appointment }
    listAppointments:
      method: GET
      path: /appointments
      action: list
      resource: Appointment
      paging: { style: page, body: array, params: { page: page, limit: per_page } }
      errors: [bad_query]
authentication:
  default: none
errors:
  body: problem
  codes:
    bad_query: { status: 400 }
    not_found: { status: 404, when: [route_not_found] }
`;

describe('a list paged by page number', () => {
  it('is sent page=0, -1, abc and 1.5; a 500 to page=0 is caught, and the runtime passes', async () => {
    const s = await startService(checkedModel(PAGED), { allowGaps: true });
    const sent: string[] = [];
    const proxy = await startProxy(s.url, {
      observe: (req) => void sent.push(req.path),
      response: (r, req) => (/[?&]page=0(&|$)/.test(req.path) ? { status: 500, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') } : r),
    });
    const clean = await startProxy(s.url, {});
    try {
      const model = checkedModel(PAGED);
      const faulty = await testService(model, { baseUrl: proxy.url, seed: 1, only: ['endpoints.list-edges'] });
      expect(failures(faulty).join('\n')).toContain('endpoints.list-edges listAppointments');
      for (const edge of ['page=0', 'page=-1', 'page=abc', 'page=1.5', 'per_page=0'])
        expect(
          sent.some((p) => p.includes(edge)),
          edge,
        ).toBe(true);
      const report = await testService(model, { baseUrl: clean.url, seed: 1, only: ['endpoints.list-edges'] });
      expect(failures(report)).toEqual([]);
      expect(report.results.find((r) => r.check === 'endpoints.list-edges')?.outcome).toBe('passed');
    } finally {
      await proxy.close();
      await clean.close();
      await s.close();
    }
  }, 60_000);
});

describe('the stale-cursor probe of a list', () => {
  it('never sends a DELETE to the parent the run nests its requests under', async () => {
    const model = checkedModel(TICKETS({ invalid: 'invalid', missing: 'not_found' }));
    const s = await startService(model);
    const deleted: string[] = [];
    const parents = new Set<string>();
    const proxy = await startProxy(s.url, {
      observe: (req) => {
        const nested = /^\/tickets\/([^/?]+)\/comments/.exec(req.path);
        if (nested) parents.add(nested[1]!);
        if (req.method === 'DELETE') deleted.push(req.path.slice('/tickets/'.length));
      },
    });
    try {
      // The comments first, so the run's parent is chosen before the tickets' list is probed.
      const report = await testService(model, { baseUrl: proxy.url, seed: 1, only: ['createComment', 'listComments', 'listTickets'] });
      expect(failures(report)).toEqual([]);
      expect(parents.size).toBeGreaterThan(0);
      expect(deleted.filter((id) => parents.has(id))).toEqual([]);
    } finally {
      await proxy.close();
      await s.close();
    }
  }, 60_000);
});

const TICKET_TIMES = `
servicespec: 1
resources:
  Ticket:
    fields:
      id: { type: uuid, readOnly: true }
      subject: { type: string, minLength: 1, maxLength: 200 }
      priority: { type: enum, values: [low, normal, high], default: normal }
      tags: { type: array, items: { type: string, minLength: 1, maxLength: 12 }, maxItems: 3, uniqueItems: true, optional: true }
      created_at: { type: datetime, readOnly: true, generated: create_time }
endpoints:
  operations:
    createTicket: { method: POST, path: /tickets, action: create, resource: Ticket }
    getTicket: { method: GET, path: '/tickets/{id}', action: read, resource: Ticket }
    updateTicket: { method: PATCH, path: '/tickets/{id}', action: update, resource: Ticket }
authentication:
  default: none
${PLAIN_ERRORS}`;

describe('what a create made, and what it was not sent', () => {
  const caught = async (check: string, mutant: Parameters<typeof startProxy>[1]) => {
    const model = checkedModel(TICKET_TIMES);
    const s = await startService(model);
    const proxy = await startProxy(s.url, mutant);
    try {
      const report = await testService(model, { baseUrl: proxy.url, seed: 1, only: [check] });
      return failures(report);
    } finally {
      await proxy.close();
      await s.close();
    }
  };

  it('the runtime passes', async () => {
    expect(await caught('endpoints', {})).toEqual([]);
  }, 60_000);

  it('an update answering another create time is caught (endpoints.valid-requests)', async () => {
    const failed = await caught('endpoints.valid-requests', {
      response: (r, req) => {
        const body = json(r) as Record<string, unknown> | undefined;
        return req.method === 'PATCH' && r.status === 200 && body ? withJson(r, { ...body, created_at: '2001-01-01T00:00:00.000Z' }) : r;
      },
    });
    expect(failed.join('\n')).toMatch(/endpoints\.valid-requests updateTicket: field created_at, made by the create, kept by the update/);
  }, 60_000);

  it('a create giving a field it was not sent another default is caught (endpoints.valid-requests)', async () => {
    const failed = await caught('endpoints.valid-requests', {
      response: (r, req) => {
        const body = json(r) as Record<string, unknown> | undefined;
        const sent = (json({ status: 0, headers: {}, body: req.body }) ?? {}) as Record<string, unknown>;
        return req.method === 'POST' && r.status === 201 && body && sent.priority === undefined ? withJson(r, { ...body, priority: 'low' }) : r;
      },
    });
    expect(failed.join('\n')).toMatch(/endpoints\.valid-requests createTicket: field priority, left out of the create, holding its default "normal"/);
  }, 60_000);

  it('maxItems unenforced under uniqueItems is caught: the items sent past it differ (endpoints.invalid-requests)', async () => {
    const failed = await caught('endpoints.invalid-requests', {
      // The service keeps the first three tags of any number: never refuses a fourth.
      request: (r) => {
        if (r.method !== 'POST') return r;
        const body = json({ status: 0, headers: {}, body: r.body }) as Record<string, unknown> | undefined;
        if (!body || !Array.isArray(body.tags) || body.tags.length <= 3) return r;
        return { ...r, body: Buffer.from(JSON.stringify({ ...body, tags: body.tags.slice(0, 3) })) };
      },
    });
    expect(failed.join('\n')).toContain('endpoints.invalid-requests createTicket');
  }, 60_000);
});
