import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { suggest } from '../diagnostics/diagnostics-suggest.js';
import { createSchemaAjv, getSchemaHash, PRECOMPILED_VALIDATOR } from './spec-schema-build.js';
import { locate, type LoadedSpec } from './spec-loader.js';
import { joinPointer } from '../util/util-json-pointer.js';

export const SCHEMA_PATH = fileURLToPath(new URL('../../schema/servicespec.schema.json', import.meta.url));

let compiled: ValidateFunction | undefined;
let compiledDefs: Record<string, Record<string, unknown>> = {};

/** The format's JSON Schema as shipped in the package. */
export function getSpecSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
}

/** The validator `npm run build` compiled ahead of time, if there is one for exactly this schema. */
function getPrecompiled(schemaText: string): ValidateFunction | undefined {
  try {
    // By way of ../spec/: the same file from dist/cli/cli-check-bundle.cjs (scripts/build-check-bundle.mjs).
    const mod = createRequire(import.meta.url)(`../spec/${PRECOMPILED_VALIDATOR}`) as ValidateFunction & { schemaHash?: string };
    return mod.schemaHash === getSchemaHash(schemaText) ? mod : undefined;
  } catch {
    return undefined;
  }
}

function getValidator(): ValidateFunction {
  if (!compiled) {
    const text = readFileSync(SCHEMA_PATH, 'utf8');
    const schema = JSON.parse(text) as Record<string, unknown>;
    compiledDefs = (schema.$defs ?? {}) as Record<string, Record<string, unknown>>;
    compiled = getPrecompiled(text) ?? createSchemaAjv().compile(schema);
  }
  return compiled;
}

/** Structural validation against the format's JSON Schema; diagnostics carry source positions. */
export function validateSpec(loaded: LoadedSpec): Diagnostic[] {
  const doc = loaded.document;
  if (doc === undefined) return [];
  // An OpenAPI (or Swagger) document given where a spec belongs: one diagnostic saying how to import it.
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const top = doc as Record<string, unknown>;
    const key = !('servicespec' in top) ? (['openapi', 'swagger'] as const).find((k) => k in top) : undefined;
    if (key !== undefined) {
      const version = typeof top[key] === 'string' || typeof top[key] === 'number' ? String(top[key]) : '?';
      const run = `servicespec import openapi ${loaded.file} -o SPEC`;
      const advice = key === 'openapi' || version === '2.0' ? `import it first: ${run}` : `convert it to OpenAPI 3 first, then import it: ${run}`;
      return [
        createDiagnostic(
          'openapi-document',
          { file: loaded.file, kind: key === 'openapi' ? 'an OpenAPI' : 'a Swagger', key, version, advice },
          { file: loaded.file, pointer: `/${key}`, ...locate(loaded.sourceMap, `/${key}`, 'key') },
        ),
      ];
    }
  }
  const validate = getValidator();
  if (validate(doc)) return [];
  // Errors inside propertyNames repeat the propertyNames error itself.
  const pruned = pruneBranches((validate.errors ?? []).filter((e) => e.propertyName === undefined));
  // A value of the wrong type also fails its `const`; report the type alone (`servicespec: "1"`).
  const typed = new Set(pruned.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const errors = pruned.filter((e) => !(e.keyword === 'const' && typed.has(e.instancePath)));
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const d = toDiagnostic(e, loaded);
    const key = `${d.code}|${d.pointer}|${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

function describePath(pointer: string): string {
  if (pointer === '') return 'the top level';
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((t, i) => (/^\d+$/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`))
    .join('');
}

/**
 * For oneOf/anyOf, Ajv reports the errors of every branch. Keep only the branch the value was
 * evidently meant for (the one whose type matched, with the fewest errors); if none matched, keep
 * the union error itself.
 */
