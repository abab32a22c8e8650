// A create's named request example is the body on the wire (check-examples.ts reads it so): with a request_envelope,
// `{ "product": { … } }`. The tester sends it as the operation's valid request, wrapped once. Before, it took the
// whole example as the inner body and wrapped it again (`{ "product": { "product": { … } } }`), which a service
// ignoring unknown members (PagerDuty's imported creates, `unknown_fields: ignore`) answered without the fields sent:
// `endpoints.valid-requests` failed on createAddon, postIncidentWorkflow, createServiceCustomField, … of the served
// PagerDuty import. A read-only field the example holds (PagerDuty's Addon `type`) is the service's to set, and not
// held to be kept as sent: the service answers its own (here its default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import type { TestReport } from '../../src/tester/tester-types.js';
import { startService, type Running } from '../runtime/helpers.js';
import { PLAIN_ERRORS, checkedModel } from '../support/specs.js';
import { startProxy, type RunningProxy } from './mutant-proxy.js';

const SPEC = `
servicespec: 1
resources:
  Addon:
    fields:
      id: { type: uuid, readOnly: true }
      name: { type: string, optional: true, maxLength: 40 }
      src: { type: string, optional: true }
      kind: { type: enum, values: [full_page_addon, incident_show_addon], readOnly: true, default: incident_show_addon }
endpoints:
  operations:
    createAddon:
      method: POST
      path: /addons
      action: create
      resource: Addon
      unknown_fields: ignore
      request_envelope: { data: addon }
      envelope: { data: addon }
      examples:
        request:
          status_page: { value: { addon: { kind: full_page_addon, name: Internal Status Page, src: "https://intranet.example.com/status" } } }
    getAddon: { method: GET, path: "/addons/{id}", action: read, resource: Addon, envelope: { data: addon } }
authentication:
  default: none
${PLAIN_ERRORS}`;

const failures = (r: TestReport) => r.results.filter((x) => x.outcome === 'failed').map((x) => [x.check, x.target, x.failure?.actual]);

describe('a named request example of an operation with a request envelope', () => {
  let s: Running;
  let proxy: RunningProxy;
  const sent: unknown[] = [];
  beforeAll(async () => {
    s = await startService(checkedModel(SPEC));
    proxy = await startProxy(s.url, {
      observe(req) {
        try {
          if (req.method === 'POST') sent.push(JSON.parse(req.body.toString()));
        } catch {
          // the malformed bodies the tester sends on purpose
        }
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await s?.close();
  });

  it('is sent wrapped once, and the service keeps what it shows', async () => {
    const r = await testService(checkedModel(SPEC), { baseUrl: proxy.url, seed: 1, runs: 3 });
    expect(failures(r)).toEqual([]);
    const example = { kind: 'full_page_addon', name: 'Internal Status Page', src: 'https://intranet.example.com/status' };
    expect(sent).toContainEqual({ addon: example });
    expect(sent).not.toContainEqual({ addon: { addon: example } });
  }, 120_000);
});
