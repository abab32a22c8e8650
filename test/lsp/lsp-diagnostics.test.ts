// The server's diagnostics are `check --format json`'s for the same text: every spec under examples/ and
// test/fixtures, through a real LSP client over stdio.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol/node';
import { CodeActionRequest } from 'vscode-languageserver-protocol/node';
import { ROOT, runCli } from '../cli/cli-helpers.js';
import { startLspClient, uriOf, type LspClient } from './lsp-client.js';

function specsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return specsUnder(path);
    return /\.(ya?ml|json)$/.test(name) ? [path] : [];
  });
}

const SPECS = [...specsUnder(join(ROOT, 'examples')), ...specsUnder(join(ROOT, 'test', 'fixtures'))];

interface CheckDiagnostic {
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  line?: number;
  column?: number;
}

const SEVERITY = { error: 1, warning: 2, info: 3 } as const;

async function checkJson(path: string): Promise<CheckDiagnostic[]> {
  const r = await runCli(['check', path, '--format', 'json']);
  return (JSON.parse(r.stdout) as { diagnostics: CheckDiagnostic[] }).diagnostics;
}

/** check prints errors first (cli-shared.ts, sortBySeverity), each severity in the compile's order; an editor sorts by place. */
const bySeverity = (list: Diagnostic[]): Diagnostic[] => [...list].sort((a, b) => a.severity! - b.severity!);

function asCheck(d: Diagnostic): [string, number, string, number, number] {
  return [String(d.code), d.severity!, typeof d.message === 'string' ? d.message : d.message.value, d.range.start.line + 1, d.range.start.character + 1];
}

let client: LspClient;
beforeAll(async () => {
  client = await startLspClient();
}, 60_000);
afterAll(async () => {
  expect(await client.close()).toBe(0);
});

describe('diagnostics equal check --format json', { timeout: 120_000 }, () => {
  it(`for every spec under examples/ and test/fixtures (${SPECS.length} files)`, async () => {
    expect(SPECS.length).toBeGreaterThan(20);
    let compared = 0;
    for (const path of SPECS) {
      const expected = (await checkJson(path)).map((d): [string, number, string, number, number] => [
        d.code,
        SEVERITY[d.severity],
        d.message,
        d.line ?? 1,
        d.column ?? 1,
      ]);
      const got = bySeverity(await client.open(uriOf(path), readFileSync(path, 'utf8'))).map(asCheck);
      expect(got, relative(ROOT, path)).toEqual(expected);
      compared += expected.length;
    }
    // The comparison is not vacuous: the fixtures hold errors and warnings.
    expect(compared).toBeGreaterThan(10);
  });

  it('on change too (debounced), and ranges cover the token the diagnostic is about', async () => {
    const path = join(ROOT, 'examples', 'orders.yaml');
    const uri = uriOf(path);
    const text = readFileSync(path, 'utf8');
    expect(await client.open(uri, text)).toEqual([]);
    const typo = text.replace('      resource: Customer\n      summary: Read one customer.', '      resource: Custmer\n      summary: Read one customer.');
    const diagnostics = await client.change(uri, typo);
    const d = diagnostics.find((x) => x.code === 'unknown-resource')!;
    expect(d.message).toContain('did you mean `Customer`?');
    const line = typo.split('\n')[d.range.start.line]!;
    expect(line.slice(d.range.start.character, d.range.end.character)).toBe('Custmer');
    // The did-you-mean as a quick fix.
    const actions = (await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    })) as CodeAction[];
    const fix = actions.find((a) => a.title === 'Change to `Customer`')!;
    expect(fix.isPreferred).toBe(true);
    const edit = fix.edit!.changes![uri]![0]!;
    expect(edit.range).toEqual(d.range);
    expect(edit.newText).toBe('Customer');
    // Back to the clean text: no diagnostics.
    expect(await client.change(uri, text)).toEqual([]);
  });

  it('an unparseable file gets its YAML errors, the same as check', async () => {
    const path = join(ROOT, 'examples', 'library.yaml');
    const uri = uriOf(path);
    const broken = `${readFileSync(path, 'utf8')}\n  bad: [unclosed\n`;
    await client.open(uri, readFileSync(path, 'utf8'));
    const got = bySeverity(await client.change(uri, broken)).map(asCheck);
    const r = await runCli(['check', '-', '--format', 'json'], { input: broken });
    const expected = (JSON.parse(r.stdout) as { diagnostics: CheckDiagnostic[] }).diagnostics.map((d) => [
      d.code,
      SEVERITY[d.severity],
      d.message,
      d.line ?? 1,
      d.column ?? 1,
    ]);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected[0]![0]).toBe('yaml-syntax');
    expect(got).toEqual(expected);
  });
});