function pruneBranches(errors: ErrorObject[]): ErrorObject[] {
  let result = errors;
  const unions = errors.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf');
  // Innermost first, so an outer union sees its inner unions already resolved. Schema paths inside a
  // $ref are relative to the referenced definition, so depth in the instance is what orders them.
  const depth = (e: ErrorObject) => e.instancePath.split('/').length;
  unions.sort((a, b) => depth(b) - depth(a));
  for (const u of unions) {
    const at = result.indexOf(u);
    if (at < 0) continue;
    const prefix = `${u.schemaPath}/`;
    // Errors of a `$ref` branch carry schema paths relative to the definition; the format's unions
    // have at most one such branch, so errors under the union that match no inline branch are its.
    const refBranches = ((u.schema as Record<string, unknown>[] | undefined) ?? []).flatMap((b, i) => (b.$ref !== undefined ? [String(i)] : []));
    const branches = new Map<string, ErrorObject[]>();
    for (const e of result.slice(0, at)) {
      if (e.instancePath !== u.instancePath && !e.instancePath.startsWith(`${u.instancePath}/`)) continue;
      const idx = e.schemaPath.startsWith(prefix)
        ? (e.schemaPath.slice(prefix.length).split('/')[0] ?? '')
        : refBranches.length === 1
          ? refBranches[0]!
          : undefined;
      if (idx === undefined) continue;
      const list = branches.get(idx) ?? [];
      list.push(e);
      branches.set(idx, list);
    }
    if (branches.size === 0) continue;
    const matched = [...branches.values()].filter(
      (list) =>
        !list.some(
          (e) => e.instancePath === u.instancePath && (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum' || e.keyword === 'required'),
        ),
    );
    const dropped = new Set([...branches.values()].flat());
    if (matched.length > 0) {
      matched.sort((a, b) => a.length - b.length);
      const keep = new Set(matched[0]);
      result = result.filter((e) => e !== u && (!dropped.has(e) || keep.has(e)));
    } else {
      result = result.filter((e) => !dropped.has(e));
    }
  }
  return result;
}

function expectedFromUnion(e: ErrorObject): string {
  const branches = (e.schema as Record<string, unknown>[] | undefined) ?? [];
  const parts = branches.map((b) => {
    if (b.const !== undefined) return JSON.stringify(b.const);
    if (Array.isArray(b.enum)) return b.enum.map((v) => JSON.stringify(v)).join(' or ');
    if (b.required && Array.isArray(b.required) && b.required.length === 1) return `a mapping with \`${String(b.required[0])}\``;
    if (b.type) return article(String(b.type));
    if (b.$ref) {
      const def = compiledDefs[String(b.$ref).split('/').pop() ?? ''];
      return def?.type ? article(String(def.type)) : 'a value of another shape';
    }
    return 'a value of another shape';
  });
  return `one of: ${parts.join(', ')}`;
}

function article(type: string): string {
  switch (type) {
    case 'object':
      return 'a mapping';
    case 'array':
      return 'a list';
    case 'integer':
      return 'an integer';
    default:
      return `a ${type}`;
  }
}

function toDiagnostic(e: ErrorObject, loaded: LoadedSpec): Diagnostic {
  const file = loaded.file;
  const at = (pointer: string, prefer: 'key' | 'value' = 'value') => ({ file, pointer, ...locate(loaded.sourceMap, pointer, prefer) });
  const where = describePath(e.instancePath);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const parent = e.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const known = Object.keys(parent?.properties ?? {});
      const hint = suggest(key, known);
      const pointer = joinPointer(e.instancePath, key);
      return createDiagnostic('unknown-key', { key, where, suggestion: hint ? `; did you mean \`${hint}\`?` : '' }, at(pointer, 'key'));
    }
    case 'propertyNames': {
      const name = String(params.propertyName);
      const ref = (e.schema as { $ref?: string } | undefined)?.$ref;
      const desc = ref === undefined ? undefined : compiledDefs[ref.split('/').pop() ?? '']?.description;
      const detail = `\`${name}\` is not a valid name here${typeof desc === 'string' ? ` (${desc})` : ''}`;
      return createDiagnostic('invalid-value', { where, detail }, at(joinPointer(e.instancePath, name), 'key'));
    }
    case 'required': {
      const key = String(params.missingProperty);
      if (e.instancePath === '' && key === 'servicespec') return createDiagnostic('missing-format-version', {}, { file, line: 1, column: 1, pointer: '' });
      return createDiagnostic('missing-key', { key, where }, at(e.instancePath));
    }
    case 'const':
      if (e.instancePath === '/servicespec') {
        return createDiagnostic('unsupported-format-version', { found: JSON.stringify(e.data) }, at(e.instancePath));
      }
      return createDiagnostic('invalid-value', { where, detail: `must be ${JSON.stringify(params.allowedValue)}` }, at(e.instancePath));
    case 'type':
      return createDiagnostic('wrong-type', { where, expected: String(params.type).split(',').map(article).join(' or ') }, at(e.instancePath));
    case 'oneOf':
    case 'anyOf':
      return createDiagnostic('wrong-type', { where, expected: expectedFromUnion(e) }, at(e.instancePath));
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      const hint = typeof e.data === 'string' ? suggest(e.data, (params.allowedValues as unknown[]).map(String)) : undefined;
      const detail = `${JSON.stringify(e.data)} is not one of ${allowed.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`;
      return createDiagnostic('invalid-value', { where, detail }, at(e.instancePath));
    }
    case 'pattern': {
      const desc = (e.parentSchema as { description?: string } | undefined)?.description;
      const detail = `${JSON.stringify(e.data)} does not have the required form${desc ? ` (${desc})` : ` (${String(params.pattern)})`}`;
      return createDiagnostic('invalid-value', { where, detail }, at(e.instancePath));
    }
    default:
      return createDiagnostic('invalid-value', { where, detail: e.message ?? e.keyword }, at(e.instancePath));
  }
}
