// Issue 26: the OpenAPI exports of unions, and of every spec under examples/ and test/fixtures, against the tools we did
// not write — swagger-parser (3.1 and 3.0), Redocly's recommended rules, Spectral's spectral:oas — and the AsyncAPI
// export's discriminators.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { exportAsyncApi } from '../../src/export/export-asyncapi.js';
import { exportOpenApi, type OpenApiVersion } from '../../src/export/export-openapi.js';
import { serializeDocument, type JsonObject } from '../../src/export/export-shared.js';
import type { ServiceModel } from '../../src/model/model-types.js';
import { compileSpecFile, compileSpecText } from '../../src/program.js';
import { UNIONS_EVERYWHERE } from '../support/unions-everywhere.js';
import { ROOT, run, tempDir, type LintProblem } from './helpers.js';

const VERSIONS: readonly OpenApiVersion[] = ['3.1', '3.0'];
const tmp = tempDir('servicespec-unions-lint-');
afterAll(() => tmp.remove());

/** `redocly lint` with the recommended rules over several files in one process: each file's problems. */
async function redoclyLintAll(files: readonly string[]): Promise<Map<string, LintProblem[]>> {
  writeFileSync(join(tmp.path, 'redocly.yaml'), 'extends:\n  - recommended\n');
  const cli = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const r = await run(process.execPath, [cli, 'lint', '--format=json', '--config', join(tmp.path, 'redocly.yaml'), ...files], {
    cwd: tmp.path,
    env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  });
  const out = new Map<string, LintProblem[]>(files.map((f) => [f, []]));
  // one JSON report per file, written one after the other
  const text = r.stdout.slice(r.stdout.indexOf('{'));
  const reports = text.split(/\n\}\s*\{/).map((part, i, all) => (i > 0 ? '{' : '') + part + (i < all.length - 1 ? '\n}' : ''));
  expect(reports.length, r.stderr.slice(0, 500)).toBe(files.length);
  reports.forEach((rep, i) => {
    const problems = (JSON.parse(rep) as { problems: (LintProblem & { location: { source?: { ref?: string } }[] })[] }).problems;
    for (const p of problems) expect(p.location[0]?.source?.ref, 'a problem of another file').toBe(basename(files[i]!));
    out.set(files[i]!, problems);
  });
  return out;
}

/** Every schema holding a discriminator object, by JSON pointer, with whether `type: object` is beside it. */
function discriminators(node: unknown, path = ''): { path: string; typed: boolean }[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => discriminators(n, `${path}/${i}`));
  if (!node || typeof node !== 'object') return [];
  const o = node as JsonObject;
  const out: { path: string; typed: boolean }[] = [];
  const d = o.discriminator;
  if ((typeof d === 'object' && d !== null && !Array.isArray(d)) || (typeof d === 'string' && Array.isArray(o.oneOf))) {
    out.push({ path, typed: o.type === 'object' || (Array.isArray(o.type) && o.type.includes('object')) });
  }
  for (const [k, v] of Object.entries(o)) if (!k.startsWith('x-') && k !== 'discriminator') out.push(...discriminators(v, `${path}/${k}`));
  return out;
}

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
const { oas } = require('@stoplight/spectral-rulesets') as { oas: unknown };

