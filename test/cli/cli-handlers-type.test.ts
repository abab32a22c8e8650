// `servicespec handlers-type`: the generated `Handlers` type makes tsc report a handler with the wrong shape, and
// accepts the example's own handler written in TypeScript.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, freePort, ROOT, runCli, spawnCli, startCli, STACK_LINE, tempDir } from './cli-helpers.js';

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
    await exec(
      process.execPath,
      [
        TSC,
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        'handlers.ts',
      ],
      { cwd: dir, timeout: 120_000 },
    );
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
      // serve --check-types: the same type error, reported as such before serving, with no stack
      writeFileSync(join(dir.path, 'handlers.ts'), GOOD.replace('currency: body.currency', 'currency: 978'));
      const serveArgs = ['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--log', 'silent', '--handlers', 'handlers.ts', '--check-types'];
      // in a child process: Node remembers a failed package lookup for the rest of the process
      const without = await spawnCli(serveArgs, { cwd: dir.path });
      expect(without.code).toBe(1);
      expect(without.stderr).toBe(
        'servicespec serve: --check-types: no typescript package is installed for handlers.ts (npm install --save-dev typescript in its project)\n',
      );
      symlinkSync(join(ROOT, 'node_modules', 'typescript'), join(dir.path, 'node_modules', 'typescript'), 'dir');
      const refused = await runCli(serveArgs, { cwd: dir.path });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^servicespec serve: handlers\.ts has 1 type error; not serving\n {2}handlers\.ts:3:3: TS2322: /);
      expect(refused.stderr).not.toMatch(STACK_LINE);
      writeFileSync(join(dir.path, 'handlers.ts'), GOOD);
      const port = await freePort();
      const served = startCli(
        ['serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--log', 'silent', '--handlers', 'handlers.ts', '--check-types', '--port', String(port)],
        { cwd: dir.path },
      );
      try {
        await served.waitFor(/serving Orders at/, 120_000);
        const res = await fetch(`http://127.0.0.1:${port}/quotes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ currency: 'EUR', items: [{ sku: 'MUG-RED-350', quantity: 1 }] }),
        });
        expect(await res.json()).toEqual({ amount: 1299, currency: 'EUR', valid_until: '1970-01-01T00:00:00.000Z' });
      } finally {
        await served.stop();
      }
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
