// End to end with a real editor: Neovim headless (Debian's `neovim`) opens a spec, its own LSP client starts
// `servicespec lsp --stdio`, and the diagnostics Neovim holds equal `check --format json`'s for the file.
// Skipped, with the reason printed, where nvim is not installed.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../cli/cli-helpers.js';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const hasNvim = nvim.status === 0;
if (!hasNvim) console.log('lsp-neovim: skipped: nvim is not installed (Debian: apt-get install -y neovim)');

const dir = mkdtempSync(join(tmpdir(), 'servicespec-nvim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasNvim)('Neovim headless reads our diagnostics', { timeout: 120_000 }, () => {
  it('a misspelt resource in examples/orders.yaml: the same code, line, column and message as check', async () => {
    const spec = join(dir, 'spec.yaml');
    const text = readFileSync(join(ROOT, 'examples', 'orders.yaml'), 'utf8').replace(
      '      resource: Customer\n      summary: Read one customer.',
      '      resource: Custmer\n      summary: Read one customer.',
    );
    writeFileSync(spec, text);
    const out = join(dir, 'out.json');
    const r = spawnSync(
      'nvim',
      ['--headless', '-n', '-u', 'NONE', '-i', 'NONE', spec, '-c', `luafile ${join(ROOT, 'test', 'lsp', 'neovim', 'lsp-diagnostics.lua')}`],
      {
        cwd: dir,
        encoding: 'utf8',
        timeout: 100_000,
        env: {
          ...process.env,
          SERVICESPEC_ROOT: ROOT,
          NVIM_LSP_OUT: out,
          NODE: process.execPath,
          TSX_LOADER: pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href,
        },
      },
    );
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(readFileSync(out, 'utf8')) as {
      ok: boolean;
      diagnostics: { code: string; lnum: number; col: number; message: string; severity: number }[];
    };
    expect(got.ok).toBe(true);
    const check = JSON.parse((await runCli(['check', spec, '--format', 'json'])).stdout) as {
      diagnostics: { code: string; line: number; column: number; message: string }[];
    };
    expect(check.diagnostics.map((d) => d.code)).toEqual(['unknown-resource']);
    expect(got.diagnostics.map((d) => [d.code, d.lnum + 1, d.col + 1, d.message])).toEqual(check.diagnostics.map((d) => [d.code, d.line, d.column, d.message]));
  });
});
