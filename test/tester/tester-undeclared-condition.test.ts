// serve's built-in answer to a condition the spec declares no code for (--allow-gaps) carries a
// Servicespec-Undeclared-Condition header naming it, and the tester reads that marker instead of guessing. The guess
// got one case wrong (docs/testing.md, "Held more strictly"): a declared error body with no code field, malformed
// JSON sent to an operation listing only a 422 while another operation lists a 400. serve answers its built-in 400,
// which the guess could not tell from a service's own and failed against the operation's 422; now it passes. The
// marker counts only for a condition the spec indeed does not declare: a service sending it on a declared
// condition's wrong answer is failed all the same, and one that does not send it (a hand-written service) is judged by
// the declared codes alone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDECLARED_CONDITION_HEADER } from '../../src/model/model-response-headers.js';
import { testService } from '../../src/tester/tester-run.js';
import { startHandServer, type HandServer } from '../support/hand-server.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Note:
    fields:
      id: { type: integer, readOnly: true }
      title: { type: string, maxLength: 20 }
endpoints:
  operations:
    createNote: { method: POST, path: /notes, action: create, resource: Note, errors: [invalid] }
    replaceNote: { method: PUT, path: "/notes/{id}", action: replace, resource: Note, errors: [invalid, bad_request, not_found] }
authentication:
  default: none
errors:
  body:
    fields:
      status: { type: integer }
      title: { type: string }
      detail: { type: string, optional: true }
  codes:
    invalid: { status: 422, title: Invalid, when: [validation] }
    not_found: { status: 404, title: Not found, when: [missing_resource, route_not_found] }
    bad_request: { status: 400, title: Bad request }
`;

/** How a proxy in front of serve answers a declared condition's refusal (validation, 422) wrongly. */
type Fault = 'declared-marked' | 'other-marked' | 'unmarked-gap';

describe('the Servicespec-Undeclared-Condition marker on gap answers', () => {
  let served: OrdersServer;
  const proxies: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    served = await startSpecText('undeclared-condition.yaml', SPEC);
    for (const fault of ['declared-marked', 'other-marked', 'unmarked-gap'] as const)
      proxies[fault] = await startHandServer((req, reply) => {
        const init: RequestInit = { method: req.method, headers: req.headers as Record<string, string> };
        if (req.text !== '') init.body = req.text;
        void fetch(`${served.url}${req.url}`, init).then(async (res) => {
          const text = await res.text();
          const body: unknown = text === '' ? undefined : JSON.parse(text);
          const marker = res.headers.get(UNDECLARED_CONDITION_HEADER);
          if (fault === 'declared-marked' && res.status === 422)
            // The declared code's status, but a body it does not declare, excused by naming the declared condition.
            return reply.json(422, { status: 422, title: 'Invalid', code: 'validation' }, 'application/json', { [UNDECLARED_CONDITION_HEADER]: 'validation' });
          if (fault === 'other-marked' && res.status === 422)
            // A declared condition answered with an undeclared one's status, marked as that one.
            return reply.json(400, { status: 400, title: 'Bad request' }, 'application/json', { [UNDECLARED_CONDITION_HEADER]: 'malformed_request' });
          // serve's answers passed on; unmarked-gap strips the marker: a hand-written service answering as serve does.
          const headers: Record<string, string> = fault === 'unmarked-gap' || marker === null ? {} : { [UNDECLARED_CONDITION_HEADER]: marker };
          if (res.status === 204) return reply.json(204, undefined, 'application/json', headers);
          return reply.json(res.status, body, res.headers.get('content-type') ?? 'application/json', {
            ...headers,
            ...(res.headers.get('location') ? { location: res.headers.get('location')! } : {}),
          });
        });
      });
  });
  afterAll(async () => {
    await served?.close();
    for (const p of Object.values(proxies)) p.close();
  });
  const run = (url: string) =>
    testService(served.model, { baseUrl: url, ...served.options, seed: 1, only: ['endpoints.invalid-requests', 'errors.declared-codes'] });
  const failed = (report: Awaited<ReturnType<typeof testService>>) =>
    report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${String(r.failure?.actual)}`);

  it('serve answers malformed JSON with its built-in 400, marked, and passes', async () => {
    const res = await fetch(`${served.url}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title": ' });
    expect(res.status).toBe(400);
    expect(res.headers.get(UNDECLARED_CONDITION_HEADER)).toBe('malformed_request');
    expect(await res.json()).not.toHaveProperty('code');
    const report = await run(served.url);
    expect(failed(report)).toEqual([]);
    expect(report.results).toContainEqual(
      expect.objectContaining({ check: 'endpoints.invalid-requests', target: 'createNote: malformed JSON', outcome: 'passed' }),
    );
    // Passed, but not judged against a declared code: the report says which answers were the spec's gaps.
    const said = report.warnings.find((w) => w.includes(UNDECLARED_CONDITION_HEADER));
    expect(said).toMatch(
      /^\d+ answers were the service's built-in refusal of a condition the spec declares no error code for \(Servicespec-Undeclared-Condition\), not judged: /,
    );
    expect(said).toMatch(/malformed_request ×\d+ \(first: createNote\)/);
    expect(said).toMatch(/declare a code for each \(`servicespec gaps` lists them\)$/);
  });

  it('a service that never answers with the marker gets no such warning', async () => {
    const report = await run(proxies['unmarked-gap']!.url);
    expect(report.warnings.filter((w) => w.includes(UNDECLARED_CONDITION_HEADER))).toEqual([]);
  });

  it('a service marking a declared condition’s wrong answer is failed all the same', async () => {
    const f = failed(await run(proxies['declared-marked']!.url));
    expect(f).toContainEqual(expect.stringMatching(/^errors\.declared-codes createNote: error body fields code are not declared/));
    expect(f).toContainEqual(expect.stringMatching(/^endpoints\.invalid-requests createNote: .*error body fields code are not declared/));
  });

  it('a declared condition answered as a marked undeclared one is failed', async () => {
    const f = failed(await run(proxies['other-marked']!.url));
    expect(f).toContainEqual(expect.stringMatching(/^endpoints\.invalid-requests createNote: .*status 400, not 422 \(invalid\)/));
  });

  it("an unmarked answer is judged by the declared codes: serve's built-in 400 without the marker fails against the operation's 422", async () => {
    const f = failed(await run(proxies['unmarked-gap']!.url));
    expect(f).toContainEqual(
      expect.stringMatching(/^endpoints\.invalid-requests createNote: malformed JSON: status 400, not invalid \(422\), the operation's/),
    );
  });
});
