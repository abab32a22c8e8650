// `servicespec gaps --handlers FILE` names each custom operation the handlers module leaves without a handler, as
// `serve` without --allow-gaps refuses it (issue 26): an imported document's custom operations, and a handlers file
// giving some of them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';
import { OPENAPI_FIXTURES } from '../export/helpers.js';
import { ROOT, runCli, tempDir } from './cli-helpers.js';

const tmp = tempDir();
const spec = join(tmp.path, 'uspto.yaml');
const some = join(tmp.path, 'some-handlers.mjs');
const all = join(ROOT, 'test', 'fixtures', 'handlers', 'oai-uspto.ts');
afterAll(() => tmp.remove());
beforeAll(async () => {
  writeFileSync(spec, (await importOpenApiFile(join(OPENAPI_FIXTURES, 'oai-uspto.yaml'))).text!);
  writeFileSync(some, 'export const handlers = { listDataSets: () => ({ total: 0, apis: [] }) };\n');
});

describe('servicespec gaps --handlers', { timeout: 60_000 }, () => {
  it('names each custom operation the handlers file gives no handler, in Endpoints', async () => {
    const r = await runCli(['gaps', spec, '--handlers', some, '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  - handler (operation list-searchable-fields: listSearchableFields not given): not shown\n');
    expect(r.stdout).toContain('  - handler (operation perform-search: performSearch not given): not shown\n');
    expect(r.stdout).not.toContain('operation list-data-sets: listDataSets');
  });

  it('names none when the file gives every handler (a TypeScript file, loaded as serve loads it)', async () => {
    const r = await runCli(['gaps', spec, '--handlers', all, '--format', 'json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { parts: { part: string; missing: { item: string }[] }[] };
    expect(report.parts.find((p) => p.part === 'endpoints')!.missing.filter((m) => m.item === 'handler')).toEqual([]);
  });

  it('reports nothing about handlers without --handlers, and refuses a file that cannot be loaded', async () => {
    expect((await runCli(['gaps', spec, '--quiet'])).stdout).not.toContain('handler (');
    const r = await runCli(['gaps', spec, '--handlers', join(tmp.path, 'missing.mjs')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^servicespec gaps: cannot load handlers from .*missing\.mjs/);
  });

  it('names what serve refuses: serve without --allow-gaps names the same operations', async () => {
    const r = await runCli(['serve', spec, '--handlers', some, '--db', `sqlite:${join(tmp.path, 'refused.db')}`, '--port', '0']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('handler listSearchableFields of custom operation list-searchable-fields: not given');
    expect(r.stderr).toContain('handler performSearch of custom operation perform-search: not given');
    expect(r.stderr).not.toContain('custom operation list-data-sets');
  });
});
