// A read, replace or update addressed by an optional unique field its create never answers (the doqs document's
// DesignerTemplate: no identifier, `id: { type: string, optional: true, unique: true }` bound by
// `/designer/templates/{id}`, not among the create's request_fields) was sent with the segment empty
// (`GET /designer/templates/`), and failed on the answer to a path that names no object. It is not run, saying why;
// where the create answers the key, a read answering 404 for the object made is still failed.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { isObject, readJson, startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel, PLAIN_ERRORS } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Template:
    answer_members: open
    fields:
      id: { type: string, optional: true, unique: true, maxLength: 40 }
      name: { type: string, maxLength: 40 }
endpoints:
  operations:
    createTemplate: { method: POST, path: /templates, action: create, resource: Template, request_fields: [name] }
    getTemplate: { method: GET, path: '/templates/{id}', action: read, resource: Template, bind: { id: id } }
    replaceTemplate: { method: PUT, path: '/templates/{id}', action: replace, resource: Template, bind: { id: id }, request_fields: [name] }
authentication:
  default: none
${PLAIN_ERRORS}`;

const outcomes = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results
    .filter((r) => r.check === 'endpoints.valid-requests' && (r.target === 'getTemplate' || r.target === 'replaceTemplate'))
    .map((r) => [r.target, r.outcome, r.reason ?? r.failure?.actual] as const);

describe('a path bound to a key the create did not answer', () => {
  let served: OrdersServer;
  let hand: HandServer;
  beforeAll(async () => {
    served = await startSpecText('unanswered-key.yaml', SPEC);
    // Answers the key it gives each template, and then answers its read 404 (the planted fault).
    let n = 0;
    hand = await startHandServer((req, reply) => {
      if (req.method === 'POST' && req.url === '/templates') {
        const b = readJson(req);
        if (!isObject(b) || typeof b.name !== 'string') return reply.problem(422, 'invalid');
        return reply.json(201, { id: `t${++n}`, name: b.name });
      }
      reply.problem(404, 'not_found');
    });
  });
  afterAll(async () => {
    await served?.close();
    hand?.close();
  });

  it('serve of the spec: not run, saying the object made has no id, never sent with an empty segment', async () => {
    const report = await testService(served.model, { baseUrl: served.url, ...served.options, seed: 1, runs: 2 });
    const got = outcomes(report).filter(([t]) => t === 'getTemplate');
    expect(got.map(([t, o]) => [t, o])).toEqual([['getTemplate', 'skipped']]);
    expect(got[0]![2]).toMatch(/the Template made has no `id`, which its path is bound to \(an optional key its create did not answer\)/);
    expect(report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual])).toEqual([]);
  });

  it('a service answering the id it gives, then 404 for its read, is still failed', async () => {
    const report = await testService(checkedModel(SPEC), { baseUrl: hand.url, seed: 1, only: ['endpoints.valid-requests'] });
    const got = outcomes(report).find(([t]) => t === 'getTemplate');
    expect(got?.[1]).toBe('failed');
    expect(String(got?.[2])).toMatch(/^404/);
  });
});
