// The Bookings sweep's cases held against `servicespec serve` (the rest, against the hand-written server, are in
// tester-bookings-sweep.test.ts): the imported document served, its custom cancel action without a handler, and a
// spec stating no page size limit.

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import type { CheckedModel } from '../../src/model/model-types.js';
import { testService } from '../../src/tester/tester-run.js';
import { startService } from '../runtime/helpers.js';
import { checkedModel } from '../support/specs.js';

const doc = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

async function imported(name: string): Promise<CheckedModel> {
  const r = await importOpenApiFile(doc(name));
  if (!r.compiled?.checked) throw new Error(`${name} does not import: ${r.diagnostics.map((d) => d.code).join(', ')}`);
  return r.compiled.checked;
}

/** A list whose resource no operation creates, and no limits part. */
const NOTES = `
servicespec: 1
resources:
  Note:
    fields:
      id: { type: uuid, readOnly: true }
      text: { type: string, maxLength: 20 }
endpoints:
  operations:
    listNotes: { method: GET, path: /notes, action: list, resource: Note, paging: { style: offset } }
authentication:
  default: none
`;

const failures = (report: Awaited<ReturnType<typeof testService>>) =>
  report.results.filter((r) => r.outcome === 'failed').map((r) => `${r.check} ${r.target}: ${r.failure?.expected} / ${r.failure?.actual}`);

describe('the Bookings document served by servicespec serve', () => {
  it('served without the cancel handler (501), the custom action is not run, not failed, by the identifier checks', async () => {
    const model = await imported('bookings.openapi.yaml');
    const s = await startService(model);
    try {
      const report = await testService(model, { baseUrl: s.url, seed: 1, only: ['errors.missing-object', 'errors.malformed-id'] });
      expect(failures(report).filter((f) => f.includes('cancelBooking'))).toEqual([]);
      const cancel = report.results.filter((r) => r.target === 'cancelBooking').map((r) => [r.check, r.outcome, r.notRun]);
      expect(cancel).toEqual([
        ['errors.missing-object', 'skipped', true],
        ['errors.malformed-id', 'skipped', true],
      ]);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('a spec stating no page size limit has limits.page-size not applicable, not not-run', async () => {
    const s = await startService(checkedModel(NOTES));
    try {
      const report = await testService(checkedModel(NOTES), { baseUrl: s.url, seed: 1, only: ['limits'] });
      const page = report.results.find((r) => r.check === 'limits.page-size');
      expect(page?.outcome).toBe('skipped');
      expect(page?.notRun).toBeUndefined();
      expect(page?.reason).toContain('not shown');
    } finally {
      await s.close();
    }
  }, 60_000);
});