describe('OpenAPI export of unions everywhere (fields, nullable, in arrays, bodies, lists, event payloads, webhooks)', () => {
  const model = compileSpecText(UNIONS_EVERYWHERE, 'unions.yaml').model!;

  it('the spec compiles without errors', () => {
    expect(compileSpecText(UNIONS_EVERYWHERE, 'unions.yaml').diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  for (const version of VERSIONS) {
    it(`OpenAPI ${version}: type object beside every discriminator; swagger-parser validates; Redocly recommended: no errors, no composition warnings; spectral:oas: no errors`, async () => {
      const doc = exportOpenApi(model, { openapi: version }).document;
      const found = discriminators(doc);
      expect(found.length).toBeGreaterThanOrEqual(version === '3.1' ? 10 : 6);
      expect(found.filter((d) => !d.typed)).toEqual([]);
      const file = join(tmp.path, `unions-${version}.yaml`);
      writeFileSync(file, serializeDocument(doc, 'yaml'));
      await expect(SwaggerParser.validate(file)).resolves.toBeDefined();
      const lint = (await redoclyLintAll([file])).get(file)!;
      expect(
        lint.filter((p) => p.severity === 'error' || p.ruleId === 'no-illogical-composition-keywords').map((p) => `${p.ruleId} ${p.location[0]?.pointer}`),
      ).toEqual([]);
      const s = new Spectral();
      s.setRuleset({ extends: [[oas, 'all']] });
      const results = await s.run(new Document(serializeDocument(doc, 'yaml'), Parsers.Yaml, file));
      expect(results.filter((r) => r.severity === 0).map((r) => `${r.code} ${r.path.join('/')}`)).toEqual([]);
    }, 60_000);
  }

  it("the webhook's `previous` refers to the same variant components as the payload, with the discriminator's mapping", () => {
    const doc = exportOpenApi(model, { openapi: '3.1' }).document as JsonObject;
    const webhook = (doc.webhooks as Record<string, JsonObject>)['payment.changed']!.post as JsonObject;
    const body = ((webhook.requestBody as JsonObject).content as Record<string, JsonObject>)['application/json']!.schema as JsonObject;
    const data = (body.properties as Record<string, JsonObject>).data!;
    const previous = (data.properties as Record<string, JsonObject>).previous!;
    const method = ((previous.properties as Record<string, JsonObject>).method!.anyOf as JsonObject[])[0]!;
    expect(method).toEqual({
      type: 'object',
      oneOf: [{ $ref: '#/components/schemas/card' }, { $ref: '#/components/schemas/bank_transfer' }],
      discriminator: { propertyName: 'kind', mapping: { card: '#/components/schemas/card', bank: '#/components/schemas/bank_transfer' } },
    });
    // no second copy of a variant was published for it: the same components as without that event kind
    const without = compileSpecText(UNIONS_EVERYWHERE.replace(/ {4}payment\.changed:.*\n/, ''), 'fewer.yaml').model!;
    const names = (d: JsonObject) => Object.keys((d.components as JsonObject).schemas as JsonObject).sort();
    expect(names(doc)).toEqual(names(exportOpenApi(without, { openapi: '3.1' }).document as JsonObject));
  });

  it('AsyncAPI 3.0: type object beside every discriminator', () => {
    const found = discriminators(exportAsyncApi(model).document);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((d) => !d.typed)).toEqual([]);
  });
});

/** Every spec under examples/ and test/fixtures. */
function fixtureSpecs(): string[] {
  const out = readdirSync(join(ROOT, 'examples'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => join('examples', f));
  for (const d of readdirSync(join(ROOT, 'test', 'fixtures'), { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const dir = join('test', 'fixtures', d.name);
    for (const f of readdirSync(join(ROOT, dir))) {
      const text = f.endsWith('.yaml') ? readFileSync(join(ROOT, dir, f), 'utf8') : '';
      if (/^servicespec: /m.test(text)) out.push(join(dir, f));
    }
  }
  const golden = join('test', 'fixtures', 'openapi', 'golden');
  for (const f of readdirSync(join(ROOT, golden))) if (f.endsWith('.servicespec.yaml')) out.push(join(golden, f));
  return out;
}

/** The spec's operation behind an exported path and method. */
function operationAt(model: ServiceModel, pointer: string) {
  const [, , path, method] = pointer.split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return model.endpoints?.operations.find((o) => o.path === path && o.method.toLowerCase() === method);
}

describe('Redocly (recommended rules) on the OpenAPI exports of every spec under examples/ and test/fixtures', () => {
  it('finds no error but those the OpenAPI is right to carry, and no illogical composition; type object beside every discriminator', async () => {
    const specs = fixtureSpecs();
    expect(specs.length).toBeGreaterThanOrEqual(15);
    const files: { file: string; spec: string; model: ServiceModel }[] = [];
    // Specs whose untagged unions overlap (check's warning `union-indistinguishable`): imported documents whose own
    // oneOf overlaps (ably, vonage), kept as they are; Redocly warns of the original the same way.
    const overlapping = new Set<string>();
    for (const spec of specs) {
      const compiled = compileSpecFile(join(ROOT, spec));
      if (compiled.diagnostics.some((d) => d.code === 'union-indistinguishable')) overlapping.add(spec);
      const model = compiled.model;
      expect(model, spec).toBeDefined();
      for (const version of VERSIONS) {
        const file = join(tmp.path, `${spec.replace(/[^A-Za-z0-9.]+/g, '_')}-${version}.yaml`);
        const doc = exportOpenApi(model!, { openapi: version }).document;
        expect(
          discriminators(doc).filter((d) => !d.typed),
          `${spec} ${version}`,
        ).toEqual([]);
        writeFileSync(file, serializeDocument(doc, 'yaml'));
        files.push({ file, spec, model: model! });
      }
    }
    const lint = await redoclyLintAll(files.map((f) => f.file));
    const unexplained: string[] = [];
    let notShown = 0;
    for (const { file, spec, model } of files) {
      for (const p of lint.get(file)!) {
        const pointer = p.location[0]?.pointer ?? '';
        const where = `${spec}: ${p.severity} ${p.ruleId} at ${pointer}`;
        if (p.ruleId === 'no-illogical-composition-keywords' && !overlapping.has(spec)) unexplained.push(where);
        if (p.severity !== 'error') continue;
        const op = operationAt(model, pointer.replace(/^#/, ''));
        // The spec does not show who may call the operation (no `auth`, no `authentication.default`: a gap, which
        // `gaps` names). OpenAPI's `security: []` would state it public, so the export leaves `security` out.
        if (p.ruleId === 'security-defined' && op && op.authDeclared === 'none' && !model.authentication?.default) {
          notShown++;
          continue;
        }
        // The path as the spec serves it (a trailing slash is a different path), and the operation id as the spec
        // names it (OpenAPI allows any string; a round trip keeps it).
        const path = pointer.split('/')[2]?.replace(/~1/g, '/').replace(/~0/g, '~');
        if (p.ruleId === 'no-path-trailing-slash' && path?.endsWith('/') && model.endpoints?.operations.some((o) => o.path === path)) continue;
        if (p.ruleId === 'operation-operationId-url-safe' && op && !/^[A-Za-z0-9_.~-]+$/.test(op.id)) continue;
        // An operation whose summary the spec leaves empty (Twilio's imported job operations: the original's is ''),
        // exported as it is: one the export wrote would be invented.
        if (p.ruleId === 'operation-summary' && op && !op.summary) continue;
        unexplained.push(where);
      }
    }
    expect(unexplained).toEqual([]);
    expect(notShown).toBeGreaterThan(0);
  }, 180_000);

  it('an operation that says auth: none is exported with security: [] (no credential), so Redocly finds it defined', async () => {
    const model = compileSpecText(UNIONS_EVERYWHERE.replace('authentication: { default: none }\n', ''), 'no-default.yaml').model!;
    const withNone = compileSpecText(UNIONS_EVERYWHERE, 'default-none.yaml').model!;
    const doc = exportOpenApi(withNone, { openapi: '3.1' }).document as JsonObject;
    expect(doc.security).toEqual([]);
    const bare = exportOpenApi(model, { openapi: '3.1' }).document as JsonObject;
    expect(bare.security).toBeUndefined();
    expect(((bare.paths as Record<string, JsonObject>)['/quotes']!.post as JsonObject).security).toBeUndefined();
  });
});
