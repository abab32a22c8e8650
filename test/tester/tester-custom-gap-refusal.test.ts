// endpoints.valid-requests of a custom operation takes a refusal with one of its declared codes; serve's answer to a
// condition no code declares (marked Servicespec-Undeclared-Condition) is a refusal too. Twilio's Bulk Export
// FetchDay (test/fixtures/openapi/twilio-bulkexports-v1.yaml) lists only its 307: its handler refuses a day no export
// holds with ctx.fail('missing_resource'), which serve answers 404 with the marker, and the tester, drawing the day at
// random, failed it ("status 307 (or a declared refusal)") against a faithful server. Now every such request is
// refused, so the check says it saw no success to judge (not run), and fails nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testService } from '../../src/tester/tester-run.js';
import { startSpec, type OrdersServer } from './helpers.js';

const SPEC = `servicespec: 1
endpoints:
  operations:
    fetchDay:
      method: GET
      path: '/exports/{type}/days/{day}'
      action: custom
      handler: fetchDay
      status: 307
      response: { fields: { redirect_to: { type: string } } }
authentication:
  default: none
`;

const HANDLERS = `export const handlers = {
  fetchDay(ctx) {
    if (ctx.params.day !== '2026-11-01') ctx.fail('missing_resource', 'no export for ' + ctx.params.day);
    return { redirect_to: 'https://exports.example.com/' + ctx.params.type + '/2026-11-01.json.gz' };
  },
};
`;

describe("a custom operation's handler refusing a drawn path value with a condition no code declares", () => {
  const dir = mkdtempSync(join(tmpdir(), 'servicespec-gap-refusal-'));
  let s: OrdersServer;
  beforeAll(async () => {
    writeFileSync(join(dir, 'days.yaml'), SPEC);
    writeFileSync(join(dir, 'handlers.mjs'), HANDLERS);
    s = await startSpec(join(dir, 'days.yaml'), pathToFileURL(join(dir, 'handlers.mjs')).href);
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a refusal, not a failure: the check is not run, saying every request was refused', async () => {
    const res = await fetch(`${s.url}/exports/Messages/days/nope`);
    expect([res.status, res.headers.get('servicespec-undeclared-condition')]).toEqual([404, 'missing_resource']);
    const r = await testService(s.model, { baseUrl: s.url, ...s.options, seed: 1, only: ['endpoints.valid-requests'] });
    const day = r.results.find((x) => x.target === 'fetchDay')!;
    expect(day.failure).toBeUndefined();
    expect([day.outcome, day.notRun]).toEqual(['skipped', true]);
    expect(day.reason).toMatch(/^every valid request sent to fetchDay was refused/);
  });
});
