// The events a running service sends, on create, update and transition, validated with Ajv against the schemas the
// AsyncAPI and OpenAPI exports promise for them: data is { object, previous? } (docs/events.md).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { exportOpenApi } from '../../src/export/export-openapi.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecText } from '../../src/program.js';
import { openStream } from '../events/helpers.js';
import { startService, type Running } from '../runtime/helpers.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const SPEC = `
servicespec: 1
resources:
  Job:
    fields:
      id: { type: uuid, readOnly: true }
      title: { type: string }
      note: { type: string, optional: true }
      status: { type: state }
states:
  Job:
    field: status
    initial: open
    states:
      open: {}
      done: { terminal: true }
    transitions:
      finish: { from: open, to: done, emits: job.finished }
endpoints:
  operations:
    createJob: { method: POST, path: /jobs, action: create, resource: Job, auth: none }
    getJob: { method: GET, path: "/jobs/{id}", action: read, resource: Job, auth: none }
    updateJob: { method: PATCH, path: "/jobs/{id}", action: update, resource: Job, auth: none }
    finishJob: { method: POST, path: "/jobs/{id}/finish", action: transition, resource: Job, transition: finish, auth: none }
authentication:
  default: none
events:
  delivery:
    webhook: { signing: standard-webhooks }
    stream: { path: /events }
  kinds:
    job.created: { on: [create], payload: { resource: Job } }
    job.changed: { on: [update], payload: { resource: Job } }
    job.finished: { payload: { resource: Job } }
errors:
  body: problem
  codes:
    bad_body: { status: 400, when: [malformed_request] }
    invalid: { status: 422, when: [validation] }
    not_json: { status: 415, when: [unsupported_media_type] }
    too_large: { status: 413, when: [body_too_large] }
    not_found: { status: 404, when: [missing_resource, route_not_found] }
    not_allowed: { status: 405, when: [method_not_allowed] }
    conflict: { status: 409, when: [illegal_transition] }
    headers: { status: 431, when: [headers_too_large] }
    internal: { status: 500, when: [internal] }
limits:
  body_size: 16KiB
`;

let model: ServiceModel;
let s: Running;
const events: { type: string; data: { object: Record<string, unknown>; previous?: Record<string, unknown> } }[] = [];

beforeAll(async () => {
  const c = compileSpecText(SPEC);
  expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  model = c.model!;
  s = await startService(model);
  const stream = await openStream(`${s.url}/events`);
  const r = await s.call('POST', '/jobs', { title: 'a' });
  expect(r.status).toBe(201);
  const id = r.body.id as string;
  expect((await s.call('PATCH', `/jobs/${id}`, { note: 'n' })).status).toBe(200);
  expect((await s.call('PATCH', `/jobs/${id}`, { title: 'b' })).status).toBe(200);
  expect((await s.call('POST', `/jobs/${id}/finish`, {})).status).toBe(200);
  for (const e of await stream.waitFor(4)) events.push(JSON.parse(e.data) as (typeof events)[number]);
  stream.close();
});
afterAll(() => s?.close());

function validator(doc: Record<string, unknown>, pointer: string) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'https://export.test/doc.json', ...doc });
  return ajv.compile({ $ref: `https://export.test/doc.json#${pointer}` });
}

describe('the exported event schemas accept the events the service sends', () => {
  it('the service sends previous on updates and transitions only', () => {
    expect(events.map((e) => [e.type, e.data.previous])).toEqual([
      ['job.created', undefined],
      ['job.changed', { note: null }],
      ['job.changed', { title: 'a' }],
      ['job.finished', { status: 'open' }],
    ]);
  });

  it('AsyncAPI: every message schema accepts its events, and refuses a create carrying previous', () => {
    const doc = exportAsyncApi(model).document as { components: Record<string, Record<string, unknown>> };
    const names: Record<string, string> = { 'job.created': 'JobCreatedEvent', 'job.changed': 'JobChangedEvent', 'job.finished': 'JobFinishedEvent' };
    for (const e of events) {
      const validate = validator({ components: doc.components }, `/components/schemas/${names[e.type]!}`);
      expect(validate(e), `${e.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    const created = events[0]!;
    expect(validator({ components: doc.components }, '/components/schemas/JobCreatedEvent')({ ...created, data: { ...created.data, previous: {} } })).toBe(
      false,
    );
    // the payload itself as data (the old description) is refused
    expect(validator({ components: doc.components }, '/components/schemas/JobCreatedEvent')({ ...created, data: created.data.object })).toBe(false);
  });

  it('OpenAPI: every webhook request body accepts its events', () => {
    const doc = exportOpenApi(model).document as Record<string, unknown>;
    for (const e of events) {
      const validate = validator(
        { components: doc.components, webhooks: doc.webhooks },
        `/webhooks/${e.type}/post/requestBody/content/application~1json/schema`,
      );
      expect(validate(e), `${e.type}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
