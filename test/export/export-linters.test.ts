import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { generateClient } from '../../src/export/export-client.js';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import { compileSpecText } from '../../src/program.js';
import { EXAMPLE_NAMES, exampleModel, ROOT, run, tempDir } from './helpers.js';
import { CALLBACK_SPEC } from '../support/callbacks.js';

// Issue 15 item 8: every export of the example specs passes the linters we did not write — Spectral's `spectral:oas`
// and `spectral:asyncapi` rulesets (all their rules), openapi-typescript — and the generated client compiles on
// TypeScript 5.9 as well as 6. (swagger-parser, Redocly and @asyncapi/parser are in export-openapi/asyncapi.test.ts.)

interface SpectralResult {
  code: string | number;
  message: string;
  severity: number;
  path: (string | number)[];
}

const require = createRequire(import.meta.url);
const { Spectral, Document } = require('@stoplight/spectral-core') as {
  Spectral: new () => { setRuleset(r: unknown): void; run(d: unknown): Promise<SpectralResult[]> };
  Document: new (text: string, parser: unknown, source: string) => unknown;
};
const Parsers = require('@stoplight/spectral-parsers') as { Yaml: unknown };
const { oas, asyncapi } = require('@stoplight/spectral-rulesets') as { oas: unknown; asyncapi: unknown };

const VERSIONS: readonly OpenApiVersion[] = ['3.1', '3.0'];
const SEVERITY = ['error', 'warn', 'info', 'hint'];
const tmp = tempDir('servicespec-linters-');
afterAll(() => tmp.remove());

async function spectral(doc: JsonObject, ruleset: unknown, source: string): Promise<string[]> {
  const s = new Spectral();
  s.setRuleset({ extends: [[ruleset, 'all']] });
  const results = await s.run(new Document(serializeDocument(doc, 'yaml'), Parsers.Yaml, source));
  return results.map((r) => `${SEVERITY[r.severity] ?? r.severity} ${r.code}: ${r.message} at ${r.path.join('/')}`);
}

describe('Spectral accepts every export of the examples', () => {
  for (const name of EXAMPLE_NAMES) {
    for (const version of VERSIONS) {
      it(`${name} as OpenAPI ${version}: spectral:oas has no errors, no server-variable or security-defined findings`, async () => {
        const found = await spectral(exportOpenApi(exampleModel(name), { openapi: version }).document, oas, `${name}-${version}.yaml`);
        expect(found.filter((f) => f.startsWith('error '))).toEqual([]);
        expect(found.filter((f) => /oas3-server-variables|oas3-operation-security-defined|oas3-server-not-example/.test(f))).toEqual([]);
      }, 60_000);
    }
    it(`${name} as AsyncAPI 3.0: spectral:asyncapi has no errors, and no protocol the spec does not say`, async () => {
      const doc = exportAsyncApi(exampleModel(name)).document;
      const found = await spectral(doc, asyncapi, `${name}-asyncapi.yaml`);
      expect(found.filter((f) => f.startsWith('error '))).toEqual([]);
      // A protocol is stated only beside its alternative (https and http), or from a base address that says it.
      const servers = Object.values((doc.servers ?? {}) as Record<string, JsonObject>);
      const protocols = servers.map((s) => s.protocol);
      for (const host of new Set(servers.map((s) => s.host))) {
        expect(
          servers
            .filter((s) => s.host === host)
            .map((s) => s.protocol)
            .sort(),
        ).toEqual(['http', 'https']);
      }
      expect(protocols.length % 2).toBe(0);
    }, 60_000);
  }
});

describe('Spectral accepts an export with the version in the media type', () => {
  for (const version of VERSIONS) {
    it(`orders, its version in application/vnd.orders.v{version}+json, as OpenAPI ${version}: spectral:oas has no errors`, async () => {
      const text = readFileSync(join(ROOT, 'examples', 'orders.yaml'), 'utf8').replace(
        'placement: { header: Service-Version }',
        'placement: { media_type: "application/vnd.orders.v{version}+json" }',
      );
      const model = compileSpecText(text, 'orders-media.yaml').model!;
      expect(model.versioning?.placement).toEqual({ kind: 'media_type', template: 'application/vnd.orders.v{version}+json' });
      const found = await spectral(exportOpenApi(model, { openapi: version }).document, oas, `orders-media-${version}.yaml`);
      expect(found.filter((f) => f.startsWith('error '))).toEqual([]);
    }, 60_000);
  }
});

describe('Spectral accepts an export with callbacks', () => {
  for (const version of VERSIONS) {
    it(`a create with callbacks (test/support/callbacks.ts) as OpenAPI ${version}: spectral:oas has no errors`, async () => {
      const model = compileSpecText(CALLBACK_SPEC, 'callbacks.yaml').model!;
      const doc = exportOpenApi(model, { openapi: version }).document;
      expect(JSON.stringify(doc)).toContain('{$request.body#/callbackUrl}');
      const found = await spectral(doc, oas, `callbacks-${version}.yaml`);
      expect(found.filter((f) => f.startsWith('error '))).toEqual([]);
    }, 60_000);
  }
});

describe('openapi-typescript generates types from every OpenAPI export', () => {
  it('for each example and version, and the types compile under --strict', async () => {
    const files: string[] = [];
    for (const name of EXAMPLE_NAMES) {
      for (const version of VERSIONS) {
        const doc = exportOpenApi(exampleModel(name), { openapi: version }).document;
        const ts = astToString(await openapiTS(structuredClone(doc) as never, { silent: true }));
        expect(ts).toMatch(name === 'empty' ? /export type paths = / : /export interface paths \{/);
        const file = `${name}-${version.replace('.', '')}.d.ts`;
        writeFileSync(join(tmp.path, file), ts);
        files.push(file);
      }
    }
    const r = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', ...files], { cwd: tmp.path });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  }, 120_000);
});

describe('the generated client compiles on TypeScript 5.9 too', () => {
  it('tsc 5.9 --strict with --target ES2018 (the one setting 5.9 needs: it defaults to ES5), and not without it', async () => {
    const files: string[] = [];
    for (const name of EXAMPLE_NAMES) {
      const code = generateClient(exampleModel(name)).code;
      expect(code).toContain('TypeScript 5.9 defaults to ES5, so pass `--target ES2018` there');
      const file = `${name}-client.ts`;
      writeFileSync(join(tmp.path, file), code);
      files.push(file);
    }
    const tsc59 = join(ROOT, 'node_modules', 'typescript59', 'bin', 'tsc');
    const version = await run(process.execPath, [tsc59, '--version']);
    expect(version.stdout).toMatch(/^Version 5\.9\./);
    const r = await run(process.execPath, [tsc59, '--strict', '--noEmit', '--target', 'ES2018', ...files], { cwd: tmp.path });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The requirement is real: with 5.9's own default target the client does not compile (async generators, Map, …).
    const plain = await run(process.execPath, [tsc59, '--strict', '--noEmit', ...files], { cwd: tmp.path });
    expect(plain.code).not.toBe(0);
    // TypeScript 6 with its defaults
    const six = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '--strict', '--noEmit', ...files], { cwd: tmp.path });
    expect(six.stdout + six.stderr).toBe('');
    expect(six.code).toBe(0);
  }, 180_000);
});
