import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSpecText } from '../../src/program.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { getRuntimeGaps } from '../../src/runtime/service/runtime-gaps.js';
import { startService, type Running } from './helpers.js';

// An imported document's codes name no condition (PagerDuty's: `argument_error` 400 on POST /schedules, another 400
// and a 422 elsewhere, so no one code of a status is the document's for every operation). A request breaking an
// operation's schema is answered with that operation's own code of the status HTTP gives it: its one 422, else its
// one 400; a missing object with its one 404. Before, serve answered the format's 422 `validation` the operation
// never lists (PagerDuty: 824 of 869 failures of `servicespec test` against its own serve).
const SPEC = `
servicespec: 1
resources:
  Thing:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 10 }
endpoints:
  operations:
    createThing: { method: POST, path: /things, action: create, resource: Thing, errors: [argument_error] }
    updateThing: { method: PATCH, path: "/things/{id}", action: update, resource: Thing, errors: [argument_error, unprocessable, not_found] }
    replaceThing: { method: PUT, path: "/things/{id}", action: replace, resource: Thing, errors: [argument_error, bad_request, other_not_found, not_found] }
authentication:
  default: none
errors:
  body:
    fields:
      code: { type: string }
      message: { type: string }
  codes:
    argument_error: { status: 400, title: Caller provided invalid arguments }
    bad_request: { status: 400, title: Bad request }
    unprocessable: { status: 422, title: Some arguments failed validation checks }
    not_found: { status: 404, title: Not found }
    other_not_found: { status: 404, title: The webhook was not found }
`;

describe('a condition no code declares is answered with the operation’s own code', () => {
  let svc: Running;
  beforeAll(async () => {
    const c = compileSpecText(SPEC, 'refusal.yaml');
    expect(c.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    svc = await startService(c.checked as CheckedModel);
  });
  afterAll(async () => svc?.close());

  it('its one 400 where it lists no 422', async () => {
    const r = await svc.call('POST', '/things', { name: 12345 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('argument_error');
  });

  it('its one 422 before its 400, and its one 404 for a missing object', async () => {
    const made = await svc.call('POST', '/things', { name: 'lamp' });
    expect(made.status).toBe(201);
    const bad = await svc.call('PATCH', `/things/${made.body.id}`, { name: 12345 });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('unprocessable');
    const missing = await svc.call('PATCH', '/things/00000000-0000-4000-8000-000000000000', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });

  it('two codes of one status: neither is chosen, the format’s answer stays', async () => {
    const made = await svc.call('POST', '/things', { name: 'lamp' });
    const bad = await svc.call('PUT', `/things/${made.body.id}`, { name: 12345 });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('validation');
    const missing = await svc.call('PUT', '/things/00000000-0000-4000-8000-000000000000', { name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('missing_resource');
  });

  it('the gap serve logs says so, naming the operations', () => {
    const model = compileSpecText(SPEC, 'refusal.yaml').checked as CheckedModel;
    const gap = (c: string) => getRuntimeGaps(model).find((g) => g.item === `error code for condition ${c}: not shown`)?.builtIn;
    expect(gap('validation')).toBe(
      'answer 422 with code "validation"; where the operation lists one code of the status HTTP gives it, that code (createThing, updateThing)',
    );
    expect(gap('missing_resource')).toBe(
      'answer 404 with code "missing_resource"; where the operation lists one code of the status HTTP gives it, that code (updateThing)',
    );
    expect(gap('body_too_large')).toBe('answer 413 with code "body_too_large"');
  });

  it('an unrouted request keeps the format’s answer', async () => {
    const r = await svc.call('GET', '/nowhere');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('route_not_found');
  });
});
