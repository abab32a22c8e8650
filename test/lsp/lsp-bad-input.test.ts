// Bad input: a file that is not a servicespec, a binary file, a 20 MB file. The server answers each with check's
// diagnostic (the exact code), answers every request on it, and stays up for the next file.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompletionRequest, DocumentSymbolRequest, HoverRequest, ReferencesRequest, type Diagnostic } from 'vscode-languageserver-protocol/node';
import { runCli } from '../cli/cli-helpers.js';
import { startLspClient, type LspClient } from './lsp-client.js';

let client: LspClient;
beforeAll(async () => {
  client = await startLspClient();
}, 60_000);
afterAll(async () => {
  expect(await client.close()).toBe(0);
  expect(client.stderr()).toBe('');
});

/** A binary file as an editor that opens it as Latin-1 hands it over: every byte a character, NULs included. */
const BINARY = Array.from({ length: 4096 }, (_, i) => String.fromCharCode((i * 37) % 256)).join('');
const TWENTY_MB = `servicespec: 1\npurpose:\n  name: Big\n  description: "${'x'.repeat(20 * 1024 * 1024)}"\n`;

const CASES: [string, string, string][] = [
  ['a YAML file that is not a servicespec', 'file:///bad/hello.yaml', 'hello: world\nlist: [1, 2]\n'],
  ['an OpenAPI document', 'file:///bad/openapi.yaml', 'openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n'],
  ['a binary file', 'file:///bad/image.png', BINARY],
  ['a 20 MB file', 'file:///bad/big.yaml', TWENTY_MB],
  ['an empty file', 'file:///bad/empty.yaml', ''],
];
const EXPECTED: Record<string, string[]> = {
  'a YAML file that is not a servicespec': ['missing-format-version', 'unknown-key', 'unknown-key'],
  'an OpenAPI document': ['openapi-document'],
  'a binary file': ['not-a-mapping'],
  'a 20 MB file': ['file-too-large'],
  'an empty file': ['empty-document'],
};

describe('bad input: the server answers, never crashes', { timeout: 120_000 }, () => {
  for (const [what, uri, text] of CASES) {
    it(what, async () => {
      const diagnostics: Diagnostic[] = await client.open(uri, text);
      expect(diagnostics.map((d) => d.code).sort()).toEqual(EXPECTED[what]);
      // The same as check on the same text (the 20 MB one through standard input too).
      const r = await runCli(['check', '-', '--format', 'json'], { input: text });
      expect((JSON.parse(r.stdout) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code).sort()).toEqual(EXPECTED[what]);
      // Every feature answers on it.
      const position = { line: 0, character: 2 };
      const c = client.connection;
      expect(await c.sendRequest(CompletionRequest.type, { textDocument: { uri }, position })).toBeDefined();
      expect(await c.sendRequest(HoverRequest.type, { textDocument: { uri }, position })).toBeDefined();
      expect(await c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })).toBeDefined();
      expect(await c.sendRequest(ReferencesRequest.type, { textDocument: { uri }, position, context: { includeDeclaration: true } })).toBeDefined();
      // And the next edit is checked as usual.
      expect((await client.change(uri, 'servicespec: 1\n')).map((d) => d.code)).toEqual([]);
    });
  }
});
