// `servicespec handlers-type`: the generated `Handlers` type makes tsc report a handler with the wrong shape, and
// accepts the example's own handler written in TypeScript.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, ROOT, runCli, tempDir } from './cli-helpers.js';

const exec = promisify(execFile);
const ORDERS = EXAMPLES[2]!;
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

const GOOD = `import type { Handlers } from './handlers-types.js';
export const handlers: Handlers = {
  quote({ body, fail }) {
    if (body.items.length === 0) fail('validation', 'no items');
    return { amount: body.items.reduce((n, i) => n + i.quantity * 1299, 0), currency: body.currency, valid_until: new Date(0).toISOString() };
  },
};
`;

async function tsc(dir: string): Promise<{ code: number; out: string }> {
  try {
    await exec(process.execPath, [TSC, '--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', 'handlers.ts'], { cwd: dir, timeout: 120_000 });
    return { code: 0, out: '' };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

describe('servicespec handlers-type', { timeout: 240_000 }, () => {
  it('types each handler; tsc accepts a right handler and names the wrong one', async () => {
    expect(existsSync(join(ROOT, 'dist', 'runtime', 'service', 'runtime-api.d.ts')), 'npm run build first').toBe(true);
    const dir = tempDir();
    try {
      // the project's own copy of servicespec, as after `npm install servicespec`
      mkdirSync(join(dir.path, 'node_modules'));
      symlinkSync(ROOT, join(dir.path, 'node_modules', 'servicespec'), 'dir');
      symlinkSync(join(ROOT, 'node_modules', '@types'), join(dir.path, 'node_modules', '@types'), 'dir');
      writeFileSync(join(dir.path, 'package.json'), '{"type":"module"}');
      const r = await runCli(['handlers-type', ORDERS, '-o', join(dir.path, 'handlers-types.ts')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(`wrote ${join(dir.path, 'handlers-types.ts')}\n`);
      writeFileSync(join(dir.path, 'handlers.ts'), GOOD);
      expect(await tsc(dir.path)).toEqual({ code: 0, out: '' });
      writeFileSync(join(dir.path, 'handlers.ts'), GOOD.replace('currency: body.currency', 'currency: 978'));
      const wrong = await tsc(dir.path);
      expect(wrong.code).not.toBe(0);
      expect(wrong.out).toMatch(/^handlers\.ts\(3,3\): error TS2322: /m);
      expect(wrong.out).toContain("Type 'number' is not assignable to type 'string'");
      writeFileSync(join(dir.path, 'handlers.ts'), GOOD.replace('quote(', 'qoute('));
      expect((await tsc(dir.path)).out).toContain("'qoute' does not exist in type 'Handlers'");
    } finally {
      dir.remove();
    }
  });

  it('refuses a spec with errors (exit 1), with its diagnostics', async () => {
    const dir = tempDir();
    try {
      const bad = join(dir.path, 'bad.yaml');
      writeFileSync(bad, 'servicespec: 1\nendpoints:\n  operations:\n    a: { method: GET, path: /a, action: read, resource: Ghost }\n');
      const r = await runCli(['handlers-type', bad]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error unknown-resource/);
    } finally {
      dir.remove();
    }
  });
});
