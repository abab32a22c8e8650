// A declared error body with a required field nothing fills (conjur's `status: string`, "'error' if there was an
// error": no role, no default; a named gap) is answered without it by serve --allow-gaps, and the tester failed serve
// of the same spec on every error answer. serve now names the field in Servicespec-Unset-Fields on each error
// answer, as it names the `source: service` fields a success answer leaves out, and the tester does not hold a field
// so named against the answer (reported not run). The header excuses only such a field: a service leaving out a field
// the spec fills still fails, header or not, as does the gap field sent in another type, or left out unsaid.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startHandServer, type HandServer } from '../support/hand-server.js';
import { checkedModel } from '../support/specs.js';
import { startSpecText, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
resources:
  Host:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    getHost: { method: GET, path: '/hosts/{id}', action: read, resource: Host, errors: [not_found] }
authentication:
  default: none
errors:
  body:
    fields:
      error: { type: string, optional: true }
      status: { type: string }
    code_values: unstated
    answer_members: open
  codes:
    not_found: { status: 404, when: [missing_resource, route_not_found] }
`;

type Fault = 'unset-named' | 'unset-unnamed' | 'wrong-type';

describe('an error body field the spec leaves unfilled (a named gap)', () => {
  let served: OrdersServer;
  const hands: Partial<Record<Fault, HandServer>> = {};
  beforeAll(async () => {
    served = await startSpecText('error-unset-field.yaml', SPEC);
    for (const f of ['unset-named', 'unset-unnamed', 'wrong-type'] as const)
      hands[f] = await startHandServer((_req, reply) => {
        const headers: Record<string, string> = f === 'unset-unnamed' ? {} : { 'servicespec-unset-fields': 'status' };
        reply.json(404, f === 'wrong-type' ? { error: 'not_found', status: 404 } : { error: 'not_found' }, 'application/json', headers);
      });
  });
  afterAll(async () => {
    await served?.close();
    for (const h of Object.values(hands)) h.close();
  });
  const run = (url: string, model = checkedModel(SPEC), options = {}) =>
    testService(model, { baseUrl: url, ...options, seed: 1, only: ['errors.missing-object', 'endpoints.valid-requests', 'errors.answer-shape'] });
  const failed = (report: Awaited<ReturnType<typeof testService>>) =>
    report.results.filter((r) => r.outcome === 'failed').map((r) => [r.check, r.target, r.failure?.actual]);

  it('serve of the spec names the field it leaves out, and the tester does not fail it on it', async () => {
    const res = await fetch(`${served.url}/hosts/00000000-0000-4000-8000-00000000dead`);
    expect(res.status).toBe(404);
    expect(res.headers.get('servicespec-unset-fields')).toBe('status');
    expect(await res.json()).not.toHaveProperty('status');
    const report = await run(served.url, served.model, served.options);
    expect(failed(report)).toEqual([]);
    const skipped = report.results.find((r) => r.check === 'errors.answer-shape' && r.target === 'error body: status');
    expect(skipped?.reason).toMatch(/its error answers leave out status/);
  });

  it('a service naming the field it leaves out passes', async () => {
    expect(failed(await run(hands['unset-named']!.url))).toEqual([]);
  });

  it('a service leaving the field out without naming it still fails', async () => {
    expect(failed(await run(hands['unset-unnamed']!.url)).map((f) => String(f[2]))).toContainEqual(expect.stringMatching(/required property 'status'/));
  });

  it('the header excuses only the field being absent: the field sent in another type still fails', async () => {
    expect(failed(await run(hands['wrong-type']!.url)).map((f) => String(f[2]))).toContainEqual(expect.stringMatching(/status must be string/));
  });
});
