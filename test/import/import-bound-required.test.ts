// A read-only field every create's path gives (a task's project_id under /projects/{projectId}/tasks) has a source
// of its value: it stays required, as the document says, where a read-only required field nothing gives is made
// optional and said (import-approximated).

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importOpenApiFile } from '../../src/import/import-openapi.js';

const TASKS = fileURLToPath(new URL('../tester/fixtures/tasks.openapi.yaml', import.meta.url));

describe('a read-only required field the path gives', () => {
  it('stays required, nothing approximated; created_at, which nothing gives, is made optional and said', async () => {
    const r = await importOpenApiFile(TASKS);
    const task = r.document!.resources!.Task!.fields!;
    expect(task.project_id).toMatchObject({ readOnly: true });
    expect(task.project_id!.optional).toBeUndefined();
    const said = r.diagnostics.filter((d) => d.code === 'import-approximated' && d.message.includes('(read-only and required)')).map((d) => d.message);
    expect(said.some((m) => m.includes('Task field project_id'))).toBe(false);
    expect(said.some((m) => m.includes('Task field created_at'))).toBe(true);
    expect(r.compiled!.diagnostics.filter((d) => d.code === 'readonly-without-source')).toEqual([]);
  });
});
