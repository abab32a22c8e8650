// `serve --handlers h.ts` from the built bin, as a user runs it (plain node, no loader of ours): TypeScript handlers
// load on Node 20 (no type stripping) and 24, and a syntax error is a message naming file:line:col, not a stack.

import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLES, freePort, ROOT, STACK_LINE, tempDir } from './cli-helpers.js';

const BIN = join(ROOT, 'dist', 'cli', 'cli-main.js');
const ORDERS = EXAMPLES[2]!;
const FIXTURES = join(ROOT, 'test', 'fixtures', 'handlers');

function serve(args: string[]): { output: () => string; ready: Promise<number | null>; stop: () => void } {
  const child = spawn(process.execPath, [BIN, 'serve', ORDERS, '--db', 'sqlite::memory:', '--allow-gaps', '--log', 'silent', ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<number | null>((done) => {
    const seen = (s: string) => ((output += s), /serving Orders at/.test(output) && done(null));
    child.stdout.setEncoding('utf8').on('data', seen);
    child.stderr.setEncoding('utf8').on('data', seen);
    child.on('close', (code) => done(code));
  });
  return { output: () => output, ready, stop: () => void child.kill('SIGTERM') };
}

describe('serve --handlers FILE.ts (the built bin)', { timeout: 120_000 }, () => {
  it('is run from dist/', () => expect(existsSync(BIN), 'npm run build first').toBe(true));

  it('loads TypeScript handlers (an enum included) and answers with them', async () => {
    const port = await freePort();
    const served = serve(['--handlers', join(FIXTURES, 'orders-handlers.ts'), '--port', String(port)]);
    try {
      expect(await served.ready, served.output()).toBeNull();
      const res = await fetch(`http://127.0.0.1:${port}/quotes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ currency: 'EUR', items: [{ sku: 'MUG-BLUE-350', quantity: 2 }] }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ amount: 2598, currency: 'EUR', valid_until: '1970-01-01T00:00:00.000Z' });
    } finally {
      served.stop();
    }
  });

  it('reports a syntax error with its file, line and column, and exits 1 with no stack', async () => {
    const dir = tempDir();
    const file = join(dir.path, 'broken-handlers.ts');
    // written here, not kept in test/fixtures: the project's own typecheck would refuse it
    writeFileSync(file, 'export const handlers = {\n  quote(request: { body: unknown }): number => 1,\n};\n');
    const served = serve(['--handlers', file, '--port', String(await freePort())]);
    expect(await served.ready).toBe(1);
    expect(served.output()).toContain(`servicespec serve: cannot load handlers from ${file}: TypeScript syntax error\n  ${file}:2:`);
    expect(served.output()).not.toMatch(STACK_LINE);
    dir.remove();
  });
});
