// errors.malformed-id and serve's answers to conditions the spec declares no code for (a named gap, marked
// Servicespec-Undeclared-Condition). A spec declaring no code for missing_resource (RealWorld's comments) gets serve's
// built-in 404 for an identifier no object could have: not judged, as errors.declared-codes leaves it. Only that
// condition is excused: a spec declaring missing_resource (404) but no code for validation, whose service answers a
// malformed identifier 422 marked as an undeclared validation, fails the check (the declared 404 was owed). The
// excuse once covered any marked 4xx, whatever condition it named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNDECLARED_CONDITION_HEADER } from '../../src/model/model-response-headers.js';
import { testService } from '../../src/tester/tester-run.js';
import { startSpecText, type OrdersServer } from './helpers.js';
import { startProxy, type RunningProxy } from './mutant-proxy.js';

const spec = (codes: string) => `servicespec: 1
resources:
  Thing:
    fields:
      id: { type: integer, readOnly: true }
      name: { type: string, maxLength: 20 }
endpoints:
  operations:
    createThing: { method: POST, path: /things, action: create, resource: Thing }
    getThing: { method: GET, path: "/things/{id}", action: read, resource: Thing }
authentication:
  default: none
errors:
  body:
    fields:
      status: { type: integer }
      title: { type: string }
  codes:
${codes}`;

/** No code for missing_resource (nor route_not_found, a 404 that would pass as such): serve answers a malformed identifier with its built-in, marked 404. */
const NO_MISSING = spec(`    invalid: { status: 422, title: Invalid, when: [validation] }
`);
/** missing_resource declared, no code for validation. */
const NO_VALIDATION = spec(`    not_found: { status: 404, title: Not found, when: [missing_resource, route_not_found] }
`);

const malformedId = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.check === 'errors.malformed-id').map((r) => [r.target, r.outcome, r.failure?.actual] as const);

describe('errors.malformed-id and gap answers', () => {
  let noMissing: OrdersServer;
  let noValidation: OrdersServer;
  let proxy: RunningProxy;
  beforeAll(async () => {
    noMissing = await startSpecText('no-missing.yaml', NO_MISSING);
    noValidation = await startSpecText('no-validation.yaml', NO_VALIDATION);
    // A malformed identifier (anything but digits) answered 422 marked as the undeclared validation condition.
    proxy = await startProxy(noValidation.url, {
      request: (r) =>
        r.method === 'GET' && /^\/things\/[^/?]+$/.test(r.path) && !/^\/things\/[0-9]+$/.test(r.path)
          ? {
              status: 422,
              headers: { 'content-type': 'application/json', [UNDECLARED_CONDITION_HEADER]: 'validation' },
              body: Buffer.from(JSON.stringify({ status: 422, title: 'Invalid' })),
            }
          : r,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await noMissing?.close();
    await noValidation?.close();
  });

  it("serve's undeclared missing_resource (its marked 404) on a malformed identifier is not judged", async () => {
    const report = await testService(noMissing.model, { baseUrl: noMissing.url, ...noMissing.options, seed: 1, only: ['errors.malformed-id'] });
    expect(malformedId(report)).toEqual([['getThing', 'passed', undefined]]);
  });

  it('serve, missing_resource declared: its 404 passes', async () => {
    const report = await testService(noValidation.model, { baseUrl: noValidation.url, ...noValidation.options, seed: 1, only: ['errors.malformed-id'] });
    expect(malformedId(report)).toEqual([['getThing', 'passed', undefined]]);
  });

  it('a marked answer naming another condition (validation, 422) is judged: the declared 404 was owed', async () => {
    const report = await testService(noValidation.model, { baseUrl: proxy.url, ...noValidation.options, seed: 1, only: ['errors.malformed-id'] });
    const got = malformedId(report);
    expect(got.map(([t, o]) => [t, o])).toEqual([['getThing', 'failed']]);
    expect(got[0]![2]).toMatch(/^status 422, not 404 \(not_found\)/);
  });
});
