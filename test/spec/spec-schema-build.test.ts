// The validator `npm run build` compiles ahead of time gives the errors Ajv's own compile gives.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildSchemaValidatorCode, createSchemaAjv, getSchemaHash } from '../../src/spec/spec-schema-build.js';
import { SCHEMA_PATH } from '../../src/spec/spec-validate.js';

const schemaText = readFileSync(SCHEMA_PATH, 'utf8');

function loadCode(code: string): ValidateFunction & { schemaHash: string } {
  const module = { exports: {} as ValidateFunction & { schemaHash: string } };
  new Function('require', 'module', 'exports', code)(createRequire(import.meta.url), module, module.exports);
  return module.exports;
}

const ahead = loadCode(buildSchemaValidatorCode(schemaText));
const compiled = createSchemaAjv().compile(JSON.parse(schemaText) as object);

function sameErrors(doc: unknown): void {
  const a = ahead(doc);
  const b = compiled(doc);
  expect(a).toBe(b);
  expect(ahead.errors ?? null).toEqual(compiled.errors ?? null);
}

describe('the ahead-of-time schema validator', () => {
  it('carries the hash of the schema it was built from', () => {
    expect(ahead.schemaHash).toBe(getSchemaHash(schemaText));
    expect(getSchemaHash(`${schemaText} `)).not.toBe(ahead.schemaHash);
  });

  it('gives the same answer and errors as a compiled one on the examples and broken variants of them', () => {
    const dir = new URL('../../examples/', import.meta.url).pathname;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
      const doc = load(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
      sameErrors(doc);
      for (const key of Object.keys(doc)) {
        sameErrors({ ...doc, [key]: 'text' });
        sameErrors({ ...doc, [key]: [1, { x: null }] });
      }
    }
  });

  it('property: the same answer and errors for any value in any part', () => {
    const parts = ['servicespec', 'purpose', 'resources', 'states', 'endpoints', 'authentication', 'events', 'errors', 'limits', 'versioning', 'other'];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...parts), fc.jsonValue({ maxDepth: 4 })), (doc) => sameErrors(doc)),
      { numRuns: 300 },
    );
  }, 60_000);
});
