// The format's JSON Schema compiled ahead of time: `npm run build` writes Ajv's standalone code for it next to the
// built spec-validate.js, so a command loads a ready validator instead of compiling the schema (most of what
// `check` of a small spec spent). spec-validate.ts uses that file only when its schema hash matches the schema it
// reads, and compiles as before otherwise (running from src/, or a schema edited after the build).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020, Options } from 'ajv/dist/2020.js';
import type * as Ajv2020Module from 'ajv/dist/2020.js';

const require = createRequire(import.meta.url);

/** The options every validator of the format is built with, ahead of time or not. */
export const SCHEMA_AJV_OPTIONS: Options = { allErrors: true, verbose: true, strict: true, allowUnionTypes: true };

/** The name of the ahead-of-time validator, next to the built spec-validate.js. */
export const PRECOMPILED_VALIDATOR = 'spec-schema-validator.cjs';

export function getSchemaHash(schemaText: string): string {
  return createHash('sha256').update(schemaText).digest('hex');
}

/** Ajv with the format's options and formats; `source` keeps the code for the standalone output. */
export function createSchemaAjv(source = false): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof Ajv2020Module;
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  return addFormats(new Ajv({ ...SCHEMA_AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) }));
}

/** CommonJS standalone validator code for the schema text, exporting the validator and `schemaHash`. */
export function buildSchemaValidatorCode(schemaText: string): string {
  const ajv = createSchemaAjv(true);
  const validate = ajv.compile(JSON.parse(schemaText) as object);
  const standalone = require('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, v: unknown) => string };
  return `${standalone.default(ajv, validate)}\nmodule.exports.schemaHash = ${JSON.stringify(getSchemaHash(schemaText))};\n`;
}

// `node dist/spec/spec-schema-build.js`: the build step.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const schemaText = readFileSync(fileURLToPath(new URL('../../schema/servicespec.schema.json', import.meta.url)), 'utf8');
  writeFileSync(fileURLToPath(new URL(PRECOMPILED_VALIDATOR, import.meta.url)), buildSchemaValidatorCode(schemaText));
}
