// The export, import and client commands, through commander as the `servicespec` binary wires them
// (cli-main registers them; here they are registered on a program of their own).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { registerClientCommand } from '../../src/cli/cli-generate-client.js';
import { registerExportCommand } from '../../src/cli/cli-export.js';
import { registerImportCommand } from '../../src/cli/cli-import.js';
import { io } from '../../src/cli/cli-shared.js';
import { OPENAPI_FIXTURES, ROOT, tempDir } from './helpers.js';

const tmp = tempDir('servicespec-cli-interop-');
afterAll(() => tmp.remove());
const original = { out: io.out, err: io.err };
afterEach(() => {
  io.out = original.out;
  io.err = original.err;
  process.exitCode = undefined;
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  io.out = (s) => void (stdout += s);
  io.err = (s) => void (stderr += s);
  const program = new Command('servicespec').exitOverride().configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  registerExportCommand(program);
  registerImportCommand(program);
  registerClientCommand(program);
  process.exitCode = undefined;
  try {
    await program.parseAsync(['node', 'servicespec', ...args]);
  } catch {
    return { code: 2, stdout, stderr };
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout, stderr };
}

const example = (name: string) => join(ROOT, 'examples', `${name}.yaml`);

describe('servicespec export', () => {
  it('openapi: YAML on stdout, the extension diagnostics on stderr; --openapi 3.0 and -o file.json', async () => {
    const r = await cli('export', 'openapi', example('orders'), '--verbose');
    expect(r.code).toBe(0);
    expect((parse(r.stdout) as { openapi: string }).openapi).toBe('3.1.0');
    expect(r.stderr).toContain('info export-extension: the Order state machine');
    const out = join(tmp.path, 'orders.json');
    const f = await cli('export', 'openapi', example('orders'), '--openapi', '3.0', '-o', out, '-q');
    expect(f).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((JSON.parse(readFileSync(out, 'utf8')) as { openapi: string }).openapi).toBe('3.0.3');
  });

  it('asyncapi and json-schema (one document, or --dir one file per schema)', async () => {
    const a = await cli('export', 'asyncapi', example('library'), '-q');
    expect((parse(a.stdout) as { asyncapi: string }).asyncapi).toBe('3.0.0');
    const j = await cli('export', 'json-schema', example('library'), '-q');
    expect(Object.keys((JSON.parse(j.stdout) as { $defs: object }).$defs)).toContain('LoanCreate');
    const dir = join(tmp.path, 'schemas');
    const d = await cli('export', 'json-schema', example('library'), '--dir', dir);
    expect(d.code).toBe(0);
    expect(readdirSync(dir)).toContain('Member.schema.json');
  });

  it('refuses a spec with errors (exit 1) and a bad option (exit 2), with no stack trace', async () => {
    const bad = join(tmp.path, 'bad.yaml');
    (await import('node:fs')).writeFileSync(
      bad,
      'servicespec: 1\nendpoints:\n  operations:\n    a: { method: GET, path: /a, action: read, resource: Ghost }\n',
    );
    const r = await cli('export', 'openapi', bad);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown-resource');
    expect((await cli('export', 'openapi', example('orders'), '--openapi', '2.0')).code).toBe(2);
    expect((await cli('export', 'openapi', example('orders'), '-o', join(tmp.path, 'no', 'such', 'dir.yaml'))).stderr).toContain('output-unwritable');
  });
});

describe('servicespec import openapi', () => {
  it('writes the spec and prints the gap report', async () => {
    const out = join(tmp.path, 'petstore.servicespec.yaml');
    const r = await cli('import', 'openapi', join(OPENAPI_FIXTURES, 'oai-petstore.yaml'), '-o', out);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(r.stdout).toContain('Versioning: not shown');
    expect(r.stdout).toMatch(/\d of 9 parts shown/);
    // what the import approximates is said on standard error (petstore: its create's 201 with no body)
    expect(r.stderr).toContain('import-approximated');
    const json = await cli('import', 'openapi', join(OPENAPI_FIXTURES, 'oai-petstore.yaml'), '-o', out, '--format', 'json');
    expect((JSON.parse(json.stdout) as { gaps: { shown: number } }).gaps.shown).toBeGreaterThanOrEqual(0);
    const stdout = await cli('import', 'openapi', join(OPENAPI_FIXTURES, 'oai-petstore.yaml'), '-q');
    expect((parse(stdout.stdout) as { servicespec: number }).servicespec).toBe(1);
    // --quiet: errors only, so no gap report (servicespec gaps prints it).
    expect(stdout.stderr).not.toContain('of 9 parts shown');
  });

  it('exits 1 with one diagnostic on something that is not OpenAPI 3', async () => {
    const r = await cli('import', 'openapi', example('orders'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('import-not-openapi');
  });
});

describe('servicespec client', () => {
  it('writes a TypeScript client', async () => {
    const out = join(tmp.path, 'client.ts');
    const r = await cli('client', example('orders'), '-o', out);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('export class ServiceClient');
  });
});
