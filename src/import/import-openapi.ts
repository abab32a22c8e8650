import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, resolve as resolvePath } from 'node:path';
import { STATUS_CODES } from 'node:http';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { getGapReport, type GapReport } from '../check/check-gaps.js';
import { createDiagnostic, type Diagnostic } from '../diagnostics/diagnostics-catalogue.js';
import { withoutRules } from '../export/export-shared.js';
import {
  DEFAULT_ERROR_MEDIA_TYPE,
  DEFAULT_IDEMPOTENCY_HEADER,
  DEFAULT_IDENTIFIER_FIELD,
  AFTER_PARAM,
  getDefaultSuccessStatus,
  ERROR_BODY_EXTRAS,
  ERROR_BODY_ROLE_NAMES,
  ERROR_ROLE_TYPES,
  FALLBACK_STATUS,
  FORM_MEDIA_TYPE,
  MERGE_PATCH_MEDIA_TYPE,
  getPagingParamName,
  getUnfilledErrorFields,
  getUnmakeableIdentifier,
  isDefaultIdentifier,
  NOT_SHOWN,
  PAGE_MEMBER_STYLES,
  isIntegerPageMember,
} from '../model/model-defaults.js';
import { IF_MATCH_ACTIONS, LINK_HEADER, LIST_PARAMS, PAGE_FIELDS, PAGING_ROLES, UNFILTERABLE_TYPES } from '../model/model-routes.js';
import { compileSpecText, type CompiledSpec } from '../program.js';
import { hoistShapes, withExportedShapes } from './import-shapes.js';
import { convertSwagger2, getSwagger2Pointer } from './import-swagger2.js';
import { getSourcePlace, hoistTargets, openApi3Section, refTokens, SourceFiles, swagger2Section, tokensToPointer } from './import-hoist.js';
import { joinPointer } from '../util/util-json-pointer.js';
import {
  ACTIONS,
  HTTP_METHODS,
  PART_NAMES,
  type Action,
  type AuthenticationSpec,
  type Condition,
  type EnvelopeSpec,
  type ErrorBodySpec,
  type EndpointsSpec,
  type ErrorsSpec,
  type ErrorStatusRange,
  type EventKindSpec,
  type EventsSpec,
  type FieldSpec,
  type VariantSpec,
  type HttpMethod,
  type LimitsSpec,
  type FieldConstraints,
  FIELD_BOUND_KEYS,
  type ListStyle,
  type OperationAuthSpec,
  type OperationSpec,
  type PagingParamsSpec,
  type PagingRole,
  type PageMemberRole,
  type PageMembersSpec,
  type PagingSpec,
  type ParameterSpec,
  PARAMETER_TYPES,
  ENVELOPE_SOURCES,
  type PartName,
  type ResourceSpec,
  type SchemeSpec,
  type ShapeSpec,
  type SpecDocument,
} from '../spec/spec-types.js';
import { validateSpec } from '../spec/spec-validate.js';
import { getValueProblem } from '../check/check-rules.js';
import type { FieldModel } from '../model/model-types.js';
import { exportedSummary, isFilterTypeOf, readSummary, reportSummary } from './import-answer-fields.js';
import { importCallbacks } from './import-callbacks.js';
import { NEXT_LINK_NAMES, PAGE_OBJECT_MEMBER_NAMES, PAGE_OBJECT_TOTAL_NAMES, PAGE_SIZE_NAMES, PREVIOUS_LINK_NAMES, toPlainName } from './import-page-names.js';
import { readResourceBeside } from './import-answer-beside.js';
import { constantOf, getUnstatedWrapperMembers, hasNextCursorField, readEnvelopeCandidate, toEnvelope } from './import-envelope.js';
import { ENVELOPED_ACTIONS, LIST_ONLY_SOURCES, REQUEST_ENVELOPED_ACTIONS } from '../model/model-envelope.js';
import { importErrorHeaders, importResponseHeaders, settleErrorHeaders } from './import-response-headers.js';
import { validateOpenApi } from './import-validate.js';
import { toErrorCodeName, toEventKindName, toFieldName, toIdentifier, toOperationId, toResourceName, UniqueNames } from './import-names.js';
import {
  fieldFromSchema,
  getByPointer,
  fieldsFromSchema,
  flatten,
  forgetOneValueBooleans,
  isObject,
  orderField,
  report,
  resolve,
  shapeFromSchema,
  unionFromSchema,
  unwrapNull,
  type Json,
  type SchemaContext,
} from './import-schema.js';

// OpenAPI 3.0 / 3.1 → a servicespec. Resources come from component schemas, operations become actions where
// their shapes are an action's shapes and custom operations otherwise, security schemes and requirements become
// authentication, error responses error codes, webhooks events. The `x-servicespec-*` extensions the exporter
// writes are read back, so export → import → export gives the same document. Nothing is invented: what the
// OpenAPI document does not say stays "not shown", and the gap report of the result says which parts those are.

export interface ImportResult {
  /** The spec, when the input could be read as OpenAPI. */
  document?: SpecDocument;
  /** The spec as YAML. */
  text?: string;
  /** What the import noticed about the OpenAPI document: names changed, things left out or approximated. */
  diagnostics: Diagnostic[];
  /** The imported spec, compiled: its model and the checker's diagnostics. */
  compiled?: CompiledSpec;
  /** Which of the nine parts the OpenAPI document left not shown. */
  gaps?: GapReport;
}

export interface ImportOptions {
  /** The name the spec is given in the compiled result's diagnostics (the output file). */
  specFile?: string;
}

/** `$ref`s are followed into local files only: importing never reaches out to the network. */
const LOCAL_ONLY = { resolve: { http: false as const } };

/** OpenAPI documents larger than this are refused before parsing. */
export const MAX_OPENAPI_BYTES = 64 * 1024 * 1024;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
const SPEC_PART_ORDER: readonly (keyof SpecDocument)[] = ['servicespec', ...PART_NAMES];

interface Ctx extends SchemaContext {
  doc: Json;
  /** The document is a Swagger 2.0 one converted: its several `produces` are said at the Swagger document's own place. */
  fromSwagger2: boolean;
  /** Resource name → its fields (after renaming), for matching shapes to actions. */
  resourceFields: Map<string, Record<string, FieldSpec>>;
  /** The resources a POST answers with: the objects the API makes. */
  made: Set<string>;
  /**
   * Where each resource is made: the path of each POST answering it, and UPSERT for a PUT answering 201 with it. A
   * parent is read only for a resource made nowhere else than under it (parentNamedBy).
   */
  madeAt?: Map<string, string[]>;
  /**
   * Component schemas read as another resource's create, replace or update request, or as a list's page or envelope:
   * no resource of their own unless named elsewhere.
   */
  absorbed?: Set<string>;
  /** Of those, the ones read as a list's page or envelope (not as a request): what reading them as resources said goes too. */
  wrappers?: Set<string>;
  resourceIdentifier: Map<string, string | undefined>;
  /** Which resource each item path names (getPathFamily), once the operations are prepared: a parent a path names. */
  family?: PathFamily;
  /** The resources as the spec will hold them (an identifier found from the paths is added to them). */
  resourceSpecs: Record<string, ResourceSpec>;
  versionPrefix?: string;
  /** Scheme names dropped (no equivalent): requirements naming them skip them. */
  droppedSchemes: Set<string>;
  /** Each client-credentials scheme's token path (its shape, as routeShape writes it) → the scheme's name. */
  tokenPaths?: Map<string, string>;
  scopesSeen: Map<string, string>;
  /** The document lists the scopes (x-servicespec-scopes): the operations add none. */
  scopesDeclared: boolean;
  /** Written by the servicespec exporter (it lists the parts its spec shows). */
  fromServicespec: boolean;
  errorCodes: Map<
    string,
    {
      name: string;
      status: number | ErrorStatusRange;
      title?: string;
      headers?: Record<string, ParameterSpec>;
      operations: string[];
      inline: boolean;
      pointer: string;
    }
  >;
  /** The `default` responses' headers: every error answer's (errors.headers). */
  errorHeaders?: Record<string, ParameterSpec>;
  errorNames: UniqueNames;
  errorBodies: { mediaType: string; schema: unknown; pointer: string }[];
  /** Where the error body the spec declares (errors.body) was read: the response whose body it is. */
  keptErrorBody?: string;
  /** Media types and parameters whose named examples an operation kept (reportUnkept says the others). */
  examplesKept: Set<unknown>;
  idempotencyHeader?: string;
  /** What the document says of the idempotency key's value has been said dropped (once for the document). */
  idempotencyKeySaid?: true;
  /** The operations whose parameters name the idempotency header. */
  idempotencyOps: Set<string>;
  /** The operations taking a request body (an unsupported media type is a refusal of theirs). */
  bodyOperations: Set<string>;
  /** A PUT answering 201 beside its 200 or 204 (create or replace under the path's id): its 201's pointer, by operation. */
  upsertPuts?: Map<string, string>;
  /** Resources that take conditional requests (`etag: true`): an ETag answered, If-Match or If-None-Match taken. */
  etagResources: Set<string>;
  /** Each resource action's conditional headers as its document declares them: what `etag: true` adds is said. */
  conditional: { resource: string; op: string; action: string; pointer: string; ifMatch: boolean; ifNoneMatch: boolean; notModified?: boolean }[];
  /** A GET's 304 (If-None-Match), absorbed by a read of a resource with etag: its pointer, by operation. */
  notModified?: Map<string, string>;
  /** Each list's page size parameter's default and maximum, by operation id. */
  pageSizes: { op: string; default?: number; max?: number }[];
  /** Event kinds made from other documents' callbacks (import-callbacks.ts), added to the events part. */
  callbackKinds: Map<string, EventKindSpec>;
  /** Parameters another part of the spec carries (`query x-api-key`, `header api-version`), lower-cased for headers. */
  carried: Map<string, string>;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function notShown(v: unknown): string | undefined {
  const s = str(v);
  return s === undefined || s === NOT_SHOWN ? undefined : s;
}

function ext<T = Json>(node: unknown, key: string): T | undefined {
  return isObject(node) && node[key] !== undefined ? (node[key] as T) : undefined;
}

/** An extension that holds a part of the spec, as in a spec file; checked against the format before use. */
function readPart<K extends PartName>(ctx: Ctx, key: string, part: K, pointer: string): SpecDocument[K] | undefined {
  const value = ctx.doc[key];
  if (value === undefined) return undefined;
  const diagnostics = validateSpec({ file: ctx.file, document: { servicespec: 1, [part]: value }, sourceMap: new Map(), diagnostics: [] });
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    report(ctx, 'import-extension-invalid', { extension: key, where: pointer, detail: errors[0]!.message }, pointer);
    return undefined;
  }
  return value as SpecDocument[K];
}

// ---- reading ------------------------------------------------------------------------------------------------

function fail(file: string, detail: string): ImportResult {
  return { diagnostics: [createDiagnostic('import-not-openapi', { path: file, detail }, { file })] };
}

function checkOpenApi(value: unknown, file: string): string | undefined {
  if (!isObject(value)) return 'the document is not a mapping';
  // Swagger 1.2 names its version `swaggerVersion`, 2.0 `swagger` (2.0 itself is converted before this is asked).
  const swagger = value.swaggerVersion ?? value.swagger;
  if (typeof swagger === 'string') return `it is Swagger ${swagger}; Swagger 2.0 and OpenAPI 3.0 and 3.1 are read`;
  const v = value.openapi;
  if (typeof v !== 'string') return 'it has no `openapi` version field';
  if (!/^3\.[01]\.\d+/.test(v)) return `OpenAPI ${v} is not supported; OpenAPI 3.0 and 3.1 are`;
  void file;
  return undefined;
}

/** Reads an OpenAPI file (YAML or JSON; `$ref`s to other files are bundled in) and imports it. */
export async function importOpenApiFile(path: string, options: ImportOptions = {}): Promise<ImportResult> {
  let text: string;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return { diagnostics: [createDiagnostic('file-is-directory', { path }, { file: path })] };
    if (st.size > MAX_OPENAPI_BYTES) return { diagnostics: [createDiagnostic('file-too-large', { size: st.size, limit: MAX_OPENAPI_BYTES }, { file: path })] };
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { diagnostics: [createDiagnostic('file-not-found', { path }, { file: path })] };
    return { diagnostics: [createDiagnostic('file-unreadable', { path, reason: code ?? String(err) }, { file: path })] };
  }
  let parsed: unknown;
  try {
    parsed = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 10_000 });
  } catch (err) {
    try {
      parsed = parseYaml(text, { maxAliasCount: 10_000 });
    } catch {
      return fail(path, `it is neither YAML nor JSON (${(err as Error).message.split('\n')[0]})`);
    }
  }
  if (isSwagger2(parsed)) return importSwagger2(parsed, path, options, () => SwaggerParser.bundle(path, LOCAL_ONLY), dirname(resolvePath(path)));
  const problem = checkOpenApi(parsed, path);
  if (problem) return fail(path, problem);
  const diagnostics: Diagnostic[] = [];
  let bundled = parsed as Json;
  // Bundling (swagger-parser) pulls $refs to other files in; a document without any is already one piece, and is
  // not bundled again (bundling takes time quadratic in the number of references).
  if (hasExternalRefs(parsed)) {
    try {
      bundled = (await SwaggerParser.bundle(path, LOCAL_ONLY)) as unknown as Json;
    } catch (err) {
      return { diagnostics: getUnresolvedRefs(parsed, dirname(resolvePath(path)), err, path) };
    }
    return importSplit(bundled, new SourceFiles(parsed, path, dirname(resolvePath(path))), path, diagnostics, options);
  }
  return importBundled(bundled, path, diagnostics, options);
}

/**
 * An OpenAPI 3 document split across files, bundled: what the bundler inlined at a first use and pointed other uses
 * at goes to its component section under the cited file's name (`import-hoist.ts`), and each diagnostic's pointer is
 * said as the place in the user's files it came from (the file a `$ref` led to, and the pointer in it).
 */
async function importSplit(bundled: Json, files: SourceFiles, file: string, diagnostics: Diagnostic[], options: ImportOptions): Promise<ImportResult> {
  const hoisted = hoistTargets(bundled, openApi3Section, (tokens) => files.walk(tokens).cited);
  const result = await importBundled(hoisted.document as Json, file, diagnostics, options);
  const back = (d: Diagnostic): Diagnostic => {
    if (d.file !== file || d.pointer === undefined || d.pointer === '') return d;
    const place = getSourcePlace(d.pointer, hoisted.moved, files);
    return { ...d, file: place.file, pointer: place.pointer };
  };
  return { ...result, diagnostics: result.diagnostics.map(back) };
}

/** Imports an OpenAPI document already in memory (internal `$ref`s only). */
export async function importOpenApiDocument(document: unknown, file = '<input>', options: ImportOptions = {}): Promise<ImportResult> {
  if (isSwagger2(document)) {
    return importSwagger2(document, file, options, () => SwaggerParser.bundle(structuredClone(document) as never, LOCAL_ONLY), process.cwd());
  }
  const problem = checkOpenApi(document, file);
  if (problem) return fail(file, problem);
  const diagnostics: Diagnostic[] = [];
  let bundled = document as Json;
  if (hasExternalRefs(document)) {
    try {
      bundled = (await SwaggerParser.bundle(structuredClone(document) as never, LOCAL_ONLY)) as unknown as Json;
    } catch (err) {
      return { diagnostics: getUnresolvedRefs(document, process.cwd(), err, file) };
    }
    return importSplit(bundled, new SourceFiles(document, file, process.cwd()), file, diagnostics, options);
  }
  return importBundled(bundled, file, diagnostics, options);
}

function isSwagger2(value: unknown): value is Record<string, unknown> {
  return isObject(value) && value.swagger === '2.0';
}

/** A Swagger 2.0 document: external `$ref`s bundled in (nothing downloaded), converted to OpenAPI 3.0, imported. */
async function importSwagger2(
  document: Record<string, unknown>,
  file: string,
  options: ImportOptions,
  bundle: () => Promise<unknown>,
  base: string,
): Promise<ImportResult> {
  let whole: Record<string, unknown> = document;
  if (hasExternalRefs(document)) {
    try {
      whole = (await bundle()) as Record<string, unknown>;
    } catch (err) {
      return { diagnostics: getUnresolvedRefs(document, base, err, file) };
    }
  }
  // A file cited twice is inlined at its first use, which the conversion moves: that use goes to `definitions` first.
  const files = new SourceFiles(document, file, base);
  const hoisted = whole === document ? undefined : hoistTargets(whole, swagger2Section, (tokens) => files.walk(tokens).cited);
  const swagger = hoisted?.document ?? whole;
  const converted = convertSwagger2(swagger, file);
  if (converted.document === undefined) return { diagnostics: converted.diagnostics };
  const own = new Set(converted.diagnostics);
  const result = await importBundled(converted.document as Json, file, [...converted.diagnostics], options, whole as Json);
  // The importer read the converted document; its pointers are said as places in the document the user has, and in a
  // document split across files, in the file a `$ref` led to (as for OpenAPI 3: importSplit).
  const back = (d: Diagnostic): Diagnostic => {
    if (d.file !== file || d.pointer === undefined) return d;
    const pointer = own.has(d) ? d.pointer : getSwagger2Pointer(d.pointer, swagger, converted.document);
    if (hoisted === undefined || pointer === '') return pointer === d.pointer ? d : { ...d, pointer };
    const place = getSourcePlace(pointer, hoisted.moved, files);
    return { ...d, file: place.file, pointer: place.pointer };
  };
  return { ...result, diagnostics: result.diagnostics.map(back) };
}

/**
 * Whether any `$ref` points outside the document. A `$ref` member inside an example is data, not a reference (Square's
 * event examples hold JSON Schemas citing its CDN): it is neither followed nor a reason to bundle.
 */
function hasExternalRefs(node: unknown): boolean {
  const stack: [unknown, string][] = [[node, '']];
  while (stack.length > 0) {
    const [n, key] = stack.pop()!;
    if (Array.isArray(n)) for (const v of n) stack.push([v, '']);
    else if (isObject(n)) {
      if (typeof n.$ref === 'string' && !n.$ref.startsWith('#')) return true;
      for (const [k, v] of Object.entries(n)) for (const w of outsideExamples(key, k, v)) stack.push([w, k]);
    }
  }
  return false;
}

/**
 * What of member `key` (value `v`) of an object that is member `parentKey` may hold references: nothing of an example
 * (`example`, a schema's `examples` list, each Example Object's `value`), the rest whole. Under `properties`,
 * `example` and `examples` name properties, which are schemas.
 */
function outsideExamples(parentKey: string, key: string, v: unknown): unknown[] {
  if (typeof v !== 'object' || v === null) return [];
  if (parentKey === 'properties' || (key !== 'example' && key !== 'examples')) return [v];
  if (key === 'example' || Array.isArray(v)) return [];
  return Object.values(v).map((e) => (isObject(e) ? { ...e, value: undefined } : e));
}

/**
 * Why bundling failed, per `$ref` of the document that cannot be followed: a file not there or not readable, or
 * an address on the network (nothing is downloaded). A reference broken further in (inside a referenced file,
 * or a fragment its file lacks) is named by the bundler's own message.
 */
function getUnresolvedRefs(document: unknown, dir: string, err: unknown, file: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
    else if (isObject(node)) {
      const ref = node.$ref;
      if (typeof ref === 'string' && !ref.startsWith('#')) {
        const target = ref.split('#')[0]!;
        const reason = /^[a-z][a-z0-9+.-]*:\/\//i.test(target)
          ? 'a reference over the network is not followed: save the file beside the document and point the $ref at it'
          : unreadable(resolvePath(dir, decodeURIComponent(target)));
        if (reason !== undefined && !seen.has(at)) {
          seen.add(at);
          out.push(createDiagnostic('import-unresolved-ref', { ref, at: at === '' ? '/' : at, reason }, { file, pointer: at }));
        }
      }
      for (const [k, v] of Object.entries(node)) if (typeof v === 'object' && v !== null) walk(v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  walk(document, '');
  if (out.length === 0) out.push(createDiagnostic('import-unresolved-ref', { ref: 'a reference', at: 'a referenced file', reason: firstLine(err) }, { file }));
  return out;
}

/** Why a referenced file cannot be read, or undefined when it can. */
function unreadable(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return `${path} is a directory`;
    accessSync(path, constants.R_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? `no file ${path}` : `${path} cannot be read (${code ?? String(err)})`;
  }
}

function firstLine(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(' ');
}

/** `source`: the document as the user wrote it, where `bundled` was made from it (a converted Swagger 2.0 one). */
async function importBundled(bundled: Json, file: string, diagnostics: Diagnostic[], options: ImportOptions, source: Json = bundled): Promise<ImportResult> {
  // A conversion's own slips (an empty `required` list) are not the user's document's.
  const invalid = await validateOpenApi(source);
  if (invalid !== undefined) diagnostics.push(createDiagnostic('import-invalid-openapi', { detail: invalid }, { file }));
  // A servicespec export says its named shapes (x-servicespec-shapes) and uses them by name: exactly those, none hoisted.
  const converted = convert(bundled, file, diagnostics, source !== bundled);
  const document = Array.isArray(bundled['x-servicespec-parts']) ? withExportedShapes(converted, bundled['x-servicespec-shapes']) : hoistShapes(converted);
  asJsonPointers(diagnostics, file);
  dropRepeated(diagnostics);
  let text = specToYaml(document);
  const specFile = options.specFile ?? file.replace(/\.(ya?ml|json)$/i, '') + '.servicespec.yaml';
  let compiled = compileSpecText(text, specFile);
  // The API's names are its wire contract: a warning for each name out of the format's style says nothing a user can
  // act on, so the spec turns the warning off, and the import says so once.
  const offStyle = compiled.diagnostics.filter((d) => d.code === 'name-style');
  if (offStyle.length > 0 && !(document.check?.disable ?? []).includes('name-style')) {
    document.check = { ...document.check, disable: [...(document.check?.disable ?? []), 'name-style'] };
    text = specToYaml(document);
    compiled = compileSpecText(text, specFile);
    const examples = [...new Set(offStyle.map((d) => / name `([^`]*)`/.exec(d.message)?.[1] ?? ''))].filter(Boolean).slice(0, 3);
    diagnostics.push(
      createDiagnostic(
        'import-names-kept',
        { count: offStyle.length, examples: `${examples.map((n) => `\`${n}\``).join(', ')}${offStyle.length > examples.length ? ', …' : ''}` },
        { file },
      ),
    );
  }
  reportUnfilledErrorFields(compiled, errorBodyRead.get(converted), diagnostics, file);
  const gaps = compiled.model ? getGapReport(compiled.model) : undefined;
  return gaps ? { document, text, diagnostics, compiled, gaps } : { document, text, diagnostics, compiled };
}

/**
 * A place read through a `$ref` is said as the reference names it (`#/components/schemas/User/properties/password`,
 * percent-encoded): written as the JSON pointer it is (RFC 6901), as every other diagnostic's, so a tool resolving
 * `pointer` in the document finds it.
 */
function asJsonPointers(diagnostics: Diagnostic[], file: string): void {
  for (let i = 0; i < diagnostics.length; i++) {
    const d = diagnostics[i]!;
    if (d.file === file && d.pointer?.startsWith('#')) diagnostics[i] = { ...d, pointer: tokensToPointer(refTokens(d.pointer)) };
  }
}

/**
 * One diagnostic per thing said: a component read for every operation using it (a shared error body's field, 37
 * times in a Shopify-like document) says the same words at the same pointer each time.
 */
function dropRepeated(diagnostics: Diagnostic[]): void {
  const seen = new Set<string>();
  let kept = 0;
  for (const d of diagnostics) {
    const key = `${d.code}\u0000${d.pointer ?? ''}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics[kept++] = d;
  }
  diagnostics.length = kept;
}

// ---- converting ---------------------------------------------------------------------------------------------

function convert(doc: Json, file: string, diagnostics: Diagnostic[], fromSwagger2 = false): SpecDocument {
  const version = String(doc.openapi).startsWith('3.1') ? '3.1' : '3.0';
  const ctx: Ctx = {
    root: doc,
    doc,
    version,
    file,
    diagnostics,
    resources: new Map(),
    resourceFields: new Map(),
    made: new Set(),
    resourceIdentifier: new Map(),
    resourceSpecs: {},
    droppedSchemes: new Set(),
    scopesSeen: new Map(),
    scopesDeclared: false,
    fromServicespec: Array.isArray(doc['x-servicespec-parts']),
    fromSwagger2,
    errorCodes: new Map(),
    errorNames: new UniqueNames('_'),
    errorBodies: [],
    idempotencyOps: new Set(),
    examplesKept: new Set(),
    callbackKinds: new Map(),
    bodyOperations: new Set(),
    pageSizes: [],
    carried: new Map(),
    etagResources: new Set(),
    conditional: [],
  };
  const out: SpecDocument = { servicespec: 1 };

  const versioning = readPart(ctx, 'x-servicespec-versioning', 'versioning', '/x-servicespec-versioning');
  if (versioning?.placement && 'path' in versioning.placement) ctx.versionPrefix = versioning.placement.path.replace(/\/+$/, '');
  if (versioning?.placement && 'query' in versioning.placement)
    ctx.carried.set(`query ${versioning.placement.query}`, 'the versioning part (its query parameter)');
  if (versioning?.placement && 'header' in versioning.placement)
    ctx.carried.set(`header ${versioning.placement.header.toLowerCase()}`, 'the versioning part (its header)');

  out.purpose = importPurpose(ctx);
  const resources = importResources(ctx);
  ctx.resourceSpecs = resources;
  const authentication = importAuthentication(ctx);
  const endpoints = importEndpoints(ctx);
  if (!ctx.fromServicespec && endpoints?.operations) parentRefs(ctx, resources, endpoints.operations);
  // Conditional requests (docs/import.md, "Conditional requests"): said on the resource, once every operation is read.
  for (const name of ctx.etagResources) if (resources[name]) resources[name] = { ...resources[name], etag: true };
  reportConditionalAdded(ctx);
  applyWriteOnlyRequired(ctx, resources);
  if (!ctx.fromServicespec) applyRequestDefaults(ctx, resources);
  if (!ctx.fromServicespec) reportRequestNulls(ctx);
  reportActionParams(ctx);
  const events = importEvents(ctx);
  if (!ctx.fromServicespec) reportUnkept(ctx);
  const errors = importErrors(ctx);
  const limits = importLimits(ctx, endpoints);
  const states = readPart(ctx, 'x-servicespec-states', 'states', '/x-servicespec-states');
  // servicespec's own exporter wrote the spec's fields as they were: a round trip keeps them.
  if (!ctx.fromServicespec) unwrittenRequired(ctx, resources, endpoints);
  if (!ctx.fromServicespec) optionalWithoutSource(ctx, resources, states, endpoints);
  if (!ctx.fromServicespec) makeableIdentifiers(ctx, resources);

  if (!ctx.fromServicespec) dropAbsorbed(ctx, { ...out, states, endpoints, events, errors, limits, authentication }, resources);
  if (Object.keys(resources).length > 0) out.resources = resources;
  if (states) out.states = states;
  if (endpoints) out.endpoints = endpoints;
  out.authentication = authentication;
  finishAuthentication(ctx, out);
  if (events) out.events = events;
  if (errors) out.errors = errors;
  if (limits) out.limits = limits;
  if (versioning) out.versioning = versioning;

  // The exporter lists the parts its spec showed: exactly those are shown again, empty or not.
  const parts = ext<unknown[]>(doc, 'x-servicespec-parts');
  if (Array.isArray(parts)) {
    const shown = new Set(parts.filter((p): p is PartName => typeof p === 'string' && (PART_NAMES as readonly string[]).includes(p)));
    for (const part of PART_NAMES) {
      if (!shown.has(part)) delete out[part];
      else if (out[part] === undefined) (out as unknown as Json)[part] = {};
    }
  }
  const ordered: Json = {};
  for (const k of SPEC_PART_ORDER) if (out[k] !== undefined) ordered[k] = out[k];
  if (ctx.keptErrorBody !== undefined && !ctx.fromServicespec) errorBodyRead.set(ordered, joinPointer(ctx.keptErrorBody.replace(/^#/, ''), 'required'));
  return ordered as unknown as SpecDocument;
}

/** Where an error body's schema is: the component a `$ref` names (HubSpot's `#/components/schemas/Error`), else in place. */
function errorSchemaAt(ctx: Ctx, b: { mediaType: string; schema: unknown; pointer: string }): string {
  return resolve(ctx, b.schema, joinPointer(joinPointer(joinPointer(b.pointer, 'content'), b.mediaType), 'schema')).pointer;
}

/** Per converted document, the schema of the error body it declares (reportUnfilledErrorFields says at its `required`). */
const errorBodyRead = new WeakMap<object, string>();

/**
 * The declared error body's required fields the service writes nothing in (HubSpot's `category` and
 * `correlationId`): every error answer lacks them, which the document does not allow. `check` warns at the spec
 * (error-body-field-unfilled); the import says it at the document's response, so the change is named where it is.
 */
function reportUnfilledErrorFields(compiled: CompiledSpec, at: string | undefined, diagnostics: Diagnostic[], file: string): void {
  const body = compiled.model?.errors?.body;
  if (at === undefined || body === undefined || body.kind !== 'declared') return;
  const unfilled = getUnfilledErrorFields(body).map((u) => u.path);
  if (unfilled.length === 0) return;
  diagnostics.push(
    createDiagnostic(
      'import-approximated',
      {
        item: `the error body's \`required\` (${unfilled.map((n) => `\`${n}\``).join(', ')})`,
        as: `${unfilled.length === 1 ? 'a field' : 'fields'} every error answer leaves out`,
        reason:
          'the service knows no value for them (it writes the code, status and message, and by their names a title, the invalid inputs and a request id): its error answers do not have what the document requires',
      },
      { file, pointer: at },
    ),
  );
}

/** Keys of a field that say what it is, not what values it takes: kept on a field made a ref (parentRefs). */
const REF_KEPT_KEYS: ReadonlySet<string> = new Set(['type', 'description', 'optional', 'nullable', 'readOnly', 'writeOnce', 'example', 'renamedFrom']);

/**
 * A field a nested path binds to its parent's parameter (a task's project_id under /projects/{projectId}/tasks, where
 * /projects/{projectId} reads a Project) holding that parent's identifier: a reference to the parent (`type: ref,
 * to: Project`), so that a create or list under a parent that does not exist answers missing_resource, and the
 * storage keeps the reference. Only where the field's type is the parent identifier's; said only where a constraint
 * of the field (a pattern, a length) is not the identifier's own, which a ref takes instead.
 */
function parentRefs(ctx: Ctx, resources: Record<string, ResourceSpec>, operations: Record<string, OperationSpec>): void {
  const shape = (p: string) => p.replace(/\{[^{}]*\}/g, '{}');
  const reads = Object.values(operations).filter((o) => o.action === 'read' && o.resource !== undefined);
  const pointers = new Map([...ctx.resources].map(([pointer, name]) => [name, pointer]));
  for (const o of Object.values(operations)) {
    if (o.action === 'custom' || o.resource === undefined || o.bind === undefined) continue;
    const fields = resources[o.resource]?.fields;
    const identifier = resources[o.resource]?.identifier ?? ctx.resourceIdentifier.get(o.resource);
    for (const [param, path] of Object.entries(o.bind)) {
      const f = fields?.[path];
      if (f === undefined || path === identifier || f.type === 'ref' || f.type === 'object') continue;
      const at = o.path.indexOf(`{${param}}`);
      if (at < 0) continue;
      const prefix = shape(o.path.slice(0, at + param.length + 2));
      for (const read of reads) {
        if (read.resource === o.resource || shape(withoutTrailingSlash(read.path)) !== prefix) continue;
        const parent = read.resource!;
        const parentId = resources[parent]?.identifier ?? ctx.resourceIdentifier.get(parent);
        const last = /\{([^{}]*)\}$/.exec(withoutTrailingSlash(read.path))?.[1];
        const idField = parentId !== undefined ? resources[parent]?.fields?.[parentId] : undefined;
        // The read finds the parent by its identifier (its last parameter binds it, or it binds nothing).
        if (!idField || last === undefined || (read.bind !== undefined && read.bind[last] !== parentId) || idField.type !== f.type) continue;
        const own = f as unknown as Record<string, unknown>;
        const theirs = idField as unknown as Record<string, unknown>;
        const differs = Object.keys(own).filter((k) => !REF_KEPT_KEYS.has(k) && JSON.stringify(own[k]) !== JSON.stringify(theirs[k]));
        const ref: Record<string, unknown> = { type: 'ref', to: parent };
        for (const k of Object.keys(own)) if (REF_KEPT_KEYS.has(k) && k !== 'type') ref[k] = own[k];
        fields![path] = orderField(ref as unknown as FieldSpec);
        if (differs.length > 0)
          report(
            ctx,
            'import-approximated',
            {
              item: `resource ${o.resource} field ${path} (${differs.join(', ')})`,
              as: `a reference to ${parent} (\`type: ref, to: ${parent}\`), holding ${parent}'s identifier`,
              reason: `the path ${read.path} names the ${parent} its parameter {${last}} gives, and a reference takes the values of ${parent}'s identifier \`${parentId}\``,
            },
            pointers.get(o.resource) ?? '',
          );
        break;
      }
    }
  }
}

/**
 * A required field of the answer that no request writes (every create, update and replace takes a request schema of
 * its own, none naming it: FastAPI's `ApplicationIn` / `ApplicationOut`, svix's `createdAt`; apicurio's
 * `CreateGroupMetaData` beside `GroupMetaData.createdOn`), not marked `readOnly`: the server sets it all the same.
 * It is read as read-only (said), so optionalWithoutSource gives it its source (`source: service`); left writable,
 * the create's value for it was a gap and the served create answered not_implemented. What requestSubset said of
 * that gap is taken back where every field it named is now the service's.
 */
function unwrittenRequired(ctx: Ctx, resources: Record<string, ResourceSpec>, endpoints: SpecDocument['endpoints']): void {
  const pointers = new Map([...ctx.resources].map(([pointer, name]) => [name, pointer]));
  const operations = Object.entries(endpoints?.operations ?? {});
  for (const [name, r] of Object.entries(resources)) {
    const writes = operations.filter(([, o]) => o.resource === name && (o.action === 'create' || o.action === 'update' || o.action === 'replace'));
    const creates = writes.filter(([, o]) => o.action === 'create');
    if (creates.length === 0 || writes.some(([, o]) => o.request_fields === undefined)) continue;
    const taken = new Set(writes.flatMap(([, o]) => o.request_fields ?? []));
    const bound = (field: string) => creates.every(([, o]) => Object.values(o.bind ?? {}).some((p) => p.split('.')[0] === field));
    const identifier = r.identifier ?? ctx.resourceIdentifier.get(name);
    const fields = r.fields ?? {};
    const made: string[] = [];
    for (const [fname, f] of Object.entries(fields)) {
      if (f.readOnly === true || f.optional === true || f.type === 'state' || f.generated !== undefined || 'default' in f || f.source !== undefined) continue;
      if (taken.has(fname) || fname === identifier || fname === r.owner || bound(fname)) continue;
      (f as { readOnly?: boolean }).readOnly = true;
      fields[fname] = orderField(f);
      made.push(fname);
      let inferred = madeReadOnly.get(ctx);
      if (!inferred) madeReadOnly.set(ctx, (inferred = new Set()));
      inferred.add(`${name}.${fname}`);
      report(
        ctx,
        'import-approximated',
        {
          item: `resource ${name} field ${fname} (required, not read-only)`,
          as: 'a read-only field',
          reason: `no request writes it: the request bodies of ${writes.map(([id]) => id).join(', ')} leave it out`,
        },
        pointers.get(name) ?? '',
      );
    }
    if (made.length === 0) continue;
    // requestSubset's "the served create answers not_implemented until …", for fields now the service's.
    for (const [id] of creates) {
      const said = unsourcedSaid.get(ctx)?.get(id);
      if (said === undefined || !said.fields.every((n) => made.includes(n))) continue;
      const i = ctx.diagnostics.indexOf(said.diagnostic);
      if (i >= 0) ctx.diagnostics.splice(i, 1);
    }
  }
}

/** Fields unwrittenRequired read as read-only (`Resource.field`): the document did not say so, so no self address is read from them. */
const madeReadOnly = new WeakMap<Ctx, Set<string>>();

/** A description calling the field the object's own address: "self link", "this resource's URL", "URL of this order". */
const SELF_ADDRESS_WORDS =
  /\bself[- ]?(link|url|address|href)\b|\bits self\b|\b(url|uri|address) of this (resource|object)\b|\bthis (resource|object)'s (url|uri|address)\b/i;

/**
 * Whether a read-only field is the object's own address, as its document says: one whose description says so, a
 * string or uri named `self` or `href`, or one named `url` whose example's path is the read's (GitHub's
 * `https://api.github.com/repos/octocat/Hello-World` for `/repos/{owner}/{repo}`). A `url` saying nothing more may be
 * a download or a page (a file's, an image's): it stays as it was. Nor is a `url` that is not read-only (Giphy's page).
 */
function isSelfAddressField(name: string, f: FieldSpec, readPath: string): boolean {
  if (f.readOnly !== true || (f.type !== 'uri' && f.type !== 'string')) return false;
  if (f.description !== undefined && SELF_ADDRESS_WORDS.test(f.description)) return true;
  if (name === 'self' || name === 'href') return true;
  if (name !== 'url' || typeof f.example !== 'string') return false;
  let path: string;
  try {
    path = new URL(f.example, 'http://host.invalid').pathname;
  } catch {
    return false;
  }
  const template = readPath.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]*\\\}|\{[^}]*\}/g, '[^/]+');
  return new RegExp(`${template}$`).test(path);
}

/**
 * A field the server always returns (read-only, required) needs a source of its value in the format: the
 * identifier, the owner, a state, a default, a time of creation or change, a transition's stamp. OpenAPI does not
 * say where such a value comes from (a `createdAt` may be stamped, copied or computed), so none is assumed: the
 * field stays one every answer holds, set by the service by a rule the document does not state (`source: service`,
 * a named gap), and the approximation is reported.
 */
function optionalWithoutSource(ctx: Ctx, resources: Record<string, ResourceSpec>, states: SpecDocument['states'], endpoints: SpecDocument['endpoints']): void {
  const pointers = new Map([...ctx.resources].map(([pointer, name]) => [name, pointer]));
  const operations = Object.values(endpoints?.operations ?? {});
  for (const [name, r] of Object.entries(resources)) {
    // A field every create's path gives (a task's project_id under /projects/{projectId}/tasks) has its source.
    const creates = operations.filter((o) => o.action === 'create' && o.resource === name);
    const bound = (field: string) => creates.length > 0 && creates.every((o) => Object.values(o.bind ?? {}).includes(field));
    const stamped = new Set(Object.values(states?.[name]?.transitions ?? {}).flatMap((t) => (t.stamp !== undefined ? [t.stamp] : [])));
    const identifier = r.identifier ?? ctx.resourceIdentifier.get(name);
    const fields = r.fields ?? {};
    for (const [fname, f] of Object.entries(fields)) {
      if (!f.readOnly || f.optional || f.type === 'state' || f.generated !== undefined || 'default' in f || f.source !== undefined) continue;
      if (fname === identifier || fname === r.owner || stamped.has(fname) || bound(fname)) continue;
      // The object's own address (GitHub's `url`, a `self` or `href`, or one its description calls the self link),
      // where the resource has a read to address: the format states that value (`generated: address`).
      if (
        !madeReadOnly.get(ctx)?.has(`${name}.${fname}`) &&
        operations.some((o) => o.action === 'read' && o.resource === name && isSelfAddressField(fname, f, o.path))
      ) {
        (f as { generated?: 'address' }).generated = 'address';
        fields[fname] = orderField(f);
        report(
          ctx,
          'import-approximated',
          {
            item: `resource ${name} field ${fname} (read-only and required)`,
            as: "the object's own address, its read operation's path (`generated: address`)",
            reason:
              "its name or description says it is the address of the object itself (its read path, after the request's origin on a uri; the document may show another host)",
          },
          pointers.get(name) ?? '',
        );
        continue;
      }
      // One value is all it can hold (a `const`, an enum of one: Stripe's `object: customer`, a schema_version): that
      // is its value, stated by the document, and every answer carries it.
      if (f.type === 'enum' && f.values?.length === 1) {
        (f as { default?: unknown }).default = f.values[0];
        fields[fname] = orderField(f);
        continue;
      }
      (f as { source?: 'service' }).source = 'service';
      const reason =
        'the document does not say what gives it a value, so the rule is a named gap (serve, with --allow-gaps, answers without it); declare `generated` (the time of creation or change) or a `default` where one says it';
      report(
        ctx,
        'import-approximated',
        {
          item: `resource ${name} field ${fname} (read-only and required)`,
          as: 'a field every answer holds, its value set by the service by a rule not stated (`source: service`)',
          reason,
        },
        pointers.get(name) ?? '',
      );
      fields[fname] = orderField(f);
    }
  }
}

/**
 * The server makes every identifier (docs/format.md): a constraint its values would break (a slug's pattern, a
 * minimum of 1000) cannot be kept, so it is dropped and said so, rather than the spec refused or a value invented.
 */
function makeableIdentifiers(ctx: Ctx, resources: Record<string, ResourceSpec>): void {
  const pointers = new Map([...ctx.resources].map(([pointer, name]) => [name, pointer]));
  for (const [name, r] of Object.entries(resources)) {
    if (r.identifier_source === 'client') continue;
    const identifier = r.identifier ?? ctx.resourceIdentifier.get(name);
    const f = identifier !== undefined ? (r.fields?.[identifier] as Record<string, unknown> | undefined) : undefined;
    if (f === undefined || typeof f.type !== 'string') continue;
    for (const key of ['pattern', 'minLength', 'maxLength', 'minimum', 'exclusiveMinimum', 'multipleOf', 'default'] as const) {
      if (f[key] === undefined) continue;
      const reason = getUnmakeableIdentifier({ type: f.type, [key]: f[key], hasDefault: key === 'default' } as Parameters<typeof getUnmakeableIdentifier>[0]);
      if (reason === undefined) continue;
      delete f[key];
      report(
        ctx,
        'import-dropped',
        { item: `resource ${name} identifier \`${identifier}\` ${key}`, reason: `the identifier ${reason.replace(/^declares /, 'would declare ')}` },
        pointers.get(name) ?? '',
      );
    }
  }
}

/**
 * A create's, replace's or update's request body of its own schema that names fewer properties than the resource's
 * writable fields (a `CustomerPatch` of name, tier and phone for a Customer that also has email and tags): the
 * operation's `request_fields`, so the served action takes what the original declares, no more. Its schema was read
 * as this resource's request, so it is no resource of its own unless something else names it (`dropAbsorbed`).
 * Where a create leaves out a field the resource requires and gives no default, the spec has a gap (the format never
 * makes the value up): said at the request body. A request naming none of the writable fields keeps them all, said.
 */
function requestSubset(
  ctx: Ctx,
  operation: string,
  action: Action,
  resource: string,
  request: ShapeSpec,
  pointer: string,
  bind: Readonly<Record<string, string>> | undefined,
): string[] | undefined {
  if (request.resource === resource || request.list) return undefined;
  const sent = fieldsOf(request, ctx);
  if (sent === undefined) return undefined;
  if (request.resource !== undefined) (ctx.absorbed ??= new Set()).add(request.resource);
  const spec = ctx.resourceSpecs[resource];
  const identifier = spec?.identifier ?? ctx.resourceIdentifier.get(resource);
  const fields = ctx.resourceFields.get(resource) ?? {};
  // A field the path gives (`bind`) is the path's value, body or not (getUnsourcedFields leaves it out too).
  const bound = new Set(Object.values(bind ?? {}).map((path) => path.split('.')[0]!));
  // Writable as model-schemas.ts isWritable says: a client-given identifier only by a create, a write-once field not
  // by an update or replace.
  const writable = Object.entries(fields).filter(
    ([name, f]) =>
      !bound.has(name) &&
      (name !== identifier || (action === 'create' && spec?.identifier_source === 'client')) &&
      name !== spec?.owner &&
      f.readOnly !== true &&
      f.type !== 'state' &&
      !(f.writeOnce === true && action !== 'create'),
  );
  const more = writable.filter(([name]) => !Object.hasOwn(sent, name)).map(([name]) => `\`${name}\``);
  if (more.length === 0) return undefined;
  const taken = Object.keys(sent).filter((name) => writable.some(([n]) => n === name));
  const listed = Object.keys(sent)
    .map((f) => `\`${f}\``)
    .join(', ');
  if (taken.length === 0) {
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${operation}: its request body (${listed || 'no properties'})`,
        as: `the ${action} of ${resource}, which takes every writable field of ${resource}`,
        reason: `it names none of them, and \`request_fields\` lists at least one, so a request sending ${more.join(', ')} is accepted too`,
      },
      pointer,
    );
    return undefined;
  }
  // What a create requires that this request does not take, with no default to fill it: a gap of the spec.
  const unsourcedNames =
    action === 'create'
      ? writable
          .filter(
            ([name, f]) => !Object.hasOwn(sent, name) && f.optional !== true && (f as { default?: unknown }).default === undefined && f.generated === undefined,
          )
          .map(([name]) => name)
      : [];
  const unsourced = unsourcedNames.map((name) => `\`${name}\``);
  if (unsourced.length > 0) {
    const one = unsourced.length === 1;
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${operation}: its request body (${listed})`,
        as: `the ${action} of ${resource} taking \`request_fields\` [${taken.join(', ')}]`,
        reason: `${resource} requires ${unsourced.join(', ')}, which the request leaves out and the document gives no default: the spec has a gap there (\`servicespec gaps\`), and the served create answers not_implemented until ${one ? 'it has' : 'they have'} a \`default\` or ${one ? 'is' : 'are'} made \`optional\` (if the service sets ${one ? 'it' : 'them'})`,
      },
      pointer,
    );
    // Taken back by unwrittenRequired where every field it names turns out to be the service's.
    const said = unsourcedSaid.get(ctx) ?? unsourcedSaid.set(ctx, new Map()).get(ctx)!;
    said.set(operation, { diagnostic: ctx.diagnostics[ctx.diagnostics.length - 1]!, fields: unsourcedNames });
  }
  return taken;
}

/** What requestSubset said of a create's unsourced fields, by operation: the diagnostic and the fields it names. */
const unsourcedSaid = new WeakMap<Ctx, Map<string, { diagnostic: Diagnostic; fields: string[] }>>();

/**
 * A schema read only as another resource's request (`requestSubset`), or as a list's page or envelope, is no
 * resource: dropped unless some part of the spec still names it.
 */
function dropAbsorbed(ctx: Ctx, out: SpecDocument, resources: Record<string, ResourceSpec>): void {
  for (const name of ctx.absorbed ?? []) {
    if (!Object.hasOwn(resources, name)) continue;
    const { [name]: _self, ...rest } = resources;
    if (names({ ...out, resources: rest }, name)) continue;
    delete resources[name];
    // What reading a page as a resource said is not so: the list it holds says its own.
    if (!ctx.wrappers?.has(name)) continue;
    const said = new RegExp(`^resource ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[.: ]`);
    for (let i = ctx.diagnostics.length - 1; i >= 0; i--) if (said.test(ctx.diagnostics[i]!.message)) ctx.diagnostics.splice(i, 1);
  }
}

/**
 * The resources read from the components a resource's own component refers to, at any depth, but for `held` (a
 * list's objects) and what it refers to.
 */
function componentsWithin(ctx: Ctx, resource: string, held: string | undefined): string[] {
  const pointer = [...ctx.resources].find(([, name]) => name === resource)?.[0];
  if (pointer === undefined) return [];
  const seen = new Set<string>([pointer]);
  const out: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(node)) for (const v of node) visit(v, depth + 1);
    else if (isObject(node))
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#') && !seen.has(v)) {
          seen.add(v);
          const name = ctx.resources.get(v);
          if (name !== undefined && name === held) continue;
          if (name !== undefined) out.push(name);
          visit(getByPointer(ctx.root, v), depth + 1);
        } else visit(v, depth + 1);
      }
  };
  visit(getByPointer(ctx.root, pointer), 0);
  return out;
}

/** Whether some string in the value is exactly the name. */
function names(value: unknown, name: string, depth = 0): boolean {
  if (depth > 200) return false;
  if (typeof value === 'string') return value === name;
  if (Array.isArray(value)) return value.some((v) => names(v, name, depth + 1));
  if (isObject(value)) return Object.values(value).some((v) => names(v, name, depth + 1));
  return false;
}

/**
 * Each bound a create's or replace's request property states that the resource's field (read from the answer) does
 * not: made the field's, said with `import-approximated` (the format has one set of bounds for requests and answers,
 * so answers are held to it too). A bound both state differently is kept as the answer says, and said.
 */
function keepRequestBounds(ctx: Ctx, operation: string, resource: string, name: string, f: FieldSpec, property: unknown, at: string): void {
  const sent = fieldFromSchema({ ...ctx, diagnostics: [] }, property, at, { where: '', depth: 1, stack: [] });
  if (sent.type !== f.type) return;
  for (const key of FIELD_BOUND_KEYS) {
    const value = sent[key];
    if (value === undefined || value === f[key]) continue;
    const had = f[key];
    if (had === undefined) (f as FieldConstraints)[key] = value as never;
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${operation}: request property \`${name}\` (${key} ${JSON.stringify(value)})`,
        as: had === undefined ? `the ${key} of ${resource}.${name}` : `${resource}.${name} with the answer's ${key} ${JSON.stringify(had)}`,
        reason:
          had === undefined
            ? 'the answer states none, and the format has one set of bounds for requests and answers: answers are held to it too'
            : 'the answer states another, and the format has one set of bounds for requests and answers',
      },
      at,
    );
  }
}

/**
 * An update's request body that requires properties (a PATCH that must send a `reason`): the format's update takes
 * any subset of its fields, so a request leaving them out is served, and sent by `servicespec test`. Said at the
 * schema's `required`, as the contract changes there.
 */
function reportUpdateRequired(ctx: Ctx, operation: string, resource: string, req: { schema: unknown; pointer: string }): void {
  const flat = flatten(ctx, req.schema, req.pointer);
  const s = flat.schema;
  const fields = ctx.resourceSpecs[resource]?.fields;
  if (!s || !isObject(s.properties) || !fields || !Array.isArray(s.required)) return;
  const identifier = ctx.resourceSpecs[resource]?.identifier ?? ctx.resourceIdentifier.get(resource);
  const properties = s.properties;
  const names = [...new Set((s.required as unknown[]).map(String))].filter(
    (n) => Object.hasOwn(properties, n) && fields[n] !== undefined && fields[n]!.readOnly !== true && n !== identifier,
  );
  if (names.length === 0) return;
  const listed = names.map((n) => `\`${n}\``).join(', ');
  report(
    ctx,
    'import-approximated',
    {
      item: `operation ${operation}: request ${names.length === 1 ? 'property' : 'properties'} ${listed} (required)`,
      as: `fields an update of ${resource} may leave out (a field left out keeps its value)`,
      reason: `the format's update takes any subset of its fields, so a request without ${names.length === 1 ? 'it' : 'them'} is served, and \`servicespec test\` sends one`,
    },
    joinPointer(flat.pointer.replace(/^#/, ''), 'required'),
  );
}

/**
 * A create's or replace's request body says which properties a request must send; the resource's fields were read
 * from the answer. A required property with a `default` stays required in requests (`requiredInRequests`: the default
 * only documents it); one the request may leave out that the answer always holds is `optionalInRequests` (its value
 * a named gap); a property the request requires that the answer may leave out is reported at the property.
 */
function keepRequestRequired(ctx: Ctx, operation: string, resource: string, req: { schema: unknown; pointer: string }, create: boolean): void {
  const flat = flatten(ctx, req.schema, req.pointer);
  const s = flat.schema;
  const fields = ctx.resourceSpecs[resource]?.fields;
  if (!s || !isObject(s.properties) || !fields) return;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).map(String) : []);
  const identifier = ctx.resourceSpecs[resource]?.identifier ?? ctx.resourceIdentifier.get(resource);
  for (const name of Object.keys(s.properties)) {
    const f = fields[name];
    if (f === undefined || f.readOnly === true) continue;
    const at = joinPointer(joinPointer(flat.pointer.replace(/^#/, ''), 'properties'), name);
    if (name === identifier) {
      // The create's body carries the identifier: the client gives it (petstore's `id`), not the server.
      if (create && required.has(name)) clientIdentifier(ctx, resource);
      else if (create)
        report(
          ctx,
          'import-approximated',
          {
            item: `operation ${operation}: request property \`${name}\` (optional), ${resource}'s identifier`,
            as: 'an identifier the server makes (a request that sends one is refused)',
            reason: 'an identifier is given either by every create request or by the server',
          },
          at,
        );
      continue;
    }
    const hasDefault = Object.hasOwn(f, 'default');
    // A create request's own default (EventCreate's `capacity: { default: 50 }`, where Event only requires it) is
    // the value the service gives the field a create leaves out: kept, and made the field's default once every
    // request is read, where no replace requires the field (applyRequestDefaults).
    const own = resolve(ctx, s.properties[name], at).node;
    if (create && !hasDefault && !required.has(name) && f.optional !== true && isObject(own) && 'default' in own && ctx.fromServicespec !== true) {
      const problem = getValueProblem({ ...(f as unknown as Pick<FieldModel, 'type'>), nullable: (f.nullable ?? false) !== false } as FieldModel, own.default);
      const defaults = requestDefaults.get(ctx) ?? requestDefaults.set(ctx, new Map()).get(ctx)!;
      if (problem === undefined && !defaults.has(`${resource}.${name}`)) defaults.set(`${resource}.${name}`, { resource, name, value: own.default });
    }
    // A bound the request states and the answer does not (PaymentIntentCreate's `customer: { maxLength: 64 }`, a
    // PaymentIntent's plain `customer`): the field's, as the values it holds come from requests. Before, it was lost.
    if (ctx.fromServicespec !== true) keepRequestBounds(ctx, operation, resource, name, f, s.properties[name], at);
    if (required.has(name) && f.optional !== true && hasDefault) {
      (f as FieldSpec).requiredInRequests = true;
      fields[name] = orderField(f);
    } else if (required.has(name) && f.optional === true && f.writeOnly !== true) {
      report(
        ctx,
        'import-approximated',
        {
          item: `operation ${operation}: request property \`${name}\` (required)`,
          as: `a field ${resource} may leave out in requests too`,
          reason: 'the answer may leave it out, and the format has one optionality for both',
        },
        at,
      );
    } else if (f.optional !== true && !hasDefault) {
      // Optional in a request, required in the answer: the server gives it a value the document does not state
      // (optionalInRequests), in creates and replaces alike, or in creates only where a replace requires it.
      const key = `${resource}.${name}`;
      const seen = requestOptionality.get(ctx) ?? new Map<string, { create?: boolean; replace?: boolean }>();
      requestOptionality.set(ctx, seen);
      // Every create (and every replace) must let it be left out: one that requires it holds its action to that.
      const before = seen.get(key) ?? {};
      const which = create ? 'create' : 'replace';
      const says = { ...before, [which]: (before[which] ?? true) && !required.has(name) };
      seen.set(key, says);
      const value =
        says.create === false ? undefined : says.create === true ? (says.replace === false ? 'create' : true) : says.replace === true ? true : undefined;
      if (value === undefined) delete (f as FieldSpec).optionalInRequests;
      else (f as FieldSpec).optionalInRequests = value;
      fields[name] = orderField(f);
    }
  }
}

/**
 * A write-only field is never in an answer, so the answer's `required` says nothing of it (an exported document
 * lists it required in the request bodies only, as OpenAPI 3.1's JSON Schema would fail an answer without it): the
 * create and replace bodies say whether it is required. Noted here, decided once every operation is read.
 */
function noteWriteOnlyRequired(ctx: Ctx, operation: string, resource: string, req: { schema: unknown; pointer: string }): void {
  const flat = flatten(ctx, req.schema, req.pointer);
  const s = flat.schema;
  const fields = ctx.resourceSpecs[resource]?.fields;
  if (!s || !isObject(s.properties) || !fields) return;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).map(String) : []);
  const said = writeOnlyRequired.get(ctx) ?? writeOnlyRequired.set(ctx, new Map()).get(ctx)!;
  for (const name of Object.keys(s.properties)) {
    const f = fields[name];
    if (f?.writeOnly !== true || f.optional !== true) continue;
    const key = `${resource}.${name}`;
    const seen = said.get(key) ?? { resource, name, requiring: [], leaving: 0 };
    said.set(key, seen);
    if (required.has(name)) seen.requiring.push({ operation, at: joinPointer(joinPointer(flat.pointer.replace(/^#/, ''), 'properties'), name) });
    else seen.leaving++;
  }
}

/** A write-only field every create and replace body requires is required; one some body leaves out stays optional. */
function applyWriteOnlyRequired(ctx: Ctx, resources: Record<string, ResourceSpec>): void {
  for (const w of writeOnlyRequired.get(ctx)?.values() ?? []) {
    const f = resources[w.resource]?.fields?.[w.name];
    if (f === undefined || w.requiring.length === 0) continue;
    if (w.leaving === 0) {
      delete f.optional;
      continue;
    }
    for (const r of w.requiring)
      report(
        ctx,
        'import-approximated',
        {
          item: `operation ${r.operation}: request property \`${w.name}\` (required)`,
          as: `a field ${w.resource} may leave out in requests too`,
          reason: 'another create or replace body may leave it out, and the format has one optionality for both',
        },
        r.at,
      );
  }
}

/** What the create and replace bodies said of each optional write-only field (`Resource.field`). */
const writeOnlyRequired = new WeakMap<Ctx, Map<string, { resource: string; name: string; requiring: { operation: string; at: string }[]; leaving: number }>>();

/**
 * The answer may hold null where a request may not send it (Tickets' payment: nullable on the ticket, a plain Payment
 * in TicketCreate; Stripe's `customer`): `nullable: answers`, unless some create, replace or update may send null.
 */
function keepRequestNulls(
  ctx: Ctx,
  operation: string,
  resource: string,
  req: { schema: unknown; pointer: string; mediaType?: string },
  action: 'create' | 'replace' | 'update',
): void {
  const flat = flatten(ctx, req.schema, req.pointer);
  const s = flat.schema;
  const fields = ctx.resourceSpecs[resource]?.fields;
  if (!s || !isObject(s.properties) || !fields) return;
  const props = s.properties;
  const nulls = requestNulls.get(ctx) ?? requestNulls.set(ctx, { sent: new Set(), refused: [] }).get(ctx)!;
  const unheld = nullsUnheld.get(ctx) ?? nullsUnheld.set(ctx, new Set()).get(ctx)!;
  for (const name of Object.keys(props)) {
    const f = fields[name];
    if (f === undefined || f.readOnly === true) continue;
    const at = joinPointer(joinPointer(flat.pointer.replace(/^#/, ''), 'properties'), name);
    const sentNull = () => fieldFromSchema({ ...ctx, diagnostics: [] }, props[name], at, { where: '', depth: 1, stack: [] }).nullable ?? false;
    if ((f.nullable ?? false) === false) {
      // A request that may send null for a field no answer holds null (FastAPI's update models, every member
      // `Optional[X] = None`, of a resource requiring `title`): what the null does — clear the field, keep it, give it
      // its default — the document does not say, and the format's request refuses it (validation). Said, not
      // invented; a merge patch's null clearing an optional field is the format's own meaning.
      const merged = action === 'update' && req.mediaType?.toLowerCase() === MERGE_PATCH_MEDIA_TYPE && f.optional === true;
      if (!merged && sentNull() !== false && !unheld.has(at)) {
        unheld.add(at);
        report(
          ctx,
          'import-approximated',
          {
            item: `operation ${operation}: request property \`${name}\` (nullable)`,
            as: `a field its request may not set to null (refused with the validation condition)`,
            reason: `${resource}'s answers never hold it null (${f.optional === true ? 'optional' : 'required'}, not nullable), and the document does not say what a null sent does (clear it, keep it, give it its default)`,
          },
          at,
        );
      }
      continue;
    }
    const sent = sentNull();
    const key = `${resource}.${name}`;
    if (sent !== false) {
      nulls.sent.add(key);
      f.nullable = true;
    } else {
      nulls.refused.push({ key, operation, name, resource, at });
      if (!nulls.sent.has(key)) f.nullable = 'answers';
    }
  }
}

/** A request that may not send null, of a field another request may: the format has one nullability for requests. */
function reportRequestNulls(ctx: Ctx): void {
  const nulls = requestNulls.get(ctx);
  for (const r of nulls?.refused ?? []) {
    if (!nulls!.sent.has(r.key)) continue;
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${r.operation}: request property \`${r.name}\` (not nullable)`,
        as: `a field ${r.resource} may set to null in requests`,
        reason: 'another request may send it null, and the format has one nullability for all requests',
      },
      r.at,
    );
  }
}

/** The request properties (by pointer) said to take a null their field's answers never hold: said once each. */
const nullsUnheld = new WeakMap<Ctx, Set<string>>();

/** The resource fields (`Resource.field`) some request body may set to null: nullable in requests too. */
const requestNulls = new WeakMap<Ctx, { sent: Set<string>; refused: { key: string; operation: string; name: string; resource: string; at: string }[] }>();
/** What each create and replace request body said of a resource field the answer requires: optional (true) or required. */
const requestOptionality = new WeakMap<Ctx, Map<string, { create?: boolean; replace?: boolean }>>();
/** The defaults a create's request gives fields its resource requires with none (keepRequestRequired), by `Resource.field`. */
const requestDefaults = new WeakMap<Ctx, Map<string, { resource: string; name: string; value: unknown }>>();

/**
 * Each create request's own default, made its field's default where every create may leave the field out and no
 * replace requires it (a replace that does keeps the field required there, which a default would undo): the value
 * the service gives the field then, in place of the named gap optionalInRequests is.
 */
function applyRequestDefaults(ctx: Ctx, resources: Record<string, ResourceSpec>): void {
  const said = requestOptionality.get(ctx);
  for (const [key, d] of requestDefaults.get(ctx) ?? []) {
    const f = resources[d.resource]?.fields?.[d.name] as (FieldSpec & { default?: unknown }) | undefined;
    const says = said?.get(key);
    if (!f || says?.create !== true || says.replace === false || f.optionalInRequests !== true) continue;
    f.default = d.value;
    delete f.optionalInRequests;
    resources[d.resource]!.fields![d.name] = orderField(f);
  }
}

/** `identifier_source: client`, written after `identifier` (or first), as the format orders a resource's keys. */
function clientIdentifier(ctx: Ctx, resource: string): void {
  const spec = ctx.resourceSpecs[resource];
  if (spec === undefined || spec.identifier_source === 'client') return;
  const ordered: Json = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'fields' || k === 'owner' || k === 'owner_access') ordered.identifier_source ??= 'client';
    ordered[k] = v;
  }
  ordered.identifier_source ??= 'client';
  for (const k of Object.keys(spec)) delete (spec as Json)[k];
  Object.assign(spec, ordered);
}

function importPurpose(ctx: Ctx): SpecDocument['purpose'] {
  const info = isObject(ctx.doc.info) ? ctx.doc.info : {};
  const purposeExt = ext<Json>(info, 'x-servicespec-purpose') ?? {};
  const out: Json = {};
  const name = notShown(info.title);
  if (name !== undefined) out.name = name;
  const summary = str(info.summary) ?? str(purposeExt.summary);
  if (summary !== undefined) out.summary = summary;
  const description = withoutRules(str(info.description));
  if (description !== undefined) out.description = description;
  if (isObject(purposeExt.scope)) {
    const scope: Json = {};
    for (const k of ['includes', 'excludes']) if (Array.isArray(purposeExt.scope[k])) scope[k] = (purposeExt.scope[k] as unknown[]).map(String);
    out.scope = scope;
  }
  if (Array.isArray(purposeExt.audience)) out.audience = purposeExt.audience.map(String);
  if (isObject(info.contact)) {
    const c: Json = {};
    for (const k of ['name', 'email', 'url']) if (typeof info.contact[k] === 'string') c[k] = info.contact[k];
    if (typeof c.email === 'string' && !/^[^@\s]+@[^@\s]+$/.test(c.email)) {
      report(ctx, 'import-dropped', { item: 'info.contact.email', reason: `\`${c.email}\` is not an email address` }, '/info/contact/email');
      delete c.email;
    }
    if (typeof c.url === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(c.url)) {
      report(ctx, 'import-dropped', { item: 'info.contact.url', reason: `\`${c.url}\` is not an absolute URI` }, '/info/contact/url');
      delete c.url;
    }
    out.contact = c;
  }
  if (info.license !== undefined) report(ctx, 'import-dropped', { item: 'info.license', reason: 'the format has no licence field' }, '/info/license');
  if (info.termsOfService !== undefined)
    report(ctx, 'import-dropped', { item: 'info.termsOfService', reason: 'the format has no terms-of-service field' }, '/info/termsOfService');
  if (!ctx.doc['x-servicespec-versioning'] && notShown(info.version) !== undefined) {
    report(
      ctx,
      'import-dropped',
      {
        item: `info.version \`${String(info.version)}\``,
        reason: 'it versions the document; the versioning part (placement, compatibility rules) is not shown by OpenAPI',
      },
      '/info/version',
    );
  }
  return out as SpecDocument['purpose'];
}

// ---- resources ----------------------------------------------------------------------------------------------

/** Component schemas referred to from error responses only: error bodies, not resources. */
function errorOnlySchemas(ctx: Ctx): Set<string> {
  const inError = new Set<string>();
  const elsewhere = new Set<string>();
  const collect = (node: unknown, into: Set<string>, depth = 0): void => {
    if (depth > 64) return;
    if (Array.isArray(node)) node.forEach((n) => collect(n, into, depth + 1));
    else if (isObject(node)) {
      if (typeof node.$ref === 'string') {
        const r = resolve(ctx, node, '');
        for (const p of r.chain.slice(1)) into.add(p);
      }
      for (const [k, v] of Object.entries(node)) if (k !== '$ref') collect(v, into, depth + 1);
    }
  };
  const paths = isObject(ctx.doc.paths) ? ctx.doc.paths : {};
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const m of METHODS) {
      const op = item[m];
      if (!isObject(op)) continue;
      const responses = isObject(op.responses) ? op.responses : {};
      for (const [status, r] of Object.entries(responses))
        collect(resolve(ctx, r, '').node, /^[45]/.test(status) || status === 'default' ? inError : elsewhere);
      collect(op.requestBody, elsewhere);
      collect(op.parameters, elsewhere);
    }
  }
  collect(ctx.doc.webhooks, elsewhere);
  const schemas = isObject(ctx.doc.components) && isObject(ctx.doc.components.schemas) ? ctx.doc.components.schemas : {};
  for (const [name, s] of Object.entries(schemas)) {
    const p = `#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (inError.has(p)) continue;
    collect(s, elsewhere);
  }
  return new Set([...inError].filter((p) => !elsewhere.has(p)));
}

/** A component read as a resource of several shapes (docs/import.md, "Resources of several shapes"). */
interface ResourceUnion {
  discriminator: string;
  /** The fields every variant holds alike (the identifier among them), not the tag. */
  shared: Record<string, FieldSpec>;
  /** Each variant's own fields, its tag where it is not the variant's name. */
  variants: Record<string, VariantSpec>;
  /** Every field an object may hold: the shared ones, the tag, each variant's. */
  all: Record<string, FieldSpec>;
  /** The tags, in order. */
  tags: string[];
  /** The components the variants are (never resources themselves). */
  variantPointers: string[];
}

/**
 * The components that are resources of several shapes: a tagged `oneOf` (or `anyOf`) of object variants whose fields
 * every variant holding alike include an identifier (a required `id`: what makes the objects a resource's, not a
 * request's union), or, from a servicespec export, one marked `x-servicespec-resource`. The fields the variants hold
 * alike are shared; the rest each variant's own, as the format's `variants` write them.
 */
function findResourceUnions(ctx: Ctx, schemas: Json, exported: boolean): Map<string, ResourceUnion> {
  const out = new Map<string, ResourceUnion>();
  for (const [key, raw] of Object.entries(schemas)) {
    if (!isObject(raw) || !isObject(raw.discriminator) || !(Array.isArray(raw.oneOf) || Array.isArray(raw.anyOf))) continue;
    if (exported && raw['x-servicespec-resource'] === undefined) continue;
    if (raw['x-servicespec-view'] !== undefined || raw['x-servicespec-error-body'] !== undefined) continue;
    const pointer = `#/components/schemas/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const reported = ctx.diagnostics.length;
    const u = unionFromSchema(ctx, raw, raw, pointer, { where: `resource ${key}`, depth: 1, stack: [pointer] });
    const d = u?.discriminator;
    const variants = Object.entries(u?.variants ?? {});
    if (u === undefined || d === undefined || variants.length === 0 || variants.some(([, v]) => v.shape !== undefined)) {
      ctx.diagnostics.length = reported;
      continue;
    }
    const [first, ...rest] = variants.map(([, v]) => v.fields ?? {});
    const shared: Record<string, FieldSpec> = {};
    for (const [n, f] of Object.entries(first!)) if (rest.every((o) => Object.hasOwn(o, n) && JSON.stringify(o[n]) === JSON.stringify(f))) shared[n] = f;
    const id = shared[DEFAULT_IDENTIFIER_FIELD];
    if (!exported && (id === undefined || !isDefaultIdentifier(id, DEFAULT_IDENTIFIER_FIELD))) {
      ctx.diagnostics.length = reported;
      continue;
    }
    const own: Record<string, VariantSpec> = {};
    const all: Record<string, FieldSpec> = { ...shared, [d]: { type: 'string' } };
    for (const [name, v] of variants) {
      const fields = Object.fromEntries(Object.entries(v.fields ?? {}).filter(([n]) => !Object.hasOwn(shared, n)));
      for (const [n, f] of Object.entries(fields)) all[n] ??= f;
      own[name] = { ...v, fields } as VariantSpec;
      if (Object.keys(fields).length === 0) delete own[name]!.fields;
    }
    const key2 = Array.isArray(raw.oneOf) ? 'oneOf' : 'anyOf';
    const variantPointers = (raw[key2] as unknown[]).map((x, i) => resolve(ctx, x, joinPointer(joinPointer(pointer, key2), i)).pointer);
    const tags = variants.map(([name, v]) => (typeof v.tag === 'string' ? v.tag : name));
    out.set(pointer, { discriminator: d, shared, variants: own, all, tags, variantPointers });
  }
  return out;
}

/**
 * The variants' components of a resource union's request views: a tagged union component of the same discriminator
 * and the same tags (petstore's NewPet of NewCat and NewDog beside Pet of Cat and Dog), read as the resource's create
 * body, whose variant components are no resources either.
 */
function requestViewVariants(ctx: Ctx, schemas: Json, unions: ReadonlyMap<string, ResourceUnion>): string[] {
  if (unions.size === 0) return [];
  const out: string[] = [];
  for (const [key, raw] of Object.entries(schemas)) {
    if (!isObject(raw) || !isObject(raw.discriminator) || typeof raw.discriminator.propertyName !== 'string') continue;
    const k = Array.isArray(raw.oneOf) ? 'oneOf' : Array.isArray(raw.anyOf) ? 'anyOf' : undefined;
    if (k === undefined) continue;
    const pointer = `#/components/schemas/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (unions.has(pointer)) continue;
    const tags = isObject(raw.discriminator.mapping) ? Object.keys(raw.discriminator.mapping) : [];
    const prop = raw.discriminator.propertyName;
    if (![...unions.values()].some((u) => u.discriminator === prop && tags.length > 0 && tags.every((t) => u.tags.includes(t)))) continue;
    for (const [i, x] of (raw[k] as unknown[]).entries()) out.push(resolve(ctx, x, joinPointer(joinPointer(pointer, k), i)).pointer);
  }
  return out;
}

function importResources(ctx: Ctx): Record<string, ResourceSpec> {
  const schemas = isObject(ctx.doc.components) && isObject(ctx.doc.components.schemas) ? ctx.doc.components.schemas : {};
  // A servicespec export names its resources (x-servicespec-resource) and no others; a document of its own that puts
  // the extension on one schema (to say its owner, its plural) still has its other schemas read as resources.
  const exported = ctx.fromServicespec && Object.values(schemas).some((s) => isObject(s) && s['x-servicespec-resource'] !== undefined);
  const errorOnly = exported ? new Set<string>() : errorOnlySchemas(ctx);
  const names = new UniqueNames('', true);
  const picked: { key: string; name: string; pointer: string; schema: Json; refs: string[]; union?: ResourceUnion }[] = [];
  // Resources of several shapes first: their variants' components (and those of their request views) are no resources.
  const unions = findResourceUnions(ctx, schemas, exported);
  ctx.resourceUnions = new Set(unions.keys());
  const variantOnly = new Set([...unions.values()].flatMap((u) => u.variantPointers));
  for (const p of requestViewVariants(ctx, schemas, unions)) variantOnly.add(p);
  for (const [key, raw] of Object.entries(schemas)) {
    const pointer = `#/components/schemas/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!isObject(raw)) continue;
    if (variantOnly.has(pointer) && !unions.has(pointer)) continue;
    const union = unions.get(pointer);
    if (union !== undefined) {
      const name = names.take(exported ? key : toResourceName(key));
      if (name !== key) report(ctx, 'import-renamed', { what: 'component schema', from: key, to: name, reason: 'resource names start with a letter' }, pointer);
      ctx.resources.set(pointer, name);
      picked.push({ key, name, pointer, schema: raw, refs: [], union });
      continue;
    }
    if (exported ? raw['x-servicespec-resource'] === undefined : raw['x-servicespec-view'] !== undefined || raw['x-servicespec-error-body'] !== undefined)
      continue;
    if (!exported && errorOnly.has(pointer)) continue;
    // A union's variant as servicespec exports it is never a resource (under an empty `resources`, nothing says `exported`).
    if (raw['x-servicespec-variant'] !== undefined && raw['x-servicespec-resource'] === undefined) continue;
    const flat = flatten(ctx, raw, pointer);
    const s = flat.schema;
    if (!s) continue;
    const isObjectSchema = isObject(s.properties) && (s.type === undefined || s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object')));
    if (!isObjectSchema && !exported) continue;
    const wanted = exported ? key : toResourceName(key);
    const name = names.take(wanted);
    if (name !== key)
      report(
        ctx,
        'import-renamed',
        {
          what: 'component schema',
          from: key,
          to: name,
          reason:
            name !== wanted && wanted === key
              ? "another resource has the name, or one differing only in case (stored tables and the client's types are named without case)"
              : 'resource names start with a letter, then letters, digits, dots, hyphens and underscores',
        },
        pointer,
      );
    ctx.resources.set(pointer, name);
    picked.push({ key, name, pointer, schema: s, refs: flat.refs });
  }
  const out: Record<string, ResourceSpec> = {};
  for (const p of picked) {
    const rext = ext<Json>(p.schema, 'x-servicespec-resource') ?? {};
    if (p.union !== undefined) {
      const u = p.union;
      const r: Json = {};
      if (typeof p.schema.description === 'string') r.description = p.schema.description;
      for (const [k, v] of Object.entries(rext)) if (v !== undefined) r[k] = v;
      r.discriminator = u.discriminator;
      r.fields = u.shared;
      r.variants = u.variants;
      out[p.name] = r as ResourceSpec;
      // Every field an object may hold (the tag among them): what a request's members are held to.
      ctx.resourceFields.set(p.name, u.all);
      ctx.resourceIdentifier.set(p.name, identifierOf(rext, u.shared));
      continue;
    }
    const fields = fieldsFromSchema(
      ctx,
      p.schema,
      p.pointer,
      { where: `resource ${p.name}`, depth: 1, stack: [p.pointer, ...p.refs], writeOnly: true, caseless: true },
      'top',
    );
    const r: Json = {};
    if (typeof p.schema.description === 'string') r.description = p.schema.description;
    for (const k of ['plural', 'identifier', 'owner', 'owner_access']) if (typeof rext[k] === 'string') r[k] = rext[k];
    for (const [k, v] of Object.entries(rext)) if (!(k in r) && v !== undefined) r[k] = v;
    // A component that leaves its object open lets an answer carry members it does not name (JSON Schema's default).
    if (!exported && !isClosedObject(objectParts(ctx, schemas[p.key], p.pointer))) r.answer_members = 'open';
    r.fields = fields;
    out[p.name] = r as ResourceSpec;
    ctx.resourceFields.set(p.name, fields);
    ctx.resourceIdentifier.set(p.name, identifierOf(rext, fields));
    // Every answer carries the identifier and the owner: neither can be write-only (check's write-only-invalid).
    for (const k of [ctx.resourceIdentifier.get(p.name), typeof r.owner === 'string' ? r.owner : undefined]) {
      const f = k !== undefined ? (fields[k] as (FieldSpec & Json) | undefined) : undefined;
      if (f?.writeOnly !== true) continue;
      delete f.writeOnly;
      report(
        ctx,
        'import-dropped',
        { item: `resource ${p.name}.${k!}: writeOnly`, reason: 'every answer carries the identifier and the owner field' },
        joinPointer(joinPointer(p.pointer, 'properties'), k!),
      );
    }
  }
  return out;
}

// ---- authentication -----------------------------------------------------------------------------------------

/** A path template compared by its shape, as check's route-conflict compares it: `/a/{id}` is `/a/{key}`, no trailing slash. */
function routeShape(path: string): string {
  const shape = path.replace(/\{[^{}]*\}/g, '{}');
  return shape.replace(/\/+$/, '') || '/';
}

function importScheme(ctx: Ctx, name: string, raw: unknown, pointer: string): SchemeSpec | undefined {
  const s = resolve(ctx, raw, pointer).node;
  if (!isObject(s)) return undefined;
  const extra = ext<Json>(s, 'x-servicespec-scheme') ?? {};
  let out: Json | undefined;
  const drop = (reason: string) => {
    report(ctx, 'import-dropped', { item: `security scheme ${name}`, reason }, pointer);
    ctx.droppedSchemes.add(name);
    return undefined;
  };
  const collectScopes = (flows: Json) => {
    for (const flow of Object.values(flows)) {
      if (!isObject(flow) || !isObject(flow.scopes)) continue;
      for (const [scope, d] of Object.entries(flow.scopes)) if (!ctx.scopesSeen.has(scope)) ctx.scopesSeen.set(scope, String(d));
    }
  };
  switch (s.type) {
    case 'apiKey':
      if (s.in === 'cookie') return drop('a key in a cookie has no equivalent (keys travel in a header or the query)');
      out = { type: 'api_key', in: s.in === 'query' ? 'query' : 'header' };
      if (notShown(s.name) !== undefined) {
        out.name = s.name;
        ctx.carried.set(s.in === 'query' ? `query ${String(s.name)}` : `header ${String(s.name).toLowerCase()}`, `security scheme ${name}`);
      }
      break;
    case 'http': {
      const scheme = String(s.scheme ?? '').toLowerCase();
      if (scheme === 'basic') out = { type: 'basic' };
      else if (scheme === 'bearer') {
        out = { type: 'bearer' };
        if (typeof s.bearerFormat === 'string' && s.bearerFormat.toUpperCase() === 'JWT') out.token = 'jwt';
      } else return drop(`HTTP authentication scheme \`${scheme}\` has no equivalent`);
      break;
    }
    case 'oauth2': {
      const flows = isObject(s.flows) ? s.flows : {};
      collectScopes(flows);
      const cc = isObject(flows.clientCredentials) ? flows.clientCredentials : undefined;
      const tokenUrl = notShown(cc?.tokenUrl);
      if (cc && (tokenUrl === undefined || tokenUrl.startsWith('/'))) {
        out = { type: 'oauth2_client_credentials' };
        if (tokenUrl !== undefined) {
          out.token_path = tokenUrl;
          (ctx.tokenPaths ??= new Map()).set(routeShape(tokenUrl), name);
        }
        const others = Object.keys(flows).filter((f) => f !== 'clientCredentials');
        if (others.length > 0)
          report(
            ctx,
            'import-dropped',
            { item: `security scheme ${name}: flows ${others.join(', ')}`, reason: 'only the client credentials grant is part of the format' },
            pointer,
          );
      } else {
        out = { type: 'bearer' };
        report(
          ctx,
          'import-approximated',
          {
            item: `security scheme ${name} (OAuth2 ${Object.keys(flows).join(', ')})`,
            as: 'a bearer scheme',
            reason: 'the service receives the tokens as bearer tokens; where they are issued has no equivalent',
          },
          pointer,
        );
      }
      break;
    }
    case 'openIdConnect':
      out = { type: 'bearer', token: 'jwt' };
      report(
        ctx,
        'import-approximated',
        {
          item: `security scheme ${name} (OpenID Connect)`,
          as: 'a bearer JWT scheme',
          reason: 'the discovery URL has no equivalent; issuer and keys are not shown',
        },
        pointer,
      );
      break;
    default:
      return drop(`type \`${String(s.type)}\` has no equivalent`);
  }
  if (typeof s.description === 'string') out.description = s.description;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) out[k] = v;
  return out as unknown as SchemeSpec;
}

/** An OpenAPI security requirement list as the format's requirement. */
function requirement(ctx: Ctx, list: unknown, holder: Json, pointer: string): 'none' | OperationAuthSpec | undefined {
  const kept = ext<Json>(holder, 'x-servicespec-requirement');
  if (isObject(kept) && Array.isArray(kept.schemes) && Array.isArray(kept.scopes))
    return { schemes: kept.schemes.map(String), scopes: kept.scopes.map(String) };
  if (!Array.isArray(list)) return undefined;
  if (list.length === 0) return 'none';
  const schemes: string[] = [];
  const scopes: string[] = [];
  const asked: string[] = [];
  let optional = false;
  list.forEach((alt, i) => {
    if (!isObject(alt)) return;
    const names = Object.keys(alt);
    if (names.length === 0) optional = true;
    if (names.length > 1) {
      report(
        ctx,
        'import-approximated',
        { item: `the requirement ${names.join(' + ')}`, as: 'alternatives', reason: 'a request can only be required to carry one credential' },
        joinPointer(pointer, i),
      );
    }
    for (const n of names) {
      if (ctx.droppedSchemes.has(n)) continue;
      // A requirement naming a scheme the document never declares (readme's response-http-behavior: `api_key: []` and
      // no securitySchemes) says nothing a request could carry: left out, and said where it is named.
      const declared = isObject(ctx.doc.components) && isObject(ctx.doc.components.securitySchemes) ? ctx.doc.components.securitySchemes : {};
      if (!Object.hasOwn(declared, n)) {
        report(
          ctx,
          'import-dropped',
          { item: `the security requirement's scheme \`${n}\``, reason: 'no security scheme of that name is declared (components.securitySchemes)' },
          joinPointer(joinPointer(pointer, i), n),
        );
        continue;
      }
      if (!schemes.includes(n)) schemes.push(n);
      const sc = alt[n];
      if (Array.isArray(sc)) for (const s of sc) if (!scopes.includes(String(s))) scopes.push(String(s));
      asked.push(`${n}: ${Array.isArray(sc) && sc.length > 0 ? sc.map(String).sort().join(', ') : 'no scopes'}`);
    }
  });
  // One scope list holds for every scheme of a requirement: alternatives asking different scopes (OAuth2 with
  // content:read, or an API key with none) now all ask the union of them.
  if (new Set(asked.map((a) => a.slice(a.indexOf(': ') + 2))).size > 1 && scopes.length > 0)
    report(
      ctx,
      'import-approximated',
      {
        item: `the requirement with alternatives (${asked.join('; ')})`,
        as: `one requirement asking ${scopes.join(', ')} of a credential of any of its schemes`,
        reason: "a requirement's scopes are one list for all its schemes: a credential of a scheme that asked fewer must now carry them",
      },
      pointer,
    );
  if (optional) {
    report(
      ctx,
      'import-approximated',
      { item: 'an empty security requirement (credential optional)', as: 'a required credential', reason: 'the format has no optional credentials' },
      pointer,
    );
    if (schemes.length === 0) return 'none';
  }
  const required = ext<unknown[]>(holder, 'x-servicespec-required-scopes');
  const finalScopes = Array.isArray(required) ? required.map(String) : scopes;
  // A plain OpenAPI document declares scopes where it uses them; a servicespec export lists them in x-servicespec-scopes.
  if (!ctx.scopesDeclared && !ctx.fromServicespec) for (const s of finalScopes) if (!ctx.scopesSeen.has(s)) ctx.scopesSeen.set(s, '');
  if (schemes.length === 0) return undefined;
  return { schemes, scopes: finalScopes };
}

function importAuthentication(ctx: Ctx): AuthenticationSpec {
  const raw = isObject(ctx.doc.components) && isObject(ctx.doc.components.securitySchemes) ? ctx.doc.components.securitySchemes : {};
  const schemes: Record<string, SchemeSpec> = {};
  for (const [name, s] of Object.entries(raw)) {
    const sc = importScheme(ctx, name, s, joinPointer('/components/securitySchemes', name));
    if (sc) schemes[name] = sc;
  }
  // A key sent in the Authorization header beside a scheme whose credential travels there (Rebilly's publishable key
  // beside its JWT): the service cannot tell which a request sent, so the key's scheme is left out, and said.
  const inAuthorization = Object.entries(schemes).find(([, sc]) => sc.type === 'bearer' || sc.type === 'basic' || sc.type === 'oauth2_client_credentials');
  if (inAuthorization !== undefined)
    for (const [name, sc] of Object.entries(schemes)) {
      if (sc.type !== 'api_key' || sc.in !== 'header' || sc.name?.toLowerCase() !== 'authorization') continue;
      report(
        ctx,
        'import-dropped',
        {
          item: `security scheme ${name}`,
          reason: `its key travels in the Authorization header, as scheme ${inAuthorization[0]}'s credential does: a request's Authorization header cannot be read as both`,
        },
        joinPointer('/components/securitySchemes', name),
      );
      ctx.droppedSchemes.add(name);
      delete schemes[name];
    }
  const def = requirement(ctx, ctx.doc.security, ctx.doc, '/security');
  const declared = ext<Json>(ctx.doc, 'x-servicespec-scopes');
  // Scopes used by operations are collected as the operations are read: the caller fills them in afterwards.
  const out: AuthenticationSpec = {};
  if (Object.keys(schemes).length > 0) out.schemes = schemes;
  if (def !== undefined) out.default = def;
  if (isObject(declared)) {
    ctx.scopesSeen.clear();
    for (const [k, v] of Object.entries(declared)) ctx.scopesSeen.set(k, String(v));
    ctx.scopesDeclared = true;
  }
  return out;
}

// ---- endpoints ----------------------------------------------------------------------------------------------

function mediaSchema(content: unknown, stated?: string): { mediaType: string; schema: unknown } | undefined {
  if (!isObject(content)) return undefined;
  const types = Object.keys(content);
  // The type a servicespec export states (x-servicespec-operation.request_media_type) first; then JSON, then a JSON merge patch (the one patch type an update can read), then any other JSON type.
  const pick =
    (stated !== undefined ? types.find((t) => t === stated) : undefined) ??
    types.find((t) => t === 'application/json') ??
    types.find((t) => t.toLowerCase() === MERGE_PATCH_MEDIA_TYPE) ??
    types.find((t) => /[/+]json\b/i.test(t)) ??
    types.find((t) => t === '*/*' || t === 'application/*');
  if (pick === undefined) return undefined;
  const m = content[pick];
  return isObject(m) ? { mediaType: pick, schema: m.schema } : undefined;
}

interface OpSource {
  id: string;
  method: HttpMethod;
  path: string;
  rawPath: string;
  pointer: string;
  op: Json;
  params: { p: Json; pointer: string }[];
}

/** The status a success answered by a `2XX` range stands for while the action is read (the spec keeps the range). */
const SUCCESS_RANGE_STATUS = 200;

function successOf(ctx: Ctx, src: OpSource): { status?: number; range?: '2XX'; key?: string; schema?: unknown; pointer?: string; hasContent: boolean } {
  const all = isObject(src.op.responses) ? src.op.responses : {};
  // Answers that are declared error codes (the exporter marks them) are not the success answer, whatever their status.
  const responses = Object.fromEntries(
    Object.entries(all).filter(([, r]) => !isObject(resolve(ctx, r, '').node) || (resolve(ctx, r, '').node as Json)['x-servicespec-codes'] === undefined),
  );
  // The success answer: the 2xx one, else (a spec may declare any success status) the first below 400.
  let key =
    Object.keys(responses)
      .filter((k) => /^2\d\d$/.test(k))
      .sort()[0] ??
    Object.keys(responses)
      .filter((k) => /^[13]\d\d$/.test(k))
      .sort()[0] ??
    // A `2XX` range alone (ably's every operation): the spec keeps the range (`status: 2XX`, docs/format.md).
    Object.keys(responses).find((k) => k.toUpperCase() === '2XX');
  if (key === undefined) return { hasContent: false };
  // A PUT answering 201 for a new id and 200 (or 204) for an existing one: the replace's status is the latter, the 201
  // its upsert (decided once the action is known).
  const upsert = src.method === 'PUT' && responses['201'] !== undefined ? (['200', '204'] as const).find((k) => responses[k] !== undefined) : undefined;
  if (upsert !== undefined) {
    key = upsert;
    (ctx.upsertPuts ??= new Map()).set(src.id, joinPointer(joinPointer(src.pointer, 'responses'), '201'));
  }
  const range: '2XX' | undefined = /^\d+$/.test(key) ? undefined : '2XX';
  const status = range === undefined ? Number(key) : SUCCESS_RANGE_STATUS;
  if (src.op['x-servicespec-operation'] === undefined) {
    // A GET's 304 is If-None-Match answered: a read's of a resource with etag (decided once the action is known).
    if (src.method === 'GET' && key !== '304' && responses['304'] !== undefined)
      (ctx.notModified ??= new Map()).set(src.id, joinPointer(joinPointer(src.pointer, 'responses'), '304'));
    for (const other of Object.keys(responses).filter(
      (k) => k !== key && !(upsert !== undefined && k === '201') && !(k === '304' && ctx.notModified?.has(src.id)) && /^[123](\d\d|XX)$/i.test(k),
    )) {
      report(
        ctx,
        'import-dropped',
        { item: `operation ${src.id}: the ${other} response`, reason: `an operation has one success status (${key} is kept)` },
        joinPointer(joinPointer(src.pointer, 'responses'), other),
      );
    }
  }
  const pointer = joinPointer(joinPointer(src.pointer, 'responses'), key);
  const r = resolve(ctx, responses[key], pointer);
  const content = isObject(r.node) ? r.node.content : undefined;
  const m = mediaSchema(content);
  const hasContent = isObject(content) && Object.keys(content).length > 0;
  if (m && !ctx.fromSwagger2)
    sayOtherMediaTypes(
      ctx,
      content,
      m.mediaType,
      r.pointer,
      `operation ${src.id}: the ${key} response`,
      'an answer has one media type, whatever the request accepts',
    );
  if (hasContent && !m)
    report(
      ctx,
      'import-dropped',
      { item: `operation ${src.id}: the ${key} response body (${Object.keys(content).join(', ')})`, reason: 'only JSON bodies are part of the format' },
      pointer,
    );
  const ranged = range === undefined ? {} : { range };
  return m
    ? { status, ...ranged, key, schema: m.schema, pointer: joinPointer(joinPointer(joinPointer(r.pointer, 'content'), m.mediaType), 'schema'), hasContent }
    : { status, ...ranged, key, hasContent };
}

/**
 * A body's media types besides the one kept (the format has one a body): said once, at the first one left out. A
 * request's other JSON types beside `application/json` are read as it (the runtime takes any JSON type there), so
 * they are said as read so, not as left out.
 */
function sayOtherMediaTypes(ctx: Ctx, content: unknown, kept: string, pointer: string, item: string, effect: string, request = false): void {
  const others = isObject(content) ? Object.keys(content).filter((t) => t !== kept) : [];
  const at = (t: string) => joinPointer(joinPointer(pointer.startsWith('#') ? pointer.slice(1) : pointer, 'content'), t);
  const readAsJson = request && kept === 'application/json' ? others.filter((t) => JSON_MEDIA_TYPE.test(t)) : [];
  const dropped = others.filter((t) => !readAsJson.includes(t));
  if (readAsJson.length > 0)
    report(
      ctx,
      'import-approximated',
      {
        item: `${item} as ${readAsJson.join(', ')}`,
        as: `a body read as ${kept}`,
        reason: `the service reads any JSON media type by ${kept}'s schema, with no meaning of its own`,
      },
      at(readAsJson[0]!),
    );
  if (dropped.length > 0)
    report(
      ctx,
      'import-dropped',
      { item: `${item} as ${dropped.join(', ')}`, reason: `a body has one media type in the format (${kept} is kept): ${effect}` },
      at(dropped[0]!),
    );
}

/** A JSON media type, as the runtime's body parser takes one (`application/json`, `application/…+json`). */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json(;|$)/i;

function requestOf(
  ctx: Ctx,
  src: OpSource,
  forms = false,
):
  | { schema: unknown; pointer: string; form?: true; mediaType?: string; optional?: true; wrap?: { data: string; schema: unknown; pointer: string } }
  | undefined {
  if (src.op.requestBody === undefined) return undefined;
  const pointer = joinPointer(src.pointer, 'requestBody');
  // A GET's body (meshery's `GET /api/perf/profile` taking its test configuration): HTTP gives it no meaning, OpenAPI
  // 3.0 does not support it, and a client cannot send one (fetch refuses), so no request could be served as written.
  if (forms && src.method === 'GET') {
    report(
      ctx,
      'import-dropped',
      { item: `operation ${src.id}: the request body of a GET`, reason: 'a GET has no body in HTTP (RFC 9110), and clients such as fetch cannot send one' },
      pointer,
    );
    return undefined;
  }
  const r = resolve(ctx, src.op.requestBody, pointer);
  if (!isObject(r.node)) return undefined;
  const m = mediaSchema(r.node.content, statedRequestMediaType(src.op));
  // A form (and no JSON) is a custom operation's form request (request.media_type), where the caller takes one.
  const form = forms && !m && isObject(r.node.content) && isObject(r.node.content[FORM_MEDIA_TYPE]) ? r.node.content[FORM_MEDIA_TYPE] : undefined;
  if (form)
    return {
      schema: form.schema,
      pointer: joinPointer(joinPointer(joinPointer(r.pointer, 'content'), FORM_MEDIA_TYPE), 'schema'),
      form: true,
      ...(r.node.required !== true ? { optional: true as const } : {}),
    };
  if (!m) {
    const types = isObject(r.node.content) ? Object.keys(r.node.content).join(', ') : 'none';
    report(ctx, 'import-dropped', { item: `operation ${src.id}: the request body (${types})`, reason: 'only JSON bodies are part of the format' }, pointer);
    return undefined;
  }
  sayOtherMediaTypes(
    ctx,
    r.node.content,
    m.mediaType,
    r.pointer,
    `operation ${src.id}: the request body`,
    'a request in another is refused (unsupported_media_type)',
    true,
  );
  const schemaPointer = joinPointer(joinPointer(joinPointer(r.pointer, 'content'), m.mediaType), 'schema');
  // OpenAPI's request body is optional unless it says `required: true`.
  const body = { schema: m.schema, pointer: schemaPointer, mediaType: m.mediaType, ...(r.node.required !== true ? { optional: true as const } : {}) };
  // An operation's own body (forms: the operation loop's call) may be wrapped; a callback's or webhook's is read whole.
  const wrap = forms ? requestWrapperOf(ctx, src.op, m.schema, schemaPointer) : undefined;
  return wrap ? { ...body, schema: wrap.schema, pointer: wrap.pointer, wrap: { data: wrap.data, schema: m.schema, pointer: schemaPointer } } : body;
}

/** The resource a request wrapper's component schema was read as (`$ref: ProductEnvelope`), if it is one. */
function wrapperResource(ctx: Ctx, schema: unknown, pointer: string): string | undefined {
  const ref = flatten(ctx, schema, pointer).refs[0];
  return ref === undefined ? undefined : ctx.resources.get(ref);
}

/**
 * A Rails-style request wrapper (docs/import.md, "Request envelopes"): a body that is an object with one member,
 * required, holding a named object schema (`{ product: Product }`), or the member a servicespec export names
 * (x-servicespec-operation.request_envelope). The body read is the member's; the operation keeps the wrapper as its
 * `request_envelope` where it is a resource action taking a body, else its request is the whole body again.
 */
function requestWrapperOf(ctx: Ctx, op: Json, schema: unknown, pointer: string): { data: string; schema: unknown; pointer: string } | undefined {
  const x = ext<Json>(op, 'x-servicespec-operation');
  const stated = x && isObject(x.request_envelope) && typeof x.request_envelope.data === 'string' ? x.request_envelope.data : undefined;
  if (x && stated === undefined) return undefined;
  const flat = flatten(ctx, schema, pointer);
  const s = flat.schema;
  if (!s || !isObject(s.properties)) return undefined;
  const names = Object.keys(s.properties);
  const data = names[0];
  if (names.length !== 1 || data === undefined || (stated !== undefined && stated !== data)) return undefined;
  const at = joinPointer(joinPointer(flat.pointer, 'properties'), data);
  if (stated !== undefined) return { data, schema: s.properties[data], pointer: at };
  if (!Array.isArray(s.required) || !s.required.includes(data) || s.additionalProperties === true || isObject(s.additionalProperties)) return undefined;
  // A named object: a resource, or a view of one (ProductUpdate); an inline object is a body's own field.
  const inner = flatten(ctx, s.properties[data], at);
  if (inner.refs.length === 0 || !inner.schema || !isObject(inner.schema.properties) || inner.schema.type === 'array') return undefined;
  return { data, schema: s.properties[data], pointer: at };
}

/** The request body's media type a servicespec export states (even one check refuses): the content read. */
function statedRequestMediaType(op: Json): string | undefined {
  const x = ext<Json>(op, 'x-servicespec-operation');
  return x && typeof x.request_media_type === 'string' ? x.request_media_type : undefined;
}

/**
 * The `request_media_type` of a create, update or replace whose request body is not application/json: the JSON type
 * its document names (an update's JSON merge patch among others, as Kubernetes lists it). JSON Patch (RFC 6902, a
 * list of operations) is no body of the format's, nor a merge patch a create's or replace's.
 */
function requestMediaTypeOf(action: Action, mediaType: string | undefined): string | undefined {
  const type = mediaType?.toLowerCase();
  if (type === undefined || type === 'application/json' || !/^application\/[a-z0-9][a-z0-9.-]*\+json$/.test(type)) return undefined;
  if (action !== 'create' && action !== 'update' && action !== 'replace' && action !== 'custom') return undefined;
  if (type === 'application/json-patch+json' || (type === MERGE_PATCH_MEDIA_TYPE && action !== 'update' && action !== 'custom')) return undefined;
  return type;
}

/** A schema and, where it is an `allOf`, each of its parts, resolved. */
function objectParts(ctx: Ctx, schema: unknown, pointer: string): { node: unknown; pointer: string }[] {
  const top = resolve(ctx, schema, pointer);
  const parts = [top];
  if (isObject(top.node) && Array.isArray(top.node.allOf))
    top.node.allOf.forEach((p, i) => parts.push(resolve(ctx, p, joinPointer(joinPointer(top.pointer, 'allOf'), i))));
  return parts;
}

/** Whether an object schema (or a part of its `allOf`) refuses the members it does not name. */
function isClosedObject(parts: readonly { node: unknown }[]): boolean {
  return parts.some((p) => isObject(p.node) && (p.node.additionalProperties === false || p.node.unevaluatedProperties === false));
}

/**
 * A resource action's request schema read for `unknown_fields`: `refuse` where it (or a part of its `allOf`) says
 * `additionalProperties: false` or `unevaluatedProperties: false`, `ignore` where it leaves the object open (JSON
 * Schema's default: a member it does not name is valid, and the service keeps what it knows). Extra members given a
 * schema of their own (a map) are accepted and dropped, whatever they hold: said.
 */
function unknownFieldsOf(ctx: Ctx, id: string, schema: unknown, pointer: string): 'refuse' | 'ignore' {
  const parts = objectParts(ctx, schema, pointer);
  if (isClosedObject(parts)) return 'refuse';
  const typed = parts.find((p) => isObject(p.node) && isObject(p.node.additionalProperties) && Object.keys(p.node.additionalProperties).length > 0);
  if (typed)
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${id}: the request's additionalProperties`,
        as: 'unknown_fields: ignore',
        reason: 'a member the request does not name is accepted and dropped, whatever its value (the document gives such members a schema)',
      },
      joinPointer(typed.pointer.replace(/^#/, ''), 'additionalProperties'),
    );
  return 'ignore';
}

/**
 * A form request body as the format's form request: written-out fields (a component's, for a `$ref`) a form can carry
 * as text; a field it cannot (an object, a list of objects) is left out, each said. Undefined when none is left.
 */
function formRequest(ctx: Ctx, id: string, shape: ShapeSpec, pointer: string): ShapeSpec | undefined {
  const fields = shape.fields ?? (shape.resource !== undefined && !shape.list ? ctx.resourceFields.get(shape.resource) : undefined);
  if (!fields || shape.variants !== undefined || shape.list) {
    report(ctx, 'import-dropped', { item: `operation ${id}: the form request body`, reason: 'a form is written-out fields, not a list or a union' }, pointer);
    return undefined;
  }
  const kept: Record<string, FieldSpec> = {};
  for (const [name, f] of Object.entries(fields)) {
    const scalar = (t: FieldSpec | undefined) => t !== undefined && !['object', 'json', 'union', 'ref', 'state', 'array'].includes(t.type);
    if (scalar(f) || (f.type === 'array' && scalar(f.items))) kept[name] = f;
    else
      report(
        ctx,
        'import-dropped',
        { item: `operation ${id}: form field \`${name}\``, reason: `a form cannot carry a ${f.type} as text` },
        joinPointer(joinPointer(pointer, 'properties'), name),
      );
  }
  return Object.keys(kept).length > 0 ? { media_type: FORM_MEDIA_TYPE, fields: kept } : undefined;
}

/** Named examples of a media type or parameter (`examples`), each resolved; an `externalValue` one is left out, said. */
function namedExamplesOf(ctx: Ctx, node: unknown, pointer: string): Json | undefined {
  if (!isObject(node) || !isObject(node.examples)) return undefined;
  const out: Json = {};
  for (const [name, raw] of Object.entries(node.examples)) {
    const at = joinPointer(joinPointer(pointer, 'examples'), name);
    const e = resolve(ctx, raw, at).node;
    if (!isObject(e)) continue;
    if (isObject(node)) ctx.examplesKept.add(node);
    if (!('value' in e)) {
      report(
        ctx,
        'import-dropped',
        { item: `the example \`${name}\``, reason: 'an example held outside the document (externalValue) is not part of the format' },
        at,
      );
      continue;
    }
    const x: Json = {};
    if (typeof e.summary === 'string') x.summary = e.summary;
    if (typeof e.description === 'string') x.description = e.description;
    x.value = e.value;
    out[name] = x;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * An operation's named examples: its request body's (the JSON one, or the form a custom operation's request is read
 * from: `requestMediaType`), its success answer's, and each parameter's.
 */
function examplesOf(ctx: Ctx, src: OpSource, status: string | undefined, requestMediaType?: string): Json | undefined {
  const out: Json = {};
  const mediaOf = (holder: unknown, pointer: string, stated?: string): { node: unknown; pointer: string } | undefined => {
    const r = resolve(ctx, holder, pointer);
    const content = isObject(r.node) ? r.node.content : undefined;
    const m = mediaSchema(content, stated);
    return m && isObject(content) ? { node: content[m.mediaType], pointer: joinPointer(joinPointer(r.pointer, 'content'), m.mediaType) } : undefined;
  };
  if (src.op.requestBody !== undefined) {
    const m = mediaOf(src.op.requestBody, joinPointer(src.pointer, 'requestBody'), requestMediaType ?? statedRequestMediaType(src.op));
    const e = m && namedExamplesOf(ctx, m.node, m.pointer);
    if (e) out.request = e;
  }
  const responses = isObject(src.op.responses) ? src.op.responses : {};
  if (status !== undefined && responses[status] !== undefined) {
    const m = mediaOf(responses[status], joinPointer(joinPointer(src.pointer, 'responses'), status));
    const e = m && namedExamplesOf(ctx, m.node, m.pointer);
    if (e) out.response = e;
  }
  const params: Json = {};
  for (const { p, pointer } of src.params) {
    const e = typeof p.name === 'string' ? namedExamplesOf(ctx, p, pointer) : undefined;
    if (e) params[p.name as string] = e;
  }
  if (Object.keys(params).length > 0) out.parameters = params;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Declared error responses: one error code per status (or per referenced response component). */
function errorsOf(ctx: Ctx, src: OpSource): string[] {
  const responses = isObject(src.op.responses) ? src.op.responses : {};
  const codes: string[] = [];
  for (const [key, raw] of Object.entries(responses)) {
    const pointer = joinPointer(joinPointer(src.pointer, 'responses'), key);
    const r = resolve(ctx, raw, pointer);
    const node = isObject(r.node) ? r.node : {};
    const body = mediaSchema(node.content);
    const problem = isObject(node.content) && Object.keys(node.content).some((t) => t === 'application/problem+json');
    // An error answer's headers (docs/import.md, "Headers of error answers"), read once per code.
    const headersOf = () =>
      isObject(node.headers) && Object.keys(node.headers).length > 0
        ? importErrorHeaders(ctx, {
            label: `operation ${src.id}: the ${key} response`,
            headers: node.headers,
            pointer: joinPointer(r.pointer.startsWith('#') ? r.pointer.slice(1) : r.pointer, 'headers'),
            toParameter: (use) => parameterFromOpenApi(ctx, src, use),
          })
        : undefined;
    if (key === 'default') {
      // Any other error: its body is the error body the spec keeps, and the export writes `default` on every
      // operation (the service can answer any route with an error no status lists), so nothing is lost. Its headers
      // are every error answer's (the first `default` declaring any is read).
      if (body) ctx.errorBodies.push({ mediaType: problem ? 'application/problem+json' : body.mediaType, schema: body.schema, pointer });
      if (ctx.errorHeaders === undefined) ctx.errorHeaders = headersOf();
      continue;
    }
    // A range (`4XX`, `5XX`) is an error code of that range (docs/format.md, "Status ranges").
    const range = /^[45]XX$/i.test(key) ? (key.toUpperCase() as ErrorStatusRange) : undefined;
    if (range === undefined && !/^[45]\d\d$/.test(key)) continue;
    const status = range ?? Number(key);
    if (body) ctx.errorBodies.push({ mediaType: problem ? 'application/problem+json' : body.mediaType, schema: body.schema, pointer });
    const listed = node['x-servicespec-codes'];
    if (Array.isArray(listed)) {
      for (const c of listed) codes.push(String(c));
      continue;
    }
    const component = r.chain.slice(1).find((p) => p.startsWith('#/components/responses/'));
    // Inline responses share a code only when they say the same (status and description): each keeps its own words.
    // A shared response is one code per status it is used at (an `Error` under 404 and 422 is two codes).
    const key2 = component ? `${component} ${status}` : `status ${status} ${str(node.description) ?? ''}`;
    let entry = ctx.errorCodes.get(key2);
    if (!entry) {
      const componentName = component?.slice('#/components/responses/'.length);
      const atOtherStatus = component !== undefined && [...ctx.errorCodes.keys()].some((k) => k.startsWith(`${component} `));
      const statusName =
        (typeof status === 'number' ? STATUS_CODES[status] : undefined) ?? (status === '4XX' ? 'client error' : status === '5XX' ? 'server error' : undefined);
      const base =
        componentName === undefined
          ? toErrorCodeName(statusName ?? `error ${status}`)
          : toErrorCodeName(atOtherStatus ? `${componentName} ${statusName ?? status}` : componentName);
      const title = str(node.description);
      entry = {
        name: ctx.errorNames.take(base),
        status,
        ...(title !== undefined && title !== '' ? { title } : {}),
        operations: [],
        inline: component === undefined,
        pointer,
      };
      const headers = headersOf();
      if (headers) entry.headers = headers;
      ctx.errorCodes.set(key2, entry);
    }
    if (!entry.operations.includes(src.id)) entry.operations.push(src.id);
    if (!codes.includes(entry.name)) codes.push(entry.name);
  }
  return codes;
}

/**
 * A path whose parameters the format can hold: each name that is not a plain one (`{intent-id}`, `{a.b}`) becomes one
 * (`{intent_id}`), said with import-renamed at the path. Only the name changes: the URL a client sends is the same.
 */
function plainPathParams(ctx: Ctx, path: string, pointer: string): { path: string; names: Map<string, string> } {
  const names = new Map<string, string>();
  // A servicespec export's paths are the spec's own, kept as written (check says what is wrong with one).
  if (ctx.fromServicespec === true) return { path, names };
  const taken = new Set(Array.from(path.matchAll(/\{([^{}]*)\}/g), (m) => m[1]!));
  for (const name of taken) {
    if (name === '' || /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    const base =
      toFieldName(name)
        .replace(/[^A-Za-z0-9_]/g, '_')
        .replace(/^(?=[0-9])/, '_') || '_';
    let plain = base;
    for (let i = 2; taken.has(plain) || [...names.values()].includes(plain); i++) plain = `${base}_${i}`;
    names.set(name, plain);
    report(
      ctx,
      'import-renamed',
      { what: 'path parameter', from: name, to: plain, reason: 'a path parameter is a plain name (letters, digits and underscores); the URL is the same' },
      pointer,
    );
  }
  let out = path;
  for (const [from, to] of names) out = out.split(`{${from}}`).join(`{${to}}`);
  return { path: out, names };
}

function paramsOf(ctx: Ctx, item: Json, op: Json, pointer: string, itemPointer: string): { p: Json; pointer: string }[] {
  const out = new Map<string, { p: Json; pointer: string }>();
  const add = (list: unknown, base: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      const r = resolve(ctx, raw, joinPointer(joinPointer(base, 'parameters'), i));
      if (isObject(r.node))
        out.set(`${String(r.node.in)} ${String(r.node.name)}`, { p: r.node, pointer: r.pointer.startsWith('#') ? r.pointer.slice(1) : r.pointer });
    });
  };
  add(item.parameters, itemPointer);
  add(op.parameters, pointer);
  return [...out.values()];
}

function fieldsOf(shape: ShapeSpec | undefined, ctx: Ctx): Record<string, FieldSpec> | undefined {
  if (!shape) return undefined;
  if (shape.resource !== undefined) return ctx.resourceFields.get(shape.resource);
  return shape.fields;
}

/** A list-shaped answer: the resource listed and how it pages, or why a list-looking answer is not one. */
interface PageShape {
  resource?: string;
  paging?: PagingSpec;
  /** The paging parameters the operation reads (limit, cursor, offset, page, per_page, or their other names), by name. */
  params?: readonly string[];
  /** The page size parameter's name (its default and maximum are limits.page_size). */
  size?: string | undefined;
  reason?: string;
  /** The page's next cursor is left out of the last page (optional, not nullable): `paging.next_optional`. */
  nextOptional?: true;
  /** Its items are a summary of the resource (import-answer-fields.ts): `answer_fields`, and what was read approximately. */
  summary?: { fields: string[]; approximated: { name: string; pointer: string }[] };
}

const PAGING_NAMES: readonly string[] = [LIST_PARAMS.limit, LIST_PARAMS.cursor, LIST_PARAMS.offset, LIST_PARAMS.page, LIST_PARAMS.perPage];

/** The names each paging role goes by in APIs, the format's first (docs/import.md, "Lists"): the first one taken wins. */
const PAGING_ALIASES: Readonly<Record<PagingRole, readonly string[]>> = {
  // JSON:API's page[…] family too (its recommended names: page[number] and page[size], page[offset] and page[limit]),
  // and Strapi's pagination[…] (pagination[page] and pagination[pageSize], pagination[start] and pagination[limit]).
  cursor: [LIST_PARAMS.cursor, 'continue', 'page_token', 'pageToken', 'starting_after', 'next_token', 'nextToken', 'page_info', 'page[cursor]'],
  offset: [LIST_PARAMS.offset, 'skip', 'page[offset]', 'pagination[start]'],
  page: [LIST_PARAMS.page, 'page_number', 'pageNumber', 'page[number]', 'pagination[page]'],
  limit: [
    LIST_PARAMS.limit,
    LIST_PARAMS.perPage,
    'page_size',
    'pageSize',
    'perPage',
    'max_results',
    'maxResults',
    'page[size]',
    'page[limit]',
    'pagination[pageSize]',
    'pagination[limit]',
  ],
};

/** Boolean page fields that say whether objects follow the page (paging.has_more). */
const HAS_MORE_NAMES: ReadonlySet<string> = new Set(['has_more', 'hasMore', 'has_next', 'hasNext', 'more']);

/** A page's fields holding the next page's address (Django REST Framework's `next`: paging.next_link). */
const NEXT_LINK_FIELDS: ReadonlySet<string> = new Set(NEXT_LINK_NAMES);

/** A page's fields holding the previous page's address (Django REST Framework's `previous`: paging.previous_link). */
const PREVIOUS_LINK_FIELDS: ReadonlySet<string> = new Set(PREVIOUS_LINK_NAMES);

/** Whether a string schema holds a whole address: `format: uri` (or uri-reference), or an example that is one. */
function isAddressSchema(f: Json): boolean {
  if (f.format === 'uri' || f.format === 'uri-reference' || f.format === 'url') return true;
  const example = Array.isArray(f.examples) ? f.examples[0] : f.example;
  return typeof example === 'string' && /^https?:\/\//.test(example);
}

/** A page object's descriptive members by their plain names (import-page-names.ts), integers and booleans apart. */
const PAGE_MEMBER_NAMES: { integer: ReadonlyMap<string, PageMemberRole>; boolean: ReadonlyMap<string, PageMemberRole> } = {
  integer: byPlainName(PAGE_OBJECT_MEMBER_NAMES.integer),
  boolean: byPlainName(PAGE_OBJECT_MEMBER_NAMES.boolean),
};

function byPlainName(names: Readonly<Partial<Record<PageMemberRole, readonly string[]>>>): ReadonlyMap<string, PageMemberRole> {
  return new Map(Object.entries(names).flatMap(([role, list]) => list.map((n): [string, PageMemberRole] => [toPlainName(n), role as PageMemberRole])));
}

/** A page object's total by its plain name, beside its members: Spring's `totalElements`. */
const PAGE_TOTAL_NAMES: ReadonlySet<string> = new Set(PAGE_OBJECT_TOTAL_NAMES.map(toPlainName));

/** The member role a page field's name and type say it holds (paging.members), or undefined. */
function pageMemberRoleOf(name: string, f: Json): PageMemberRole | undefined {
  const types = Array.isArray(f.type) ? f.type.map(String) : [String(f.type)];
  const key = toPlainName(name);
  if (types.includes('integer')) return PAGE_MEMBER_NAMES.integer.get(key);
  if (types.includes('boolean')) return PAGE_MEMBER_NAMES.boolean.get(key);
  return undefined;
}

/** Page size names that, with no cursor or offset, say the list pages by page number (as `per_page` does). */
const PAGE_SIZE_PARAMS: ReadonlySet<string> = new Set([...PAGE_SIZE_NAMES, 'page[size]', 'pagination[pageSize]']);

/** The `maximum` of a GET's page size query parameter (`limit`, `per_page`, …), when it states one. */
function pageSizeMaximum(ctx: Ctx, src: OpSource): number | undefined {
  if (src.method !== 'GET') return undefined;
  for (const { p, pointer } of src.params) {
    if (p.in !== 'query' || (p.name !== LIST_PARAMS.limit && !PAGE_SIZE_PARAMS.has(String(p.name)))) continue;
    const max = flatten(ctx, p.schema, joinPointer(pointer, 'schema')).schema?.maximum;
    if (typeof max === 'number') return max;
  }
  return undefined;
}

/**
 * A GET on a collection answering a list of one resource — a bare array, or an object holding the array (with a
 * next cursor and a total at most) — is a list; its paging style is read from its query parameters and a `Link`
 * response header (docs/import.md, "Lists").
 */
function pageOf(ctx: Ctx, src: OpSource, success: ReturnType<typeof successOf>, response: ShapeSpec | undefined): PageShape {
  // Read once per operation: reading the items' shape reports what it cannot keep, which must be said once.
  let page = pages.get(src);
  if (page === undefined) {
    page = readPage(ctx, src, success, response);
    pages.set(src, page);
  }
  return page;
}

const pages = new WeakMap<OpSource, PageShape>();

/** What a document may say of an idempotency key's value, which the format's key does not (any text). */
const KEY_CONSTRAINTS = ['minLength', 'maxLength', 'pattern', 'format', 'enum'] as const;

/** Operations read as an envelope that carries a next cursor: their bare array paged by cursor needs no Link header. */
const nextInEnvelope = new WeakSet<OpSource>();

function readPage(ctx: Ctx, src: OpSource, success: ReturnType<typeof successOf>, response: ShapeSpec | undefined): PageShape {
  if (success.schema === undefined || success.status === undefined) return {};
  const pointer = success.pointer ?? src.pointer;
  const flat = flatten(ctx, success.schema, pointer);
  let resource: string | undefined;
  let items: string | undefined;
  let next: string | undefined;
  let total: string | undefined;
  let hasMore: string | undefined;
  let constants: Record<string, string> | undefined;
  let url: string | undefined;
  let nextLink: string | undefined;
  let previousLink: string | undefined;
  // A page object (Spring's Page, Laravel's paginator): its members by role, and the fields the format does not
  // carry (Spring's sort and pageable.paged, Laravel's path and first_page_url), said only when the page is read.
  const members: { role: PageMemberRole; path: string[]; maximum?: unknown }[] = [];
  const dropped: { item: string; pointer: string }[] = [];
  // Members of an object page that no paging key carries: the list is then custom, and they are named.
  const unread: { name: string; pointer: string }[] = [];
  // Page members and totals the document does not promise on every page (not in its `required`: fastapi-pagination's
  // `pages`), left out; and those it lets be null (pydantic's Optional[int]), kept as counts never null. Said only when
  // the page is read.
  const unpromised: { item: string; pointer: string }[] = [];
  const nullable: { item: string; pointer: string }[] = [];
  // Whether the document leaves the next cursor out of the last page (optional, not nullable).
  let nextOptional = false;
  // Items that are a summary of the resource (answer_fields).
  let summary: PageShape['summary'];
  if (flat.schema?.type === 'array' || (Array.isArray(flat.schema?.type) && flat.schema.type.includes('array'))) {
    // The answer's shape, read already (a bare array of one resource, or of a summary of one: import-answer-fields.ts).
    const itemsOf = response?.list && response.resource === undefined && response.fields !== undefined ? flat.schema!.items : undefined;
    const read = itemsOf !== undefined ? readSummary(ctx, response!.fields!, itemsOf, joinPointer(flat.pointer, 'items')) : undefined;
    if (read !== undefined && 'reason' in read) return { reason: read.reason };
    if (read !== undefined) [resource, summary] = [read.resource, read.fields && { fields: read.fields, approximated: read.approximated }];
    else if (!response?.list || response.resource === undefined) return {};
    else {
      resource = response.resource;
      // A servicespec export's list item component (ArticleListItem): its answer_fields.
      const exported = exportedSummary(ctx, flat.schema!.items, joinPointer(flat.pointer, 'items'));
      if (exported !== undefined) summary = { fields: exported, approximated: [] };
    }
  } else {
    const props = flat.schema && isObject(flat.schema.properties) ? flat.schema.properties : undefined;
    if (!props) return {};
    // A page object holds two members at least (by name and type, docs/import.md): its other fields are read as
    // such a page's (its total by name; what the format does not carry left out), not as a next cursor.
    // A member `anyOf: [X, {type: null}]` (pydantic v2's Optional[int], fastapi-pagination's `total`, `pages`) is X
    // whose types take null too, as a nullable X is.
    const fieldOf = (node: unknown, p: string): Json => {
      const flat = flatten(ctx, node, p).schema ?? {};
      const unwrapped = unwrapNull(ctx, flat, p);
      if (!unwrapped.nullable) return flat;
      const t = unwrapped.schema.type;
      return { ...unwrapped.schema, type: [...(Array.isArray(t) ? t.map(String) : t === undefined ? [] : [String(t)]), 'null'] };
    };
    // A count the service may leave out is no page member or total (each is written, and held, on every page): a
    // page (or a nested object) listing what it requires and leaving the count out says so; one listing nothing
    // (springdoc's Page, many written by hand) says nothing of any member, and its counts are read as before.
    const promised = (obj: Json | undefined, name: string) => !Array.isArray(obj?.required) || (obj.required as unknown[]).includes(name);
    const takeCount = (item: string, p: string, f: Json, always: boolean, role?: PageMemberRole): boolean => {
      if (!always) {
        unpromised.push({ item, pointer: p });
        return false;
      }
      // `from` and `to` are the format's null on an empty page.
      const nullOk = role === 'from' || role === 'to';
      if (!nullOk && (f.nullable === true || (Array.isArray(f.type) && f.type.includes('null')))) nullable.push({ item, pointer: p });
      return true;
    };
    const pageObject =
      Object.entries(props).filter(
        ([name, node]) => pageMemberRoleOf(name, fieldOf(node, joinPointer(joinPointer(flat.pointer, 'properties'), name))) !== undefined,
      ).length >= 2;
    for (const [name, node] of Object.entries(props)) {
      const p = joinPointer(joinPointer(flat.pointer, 'properties'), name);
      const f = fieldOf(node, p);
      const types = Array.isArray(f.type) ? f.type.map(String) : [String(f.type)];
      const role = pageObject ? pageMemberRoleOf(name, f) : undefined;
      if (types.includes('array') && items === undefined) {
        // Read only to tell which resource is listed: what it cannot keep is said where the resource (or the
        // operation's response) is read, so it is not said again here.
        const said = ctx.diagnostics.length;
        const shape = shapeFromSchema(ctx, node, p, 'page items', 'top');
        ctx.diagnostics.length = said;
        // Items written out that are a summary of one resource (import-answer-fields.ts): its list with answer_fields.
        const arrayAt = flatten(ctx, node, p);
        const read =
          shape?.list && shape.resource === undefined && shape.fields !== undefined && arrayAt.schema !== undefined
            ? readSummary(ctx, shape.fields, arrayAt.schema.items, joinPointer(arrayAt.pointer, 'items'))
            : undefined;
        if (read !== undefined && 'resource' in read) {
          [items, resource] = [name, read.resource];
          if (read.fields !== undefined) summary = { fields: read.fields, approximated: read.approximated };
        } else if (!shape?.list || shape.resource === undefined) {
          if (read !== undefined && !pageObject) return { reason: read.reason };
          if (!pageObject) return {};
          dropped.push({ item: name, pointer: p });
        } else {
          [items, resource] = [name, shape.resource];
          // A servicespec export's list item component (ArticleListItem): its answer_fields.
          const exported = arrayAt.schema !== undefined ? exportedSummary(ctx, arrayAt.schema.items, joinPointer(arrayAt.pointer, 'items')) : undefined;
          if (exported !== undefined) summary = { fields: exported, approximated: [] };
        }
      } else if (role !== undefined) {
        if (takeCount(name, p, f, promised(flat.schema, name), role)) members.push({ role, path: [name], maximum: f.maximum });
      } else if (pageObject && types.includes('integer') && total === undefined && PAGE_TOTAL_NAMES.has(toPlainName(name))) {
        if (takeCount(name, p, f, promised(flat.schema, name))) total = name;
      } else if (pageObject && types.includes('object') && isObject(f.properties)) {
        // Spring's pageable: { pageNumber, pageSize, offset, paged, unpaged, sort }, its members nested.
        const inner: { role: PageMemberRole; path: string[]; maximum?: unknown; at: string; field: Json; always: boolean }[] = [];
        const left: { item: string; pointer: string }[] = [];
        for (const [sub, subNode] of Object.entries(f.properties)) {
          const at = joinPointer(joinPointer(p, 'properties'), sub);
          const subField = fieldOf(subNode, at);
          const subRole = pageMemberRoleOf(sub, subField);
          if (subRole === undefined) left.push({ item: `${name}.${sub}`, pointer: at });
          else
            inner.push({
              role: subRole,
              path: [name, sub],
              maximum: subField.maximum,
              at,
              field: subField,
              always: promised(flat.schema, name) && promised(f, sub),
            });
        }
        // An object holding no page position (Spring's sort: { empty, sorted, unsorted }) is left out whole: its
        // booleans are the order's, not the page's.
        if (!inner.some((m) => isIntegerPageMember(m.role))) dropped.push({ item: name, pointer: p });
        else {
          dropped.push(...left);
          for (const m of inner)
            if (takeCount(m.path.join('.'), m.at, m.field, m.always, m.role)) members.push({ role: m.role, path: m.path, maximum: m.maximum });
        }
      } else if (types.includes('string') && !types.includes('null') && textConstantOf(f) !== undefined) {
        // Stripe's `object: list`, Google's `kind`: one text on every page (paging.constants).
        (constants ??= {})[name] = textConstantOf(f)!;
      } else if (types.includes('string') && !types.includes('null') && name === 'url' && url === undefined && f.nullable !== true && f.format === undefined) {
        // Stripe's `url`: the list's address, the request's path (paging.url); a `format: uri` one is a whole address,
        // which the request's path is not.
        url = name;
      } else if (types.includes('string') && previousLink === undefined && PREVIOUS_LINK_FIELDS.has(name)) {
        // Django REST Framework's `previous`: the page before's address (its style is read below).
        previousLink = name;
      } else if (types.includes('string') && nextLink === undefined && NEXT_LINK_FIELDS.has(name) && isAddressSchema(f)) {
        // Its `next`, a whole address (format: uri): the next page's, not a cursor.
        nextLink = name;
      } else if (pageObject && types.includes('string') && nextLink === undefined && NEXT_LINK_FIELDS.has(name)) {
        // A page object's next page address of no stated format (Laravel's next_page_url): there is no cursor.
        nextLink = name;
      } else if (pageObject && !(types.includes('boolean') && HAS_MORE_NAMES.has(name))) {
        // A page object's member of no role and no total's name (`tookMs`, a count of something else): left out,
        // said, never read as the total by its type alone.
        dropped.push({ item: name, pointer: p });
      } else if (types.includes('string') && next === undefined) {
        next = name;
        const required = Array.isArray(flat.schema?.required) && flat.schema.required.includes(name);
        nextOptional = !required && f.nullable !== true && !types.includes('null');
      } else if (types.includes('integer') && total === undefined) {
        if (takeCount(name, p, f, promised(flat.schema, name))) total = name;
      } else if (types.includes('boolean') && hasMore === undefined && HAS_MORE_NAMES.has(name)) hasMore = name;
      else unread.push({ name, pointer: p });
    }
    if (items === undefined) return {};
    // A list of one resource beside members no paging key carries (Twilio's `meta: { page, first_page_url, … }`):
    // custom, saying which and where (it was read as no response envelope either: docs/import.md).
    if (unread.length > 0)
      return {
        reason: `its answer holds ${resource} objects in \`${items}\`, beside ${unread.map((u) => `\`${u.name}\` (${u.pointer})`).join(', ')}, which no paging key carries (a page holds its objects, a next cursor, a total, has_more, constants, url, the neighbouring pages' addresses and paging.members) and no response envelope value fills${cursorBesidePage(src)}`,
      };
  }
  const names = new Set(src.params.filter(({ p }) => p.in === 'query').map(({ p }) => String(p.name)));
  const responses = isObject(src.op.responses) ? src.op.responses : {};
  const node = resolve(ctx, responses[success.key ?? String(success.status)], '').node;
  const link = isObject(node) && isObject(node.headers) && Object.keys(node.headers).some((h) => h.toLowerCase() === LINK_HEADER.toLowerCase());
  const totalHeader = isObject(node) && isObject(node.headers) ? findTotalHeader(ctx, node.headers) : undefined;
  // Each paging role by the first name of it the operation takes (Kubernetes' `continue`, Google's `pageToken`).
  const found: Partial<Record<PagingRole, string>> = {};
  for (const role of Object.keys(PAGING_ALIASES) as PagingRole[]) {
    const name = PAGING_ALIASES[role].find((n) => names.has(n));
    if (name !== undefined) found[role] = name;
  }
  // Spring's `?page=&size=`: `size` is the page size beside a page number (alone it may be a field's filter).
  if (found.limit === undefined && found.page !== undefined && queryParamOf(ctx, src, 'size')?.schema?.type === 'integer') found.limit = 'size';
  const pageSize = found.limit !== undefined && PAGE_SIZE_PARAMS.has(found.limit);
  // A `next` of no stated format on a list paged by offset or page number (no cursor to take): the next page's address.
  if (
    next !== undefined &&
    nextLink === undefined &&
    NEXT_LINK_FIELDS.has(next) &&
    found.cursor === undefined &&
    (found.offset !== undefined || found.page !== undefined || pageSize)
  ) {
    [nextLink, next] = [next, undefined];
    nextOptional = false;
  }
  let style: ListStyle;
  // Stripe's: a cursor parameter (`starting_after`) and a page with no next cursor but `has_more`, or a bare array
  // paged by `starting_after` with no Link header: the cursor is the last object's identifier (style after).
  if (found.cursor !== undefined && next === undefined && (hasMore !== undefined || (items === undefined && !link && found.cursor === AFTER_PARAM)))
    style = 'after';
  else if (found.cursor !== undefined || (next !== undefined && found.offset === undefined && found.page === undefined && !pageSize)) style = 'cursor';
  else if (found.offset !== undefined) style = 'offset';
  else if (found.page !== undefined || pageSize) style = 'page';
  else if (found.limit !== undefined) style = 'limit';
  else style = 'none';
  const cursorName = found.cursor ?? LIST_PARAMS.cursor;
  // Page numbers from 0 (Spring's `page`, minimum 0 or default 0): paging.first_page 0.
  const pageParam = style === 'page' && found.page !== undefined ? queryParamOf(ctx, src, found.page) : undefined;
  const fromZero = pageParam !== undefined && (pageParam.schema?.minimum === 0 || pageParam.schema?.default === 0);
  if (next !== undefined && style !== 'cursor') return { reason: `its page holds \`${next}\`, a next cursor, but it takes no \`${cursorName}\` parameter` };
  if (previousLink !== undefined && style !== 'offset' && style !== 'page')
    return {
      reason: `its page holds \`${previousLink}\`, the previous page's address, but it is paged by ${style === 'cursor' || style === 'after' ? 'a cursor' : 'no position'}: the format moves back an offset or a page number only (paging.previous_link)`,
    };
  if (nextLink !== undefined && (style === 'none' || style === 'limit'))
    return { reason: `its page holds \`${nextLink}\`, the next page's address, but it takes no position parameter (offset, page or cursor)` };
  // A member bounded below what the runtime may answer (a page size echo capped under the parameter's maximum, a
  // page count capped at all) keeps the list custom, saying why: the runtime would break the document's bound.
  const cap = pageSizeMaximum(ctx, src);
  const bounded = members.find(
    (m) => m.maximum !== undefined && !(m.role === 'size' && cap !== undefined && typeof m.maximum === 'number' && m.maximum >= cap),
  );
  if (bounded !== undefined)
    return {
      reason: `its page's \`${bounded.path.join('.')}\` (its ${bounded.role}) is at most ${JSON.stringify(bounded.maximum)}, ${bounded.role === 'size' ? 'below what the page size parameter allows' : 'a bound the format keeps on no page member but the page size'} (paging.members)`,
    };
  // A member its style cannot answer (a page number on a list paged by offset) keeps the list custom, saying why.
  const unanswerable = members.find((m) => !PAGE_MEMBER_STYLES[m.role].includes(style));
  if (unanswerable !== undefined)
    return {
      reason: `its page holds \`${unanswerable.path.join('.')}\`, ${unanswerable.role === 'page' || unanswerable.role === 'last_page' ? 'a page number' : `its ${unanswerable.role}`}, which a list paged by ${style} does not answer (paging.members)`,
    };
  if (style === 'cursor' && items === undefined && !link && !nextInEnvelope.has(src))
    return { reason: `it takes a \`${cursorName}\`, but its bare array answer gives no next cursor (no \`${LINK_HEADER}\` header is declared)` };
  // Shopify's: an envelope of the objects alone, the next page's cursor in the Link header (\`next: false\`).
  if (style === 'cursor' && items !== undefined && next === undefined && nextLink === undefined && !link)
    return { reason: `it takes a \`${cursorName}\`, but its page holds no next cursor (nor is a \`${LINK_HEADER}\` header declared)` };
  // The names the style reads where they are not the format's (paging.params); the format's own names the operation
  // takes are read as paging parameters as before.
  const params: PagingParamsSpec = {};
  for (const role of PAGING_ROLES[style]) {
    const name = found[role];
    if (name !== undefined && name !== getPagingParamName({ style, params: {} }, role)) params[role] = name;
  }
  // Style after reads its cursor as `starting_after` by default: that name is a paging parameter too.
  const afterName = style === 'after' && found.cursor === AFTER_PARAM ? [AFTER_PARAM] : [];
  const used = [...new Set([...PAGING_NAMES.filter((n) => names.has(n)), ...(Object.values(params) as string[]), ...afterName])];
  const paging: PagingSpec = {};
  if (style !== 'cursor') paging.style = style;
  if (items === undefined) paging.body = 'array';
  else {
    if (items !== PAGE_FIELDS.items) paging.items = items;
    if (next !== undefined && next !== PAGE_FIELDS.next) paging.next = next;
    if (next === undefined && style === 'cursor') paging.next = false;
    if (total !== undefined) paging.total = total;
    if (hasMore !== undefined) paging.has_more = hasMore;
    if (constants !== undefined) paging.constants = constants;
    if (url !== undefined) paging.url = url;
    if (nextLink !== undefined) paging.next_link = nextLink;
    if (previousLink !== undefined) paging.previous_link = previousLink;
    if (members.length > 0) {
      const byRole: Partial<Record<PageMemberRole, string[]>> = {};
      for (const m of members) (byRole[m.role] ??= []).push(m.path.join('.'));
      paging.members = Object.fromEntries(Object.entries(byRole).map(([role, paths]) => [role, paths!.length === 1 ? paths![0]! : paths])) as PageMembersSpec;
    }
  }
  if (fromZero) paging.first_page = 0;
  for (const d of dropped)
    report(
      ctx,
      'import-dropped',
      {
        item: `operation ${src.id}: its page's \`${d.item}\``,
        reason: "the format's page object carries its objects, total, neighbouring pages' addresses and paging.members only",
      },
      d.pointer,
    );
  for (const d of unpromised)
    report(
      ctx,
      'import-dropped',
      {
        item: `operation ${src.id}: its page's \`${d.item}\` (not required)`,
        reason:
          "the document does not promise it on every page, and the format's total and page members (paging.total, paging.members) are written on every page, where a client and the contract tester may rely on them: a count the service may leave out cannot be said",
      },
      d.pointer.replace(/^#/, ''),
    );
  for (const d of nullable)
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${src.id}: its page's \`${d.item}\` (nullable)`,
        as: 'a count on every page, never null',
        reason: "the format's total and page members (paging.total, paging.members) are numbers the service always writes: a null one cannot be said",
      },
      d.pointer.replace(/^#/, ''),
    );
  if (link && style !== 'none' && style !== 'limit') paging.link = true;
  if (totalHeader !== undefined) paging.total_header = totalHeader;
  if (Object.keys(params).length > 0) paging.params = params;
  const out: PageShape = { resource: resource!, params: used, size: style === 'none' ? undefined : getPagingParamName({ style, params }, 'limit') };
  if (Object.keys(paging).length > 0) out.paging = paging;
  if (next !== undefined && nextOptional) out.nextOptional = true;
  if (summary !== undefined) out.summary = summary;
  return out;
}

/**
 * Where a list takes a cursor beside a page number (Twilio's `PageToken` and `Page`, names compared in any case,
 * without \`_\` and \`-\`), what the format cannot say of it, with both parameters' pointers; else nothing.
 */
function cursorBesidePage(src: OpSource): string {
  const plain = (n: string) => n.toLowerCase().replace(/[_-]/g, '');
  const of = (role: PagingRole) => {
    const aliases = new Set(PAGING_ALIASES[role].map(plain));
    return src.params.find(({ p }) => p.in === 'query' && aliases.has(plain(String(p.name))));
  };
  const cursor = of('cursor');
  const page = of('page');
  if (cursor === undefined || page === undefined) return '';
  return `; and it takes \`${String(cursor.p.name)}\` (${cursor.pointer}), a position the service issues, beside \`${String(page.p.name)}\` (${page.pointer}), a page number: a list pages by one position (paging.style), so a page number carried beside a cursor, and a previous page's address on a list paged by a cursor, cannot be said`;
}

/** A query parameter of an operation by name, with its schema read through references; undefined when it takes none. */
function queryParamOf(ctx: Ctx, src: OpSource, name: string): { schema: Json | undefined; pointer: string } | undefined {
  const param = src.params.find(({ p }) => p.in === 'query' && p.name === name);
  return param && { schema: flatten(ctx, param.p.schema, joinPointer(param.pointer, 'schema')).schema, pointer: param.pointer };
}

/** The one text a page field always holds: a `const`, or an `enum` of one string. */
function textConstantOf(f: Json): string | undefined {
  const value = constantOf(f);
  return typeof value === 'string' ? value : undefined;
}

/** Response header names that carry a list's total (lowercase): GitHub-, json-server- and Rails-style. */
const TOTAL_HEADER_NAMES: ReadonlySet<string> = new Set(['x-total-count', 'x-total', 'total-count', 'x-total-results']);

/** The response header holding a list's total (`X-Total-Count`, an integer), as the document names it; undefined when none. */
function findTotalHeader(ctx: Ctx, headers: Json): string | undefined {
  for (const [name, raw] of Object.entries(headers)) {
    if (!TOTAL_HEADER_NAMES.has(name.toLowerCase())) continue;
    const header = resolve(ctx, raw, '').node;
    const schema = isObject(header) ? resolve(ctx, header.schema, '').node : undefined;
    const type = isObject(schema) ? schema.type : undefined;
    if (type === 'integer' || (Array.isArray(type) && type.includes('integer') && !type.includes('string'))) return name;
  }
  return undefined;
}

interface Inferred {
  action: Action;
  resource?: string;
  reason?: string;
  page?: PageShape;
  /** The path parameters bound to the resource's fields of the same name (`bind`), when the path is not one identifier's. */
  bind?: Record<string, string>;
  /** The bound fields, a key unique together the resource (with no identifier) is to declare (`unique_keys`). */
  key?: string[];
  /** The one bound field a one-parameter item path reads an object by (the resource has no identifier): declared `unique`. */
  unique?: string;
  /** The resource the objects belong to, which a parameter names and no field of theirs shows: declared `parent`. */
  parent?: string;
}

/** Field types a path segment can carry (model-path-bindings.ts' BINDABLE_TYPES, as written in a spec). */
const BINDABLE: ReadonlySet<string> = new Set(['string', 'integer', 'uuid', 'email', 'uri', 'enum', 'date', 'ref']);

/**
 * The field a path parameter names: the resource's field of the same name, else the one field of that name nested in
 * its object fields, up to three levels down (Kubernetes' {namespace} and {name}: `metadata.namespace`,
 * `metadata.name`). Undefined when none, or when several do: nothing is guessed.
 */
function fieldPathFor(fields: Record<string, FieldSpec>, p: string): { path: string; field: FieldSpec } | undefined {
  // The same name, else its other spelling (`{projectId}` names `project_id`, `{project_id}` names `projectId`).
  for (const name of paramSpellings(p)) {
    const at = fieldPathByName(fields, name);
    if (at !== undefined) return at;
  }
  return undefined;
}

/**
 * The field naming the parent a path parameter stands for (\`/notes/{id}/tags\`: the segment before it, \`notes\`, as
 * \`note_id\` or \`noteId\`); undefined when the resource has none of those.
 */
function parentFieldFor(fields: Record<string, FieldSpec>, path: string, p: string): { path: string; field: FieldSpec } | undefined {
  const segments = path.split('/');
  const at = segments.indexOf(`{${p}}`);
  const parent = at > 0 ? segments[at - 1]! : '';
  if (parent === '' || parent.includes('{')) return undefined;
  const singular = [...new Set([parent.replace(/ies$/, 'y'), parent.replace(/e?s$/, ''), parent.replace(/s$/, '')])];
  for (const one of singular) {
    const found = fieldPathFor(fields, `${one}_id`) ?? fieldPathFor(fields, `${one}Id`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A path parameter's name as written, then in snake_case and in camelCase where those differ. */
function paramSpellings(p: string): string[] {
  const snake = p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const camel = p.replace(/[_-]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
  return [...new Set([p, snake, camel])];
}

function fieldPathByName(fields: Record<string, FieldSpec>, p: string): { path: string; field: FieldSpec } | undefined {
  if (Object.hasOwn(fields, p)) return { path: p, field: fields[p]! };
  let level: { path: string; fields: Record<string, FieldSpec> }[] = [{ path: '', fields }];
  // One field of that name at every depth looked at: two (a pull request's author.username and
  // repository.owner.username) leave which one the parameter names unsaid.
  let match: { path: string; field: FieldSpec } | undefined;
  for (let depth = 0; depth < 3 && level.length > 0; depth++) {
    const next: typeof level = [];
    const found: { path: string; field: FieldSpec }[] = [];
    for (const l of level)
      for (const [name, f] of Object.entries(l.fields)) {
        if (f.type !== 'object' || f.fields === undefined || name.includes('.')) continue;
        const path = l.path === '' ? name : `${l.path}.${name}`;
        if (Object.hasOwn(f.fields, p) && !p.includes('.')) found.push({ path: `${path}.${p}`, field: f.fields[p]! });
        next.push({ path, fields: f.fields });
      }
    if (found.length > 1 || (found.length === 1 && match !== undefined)) return undefined;
    if (found.length === 1) match = found[0];
    level = next;
  }
  return match;
}

/**
 * The bindings of a path whose every parameter names a field of the resource by the same name, nested or not
 * (`GET /owners/{owner}/repos/{id}` answering a Repo with `owner` and `id`; Kubernetes' `{namespace}` and `{name}`,
 * a Lease's `metadata.namespace` and `metadata.name`): what the document says each parameter is. An action addressing
 * one object must bind the identifier, or, for a resource with none, its bound fields are a key unique together
 * (`key`, which the caller declares); a create binds only fields its request may write. Undefined when some
 * parameter names no such field: nothing is guessed from a name that differs.
 */
function bindingsFor(
  ctx: Ctx,
  r: string,
  params: readonly string[],
  action: 'read' | 'write' | 'create' | 'list',
  path?: string,
): { bind: Record<string, string>; key?: string[]; unique?: string; parent?: string } | undefined {
  const fields = ctx.resourceFields.get(r) ?? {};
  const identifier = ctx.resourceIdentifier.get(r);
  // The parents the path names, outermost first (a chain: /owners/{ownerId}/pets/{petId}/visits).
  const parents: { param: string; resource: string }[] = [];
  // The object's own key: its identifier, else its `id` (Box's FileRequest, whose `id` is optional, is read by it at
  // /file_requests/{file_request_id}): a create's or list's parameter naming it names an object, not a parent.
  const own = identifier ?? DEFAULT_IDENTIFIER_FIELD;
  const bind: Record<string, string> = {};
  for (const p of params) {
    let at = fieldPathFor(fields, p) ?? idByResourceName(fields, r, p, identifier);
    // The last parameter, ending an item path, naming no field (`{recordId}` of a ServiceRecord, under
    // `/vehicles/{vehicleId}/service-records`): the identifier, as the one parameter of `/pets/{petId}` is.
    // Only for a resource with an identifier: one without is read by the fields its path names, none guessed.
    if (
      at === undefined &&
      (action === 'read' || action === 'write') &&
      params.length > 1 &&
      p === params.at(-1) &&
      path?.endsWith(`/{${p}}`) &&
      identifier !== undefined &&
      Object.hasOwn(fields, identifier)
    )
      at = { path: identifier, field: fields[identifier]! };
    // A list's or create's parameter names the parent the objects are under, never their own identifier (a Tag's
    // \`id\` for \`/notes/{id}/tags\`): the field named after the segment before it (\`note_id\`, \`noteId\`), else none.
    if ((action === 'list' || action === 'create') && at?.path === own && path !== undefined) at = parentFieldFor(fields, path, p);
    // A scope parameter naming no field of the objects, where its own item path reads another resource by it
    // (RealWorld's {slug} of /articles/{slug}/comments, /articles/{slug} reading an Article by its identifier): the
    // parent the objects belong to (`parent`), bound as `Article.slug`; several, a chain of parents (checked below).
    // Never the item's own parameter.
    if (at === undefined && path !== undefined && ((action !== 'read' && action !== 'write') || p !== params.at(-1))) {
      const named = parentNamedBy(ctx, r, path, p);
      if (named !== undefined) {
        parents.push({ param: p, resource: named.resource });
        bind[p] = `${named.resource}.${named.field}`;
        continue;
      }
    }
    const f = at?.field;
    // A write-only field binds no path (check's write-only-invalid). A create binds a read-only field the path alone
    // gives (a task's project_id under /projects/{projectId}/tasks), never the identifier, which the server makes.
    if (at === undefined || f === undefined || !BINDABLE.has(f.type) || f.writeOnly === true || (action === 'create' && at.path === own)) return undefined;
    if (action === 'create' && at.path.includes('.') && !Object.hasOwn(fields, at.path) && fields[at.path.split('.')[0]!]?.readOnly === true) return undefined;
    bind[p] = at.path;
  }
  // Two parameters naming one field (PagerDuty's /users/{id}/notification_rules/{notification_rule_id}, both the
  // rule's id): the last names the object, an earlier one its parent, by the field named after the segment before it,
  // else by none (nothing is guessed). Both bound to one field, a real request's two values never both match.
  const lastFirst = [...params].reverse();
  for (const p of lastFirst) {
    if (lastFirst.findIndex((q) => bind[q] === bind[p]) === lastFirst.indexOf(p)) continue;
    if (parents.some((x) => x.param === p)) return undefined;
    const parent = path === undefined ? undefined : parentFieldFor(fields, path, p);
    if (parent === undefined || !BINDABLE.has(parent.field.type) || Object.values(bind).includes(parent.path)) return undefined;
    bind[p] = parent.path;
  }
  const owner = parents.at(-1)?.resource;
  if (owner !== undefined) {
    // The innermost parent is the resource's own, unless it is given another; each one outside it the parent of the
    // next, as that one's operations declared it (a Pet under an Owner, from /owners/{ownerId}/pets): nothing about
    // a parent's own parent is guessed from this path alone.
    const given = ctx.resourceSpecs[r]?.parent;
    if (given !== undefined && given !== owner) return undefined;
    for (let i = 0; i + 1 < parents.length; i++) if (ctx.resourceSpecs[parents[i + 1]!.resource]?.parent !== parents[i]!.resource) return undefined;
    // Never a loop (check's parent-cycle): the parent's own chain does not come back to the resource.
    const seen = new Set<string>();
    for (let at: string | undefined = owner; at !== undefined && !seen.has(at); at = ctx.resourceSpecs[at]?.parent) {
      if (at === r) return undefined;
      seen.add(at);
    }
    // Only a resource with an identifier has a parent here (a key with a parent is not), and only the parents'
    // parameters scope it: a path naming more is not read as parents and a field.
    if (identifier === undefined || !Object.hasOwn(fields, identifier)) return undefined;
    if (params.length > parents.length + (action === 'read' || action === 'write' ? 1 : 0)) return undefined;
    if (action === 'read' || action === 'write') return Object.values(bind).includes(identifier) ? { bind, parent: owner } : undefined;
    return { bind, parent: owner };
  }
  if (action === 'read' || action === 'write') {
    if (identifier !== undefined) return Object.values(bind).includes(identifier) ? { bind } : undefined;
    // No identifier: the item path's fields name one object together (the document reads one by them); several of
    // them only for what the API makes (a key no POST fills could never be found: it stays custom).
    const paths = Object.values(bind);
    const top = (path: string) => (Object.hasOwn(fields, path) ? fields[path] : undefined);
    if (paths.length === 1 && top(paths[0]!)?.unique === true) return { bind };
    // One parameter naming one field (giphy's `GET /gifs/{gifId}`, a Gif's optional `id`): the document reads one
    // object by it, as by an identifier, so it is unique; what nothing makes is read as its lists are (none found yet).
    if (params.length === 1 && paths.length === 1 && top(paths[0]!) !== undefined) return { bind, unique: paths[0]! };
    return paths.length > 0 && ctx.made.has(r) ? { bind, key: paths } : undefined;
  }
  return { bind };
}

/** madeAt's mark of a resource a PUT makes (an upsert). */
const UPSERT = 'PUT';

/**
 * The parent a path parameter names (docs/format.md, "Resources under a parent"): the resource the path up to it
 * reads (its item path, `/articles/{slug}`), another resource with an identifier, whose identifier or a unique
 * top-level field the parameter names (by name, or as the resource's name and `Id`). Undefined where none does: nothing
 * is guessed. A parent further up a chain (the Owner of /owners/{ownerId}/pets/{petId}/visits) is one too; bindingsFor
 * holds the chain to the parents declared.
 */
function parentNamedBy(ctx: Ctx, r: string, path: string, p: string): { resource: string; field: string } | undefined {
  const at = path.indexOf(`{${p}}`);
  if (at < 0 || ctx.family === undefined) return undefined;
  const prefix = path.slice(0, at + p.length + 2);
  // Every object has its parent: none for a resource a POST elsewhere makes (`POST /comments`) or a PUT makes
  // (an upsert names no parent), which check refuses (parent-binding-missing, parent-invalid).
  if ((ctx.madeAt?.get(r) ?? []).some((m) => m === UPSERT || !m.startsWith(`${prefix}/`))) return undefined;
  const owner = ctx.family.itemOf(prefix);
  if (owner === undefined || owner === r) return undefined;
  const spec = ctx.resourceSpecs[owner];
  const identifier = ctx.resourceIdentifier.get(owner);
  const fields = ctx.resourceFields.get(owner) ?? {};
  if (identifier === undefined || !Object.hasOwn(fields, identifier)) return undefined;
  const named = fieldPathFor(fields, p) ?? idByResourceName(fields, owner, p, identifier);
  if (named === undefined || !Object.hasOwn(fields, named.path) || !BINDABLE.has(named.field.type) || named.field.writeOnly === true) return undefined;
  const unique = named.path === identifier || named.field.unique === true || spec?.fields?.[named.path]?.unique === true;
  return unique ? { resource: owner, field: named.path } : undefined;
}

/**
 * The one parameter of an item path of a resource with an identifier, where it names another of its fields (GitHub's
 * `/issues/{issue_number}` of an Issue's `number`, `/labels/{name}` of a Label's `name`): the operation is bound to
 * that field, which is unique (the path addresses one object by it). Nothing where it names the identifier, or no
 * field: the parameter is the identifier, as for `/pets/{petId}` or `/repos/{repo}`.
 */
function boundToOtherField(ctx: Ctx, r: string, p: string): { bind?: Record<string, string>; unique?: string } {
  const fields = ctx.resourceFields.get(r) ?? {};
  const identifier = ctx.resourceIdentifier.get(r);
  const at = fieldPathFor(fields, p) ?? idByResourceName(fields, r, p, identifier);
  if (at === undefined || at.path === identifier || !Object.hasOwn(fields, at.path) || !BINDABLE.has(at.field.type) || at.field.writeOnly === true) return {};
  return { bind: { [p]: at.path }, ...(at.field.unique === true ? {} : { unique: at.path }) };
}

/**
 * The identifier (else `id`), named by a path parameter as the resource's name and `Id` (`{gifId}`, `{gif_id}` of a
 * Gif, `{taskId}` of a Task; the last segment of a dotted resource name), as APIs name the identifier in paths where
 * several resources meet, or as `{id}`; else a field the parameter names after the resource's name (an Issue's
 * `number` as `{issueNumber}`, a Project's `key` as `{project_key}`).
 */
function idByResourceName(fields: Record<string, FieldSpec>, r: string, p: string, identifier?: string): { path: string; field: FieldSpec } | undefined {
  const squash = (t: string) => t.toLowerCase().replace(/[-_]/g, '');
  const name = identifier ?? DEFAULT_IDENTIFIER_FIELD;
  const said = squash(p);
  const own = squash(r.split('.').at(-1)!);
  if (Object.hasOwn(fields, name) && (said === `${own}${DEFAULT_IDENTIFIER_FIELD}` || said === DEFAULT_IDENTIFIER_FIELD))
    return { path: name, field: fields[name]! };
  if (!said.startsWith(own) || said.length === own.length) return undefined;
  const rest = said.slice(own.length);
  const named = Object.keys(fields).filter((f) => squash(f) === rest);
  return named.length === 1 ? { path: named[0]!, field: fields[named[0]!]! } : undefined;
}

/** An object schema that can hold nothing: no properties, none beside them (`{ type: object, additionalProperties: false }`). */
function isEmptyObject(ctx: Ctx, schema: unknown, pointer: string): boolean {
  const s = flatten(ctx, schema, pointer).schema;
  if (!s || (s.type !== undefined && s.type !== 'object')) return false;
  return (
    (!isObject(s.properties) || Object.keys(s.properties).length === 0) && s.additionalProperties === false && s.oneOf === undefined && s.anyOf === undefined
  );
}

/**
 * A PUT that changes what it is sent (Rails' update, Shopify's `PUT /products/{id}`): its body is a schema of its own
 * (ProductUpdate) requiring none of the fields the resource requires a client to write, where a replace's body would
 * require them. Read as an update: a replace would clear what the request leaves out.
 */
function isPartialPut(ctx: Ctx, src: OpSource, resource: string): boolean {
  // Read quietly: the operation's own reading says what its body loses.
  const said = ctx.diagnostics.length;
  const body = requestOf(ctx, src, true);
  ctx.diagnostics.length = said;
  if (!body || body.form) return false;
  const flat = flatten(ctx, body.schema, body.pointer);
  if (!flat.schema || flat.refs.length === 0 || ctx.resources.get(flat.refs[0]!) === resource) return false;
  if (Array.isArray(flat.schema.required) && flat.schema.required.length > 0) return false;
  const fields = ctx.resourceFields.get(resource) ?? {};
  return Object.values(fields).some((f) => f.optional !== true && f.readOnly !== true && f.default === undefined);
}

function inferAction(
  ctx: Ctx,
  src: OpSource,
  success: ReturnType<typeof successOf>,
  response: ShapeSpec | undefined,
  request: ShapeSpec | undefined,
  family: PathFamily,
): Inferred {
  const pathParams = Array.from(src.path.matchAll(/\{([^{}]*)\}/g), (m) => m[1] ?? '');
  const shaped = withoutTrailingSlash(src.path);
  const single = pathParams.length === 1 && shaped.endsWith(`/{${pathParams[0]}}`);
  // A path of several parameters ending in one (an item path), or a collection path under parameters.
  const item = pathParams.length > 1 && shaped.endsWith(`/{${pathParams.at(-1)!}}`);
  const scoped = pathParams.length > 0 && !shaped.endsWith('}');
  const one = response?.resource !== undefined && !response.list ? response.resource : undefined;
  const extraRequestFields = (r: string): string[] | undefined => {
    if (!request || request.resource === r) return undefined;
    const rf = ctx.resourceFields.get(r) ?? {};
    // A tagged union body of a resource of several shapes (its create's, NewPet's): its variants' members are the
    // resource's, and its tags among the resource's.
    const spec = ctx.resourceSpecs[r];
    if (request.variants !== undefined && !request.list && spec?.variants !== undefined && request.discriminator === spec.discriminator) {
      const tags = new Set(Object.entries(spec.variants).map(([n, v]) => v.tag ?? n));
      const extra = Object.entries(request.variants).flatMap(([n, v]) => [
        ...(tags.has(v.tag ?? n) ? [] : [`${request.discriminator!} ${JSON.stringify(v.tag ?? n)}`]),
        ...Object.keys(v.fields ?? {}).filter((f) => !Object.hasOwn(rf, f)),
      ]);
      return extra.length > 0 ? extra : undefined;
    }
    const fields = fieldsOf(request, ctx);
    if (fields === undefined || request.list) return [];
    const extra = Object.keys(fields).filter((f) => !Object.hasOwn(rf, f));
    return extra.length > 0 ? extra : undefined;
  };
  const fitsRequest = (r: string) => (!request ? src.method !== 'POST' && src.method !== 'PUT' : extraRequestFields(r) === undefined);
  const addressable = (r: string) => ctx.resourceIdentifier.get(r) !== undefined;
  const noId = (r: string): Inferred => ({
    action: 'custom',
    reason: `${r} has no identifier field to address it by (no required \`id\`, and the path parameter {${pathParams[0] ?? ''}} names no required field of it)`,
  });
  switch (src.method) {
    case 'GET':
      if (single && one !== undefined) {
        if (addressable(one)) return { action: 'read', resource: one, ...boundToOtherField(ctx, one, pathParams[0]!) };
        const b = bindingsFor(ctx, one, pathParams, 'read', src.path);
        return b ? { action: 'read', resource: one, ...b } : noId(one);
      }
      if (item && one !== undefined) {
        const b = bindingsFor(ctx, one, pathParams, 'read', src.path);
        if (b) return { action: 'read', resource: one, ...b };
      }
      if (scoped && success.schema !== undefined) {
        const page = pageOf(ctx, src, success, response);
        const b = page.resource !== undefined ? bindingsFor(ctx, page.resource, pathParams, 'list', src.path) : undefined;
        if (page.resource !== undefined && b)
          return { action: 'list', resource: page.resource, page, bind: b.bind, ...(b.parent !== undefined ? { parent: b.parent } : {}) };
      }
      if (pathParams.length === 0 && success.schema !== undefined) {
        const page = pageOf(ctx, src, success, response);
        // A resource with no identifier is listed too: the storage keys its rows and pages by that key.
        if (page.resource !== undefined) return { action: 'list', resource: page.resource, page };
        if (page.reason !== undefined) return { action: 'custom', reason: page.reason };
      }
      break;
    case 'POST':
      // A resource with no identifier is created too: the storage makes its row's key.
      if (pathParams.length === 0 && one !== undefined && fitsRequest(one)) return { action: 'create', resource: one };
      if (scoped && one !== undefined && fitsRequest(one)) {
        const b = bindingsFor(ctx, one, pathParams, 'create', src.path);
        if (b) return { action: 'create', resource: one, bind: b.bind, ...(b.parent !== undefined ? { parent: b.parent } : {}) };
      }
      // A create answering with no body (petstore's `201 Null response`): still the create of what it takes. The
      // format's create answers with the object, more than the document says, and that is said at the response.
      if (
        pathParams.length === 0 &&
        response === undefined &&
        !success.hasContent &&
        success.status !== undefined &&
        request?.resource !== undefined &&
        !request.list
      ) {
        report(
          ctx,
          'import-approximated',
          {
            item: `operation ${src.id}: its ${success.status} answer with no body`,
            as: `an answer holding the created ${request.resource}`,
            reason: 'a create answers with the object it made',
          },
          success.pointer ?? joinPointer(joinPointer(src.pointer, 'responses'), success.key ?? String(success.status)),
        );
        return { action: 'create', resource: request.resource };
      }
      break;
    case 'PUT':
    case 'PATCH': {
      const change = (r: string): 'replace' | 'update' => (src.method === 'PUT' && !isPartialPut(ctx, src, r) ? 'replace' : 'update');
      if (single && one !== undefined && fitsRequest(one)) {
        if (addressable(one)) return { action: change(one), resource: one, ...boundToOtherField(ctx, one, pathParams[0]!) };
        const b = bindingsFor(ctx, one, pathParams, 'write', src.path);
        return b ? { action: change(one), resource: one, ...b } : noId(one);
      }
      if (item && one !== undefined && fitsRequest(one)) {
        const b = bindingsFor(ctx, one, pathParams, 'write', src.path);
        if (b) return { action: change(one), resource: one, ...b };
      }
      // One answering 204 (Spring petclinic's `PUT /owners/{ownerId}/pets/{petId}`): the change of the object its path
      // names (what a GET of the same path reads), as a delete answering none is; served 204, no body. A 200 or 202
      // with no body stays custom: the format's change answers the object, which such a document never promises.
      const named = one === undefined && !success.hasContent && success.status === 204 && request !== undefined ? family.itemOf(src.path) : undefined;
      if (named !== undefined && fitsRequest(named) && (single || item)) {
        if (single && addressable(named)) return { action: change(named), resource: named, ...boundToOtherField(ctx, named, pathParams[0]!) };
        const b = bindingsFor(ctx, named, pathParams, 'write', src.path);
        if (b) return { action: change(named), resource: named, ...b };
      }
      break;
    }
    case 'DELETE': {
      // A delete answers nothing, or the object it deleted (its response is the resource its path names).
      const r = family.itemOf(src.path) ?? one;
      // Shopify's `200 {}`: an empty closed object says nothing of the deleted object; read as no body, said.
      const empty = success.hasContent && isEmptyObject(ctx, success.schema, success.pointer ?? src.pointer);
      const answers = !success.hasContent || empty || (one !== undefined && one === r);
      if (empty && r !== undefined && (single || item))
        report(
          ctx,
          'import-approximated',
          {
            item: `operation ${src.id}: its ${success.status ?? success.key} answer, an empty object`,
            as: 'an answer with no body',
            reason: 'a delete answers nothing or the object it deleted: the service answers the status with no body where the document answers {}',
          },
          success.pointer ?? src.pointer,
        );
      if (single && answers && r !== undefined) {
        if (addressable(r)) return { action: 'delete', resource: r, ...boundToOtherField(ctx, r, pathParams[0]!) };
        const b = bindingsFor(ctx, r, pathParams, 'write', src.path);
        return b ? { action: 'delete', resource: r, ...b } : noId(r);
      }
      const b = item && answers && r !== undefined ? bindingsFor(ctx, r, pathParams, 'write', src.path) : undefined;
      if (b) return { action: 'delete', resource: r, ...b };
      if (single && r !== undefined && !answers)
        return {
          action: 'custom',
          reason: `its success response is ${one !== undefined ? `a ${one}` : 'a body'}, a body other than the object it deletes (the ${r} its path names); a delete answers with that object or none, and the format does not state the values of another`,
        };
      break;
    }
  }
  const why = whyCustom(ctx, src, success, response, request, pathParams, single, one, extraRequestFields);
  // A list under a parameter (Twilio's /Exports/{ResourceType}/Days) whose answer is no page the format says: that too.
  const listWhy = src.method === 'GET' && scoped && success.schema !== undefined ? pageOf(ctx, src, success, response).reason : undefined;
  return { action: 'custom', reason: listWhy !== undefined && listWhy !== why ? `${why}; besides, ${listWhy}` : why };
}

/**
 * A resource with no identifier whose item path reads (or changes) one object by several fields: those fields are a
 * key unique together (`unique_keys`), declared once, and said (`import-approximated`): the document addresses one
 * object by them, so two objects holding the same values could not both be reached.
 */
function declareUniqueKey(ctx: Ctx, r: string, key: readonly string[], src: OpSource): void {
  const spec = ctx.resourceSpecs[r] as (ResourceSpec & { unique_keys?: string[][] }) | undefined;
  if (spec === undefined) return;
  const sorted = JSON.stringify([...key].sort());
  if ((spec.unique_keys ?? []).some((k) => JSON.stringify([...k].sort()) === sorted)) return;
  const ordered: Json = {};
  for (const [k, v] of Object.entries(spec)) {
    if (k === 'fields') ordered.unique_keys = [...(spec.unique_keys ?? []), [...key]];
    ordered[k] = v as Json;
  }
  ctx.resourceSpecs[r] = ordered as ResourceSpec;
  report(
    ctx,
    'import-approximated',
    {
      item: `resource ${r}`,
      as: `a resource whose ${key.map((k) => `\`${k}\``).join(', ')} are unique together`,
      reason: `${src.method} ${src.rawPath} addresses one ${r} by ${key.length === 1 ? 'it' : 'them'}, and ${r} has no identifier`,
    },
    src.pointer,
  );
}

/**
 * A one-parameter item path that reads (or changes) one object by a field other than an identifier (a resource with
 * none, or GitHub's `/issues/{issue_number}`): that field is `unique`, declared once, and said
 * (`import-approximated`), as a key unique together is.
 */
function declareUnique(ctx: Ctx, r: string, field: string, src: OpSource): void {
  const f = ctx.resourceSpecs[r]?.fields?.[field];
  if (f === undefined || f.unique === true) return;
  ctx.resourceSpecs[r]!.fields![field] = orderField({ ...f, unique: true });
  report(
    ctx,
    'import-approximated',
    {
      item: `resource ${r} field \`${field}\``,
      as: 'a unique field',
      reason:
        ctx.resourceIdentifier.get(r) === undefined
          ? `${src.method} ${src.rawPath} addresses one ${r} by it, and ${r} has no identifier`
          : `${src.method} ${src.rawPath} addresses one ${r} by it, not by its identifier \`${ctx.resourceIdentifier.get(r)!}\``,
    },
    src.pointer,
  );
}

/** A resource the operation's path nests under another it names by no field (parentNamedBy): `parent`, said once. */
function declareParent(ctx: Ctx, r: string, parent: string, src: OpSource): void {
  const spec = ctx.resourceSpecs[r];
  if (spec === undefined || spec.parent !== undefined) return;
  spec.parent = parent;
  report(
    ctx,
    'import-approximated',
    {
      item: `resource ${r}`,
      as: `a resource under a parent (\`parent: ${parent}\`)`,
      reason: `${src.method} ${src.rawPath} nests ${r} under the ${parent} its path names, which no field of ${r} shows: the service keeps each ${r}'s ${parent}`,
    },
    src.pointer,
  );
}

/** JSON Schema's type of a bindable field type, as a path parameter's schema states it. */
const PARAM_TYPE_OF: Readonly<Record<string, string>> = {
  string: 'string',
  uuid: 'string',
  email: 'string',
  uri: 'string',
  date: 'string',
  enum: 'string',
  integer: 'integer',
};

/**
 * A path parameter bound to a field of another type (giphy's `{gifId}`, an int32, naming a Gif's string `id`): the
 * served path takes the field's values, as every bound parameter does, and the export documents it so: said at the
 * parameter, never silently.
 */
function sayBoundTypes(ctx: Ctx, src: OpSource, r: string, bind: Record<string, string>): void {
  const fields = ctx.resourceFields.get(r) ?? {};
  for (const [param, path] of Object.entries(bind)) {
    const use = src.params.find(({ p }) => p.in === 'path' && p.name === param);
    const schema = use && isObject(use.p.schema) ? flatten(ctx, use.p.schema, joinPointer(use.pointer, 'schema')).schema : undefined;
    const field = specFieldAt(fields, path);
    const want = field ? PARAM_TYPE_OF[field.type] : undefined;
    const said = typeof schema?.type === 'string' ? schema.type : undefined;
    if (use === undefined || want === undefined || said === undefined || said === want || (said === 'number' && want === 'integer')) continue;
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${src.id}: path parameter {${param}} (${said})`,
        as: `the ${r} field \`${path}\` it names (${field!.type})`,
        reason: `a path parameter bound to a field takes that field's values${want === 'string' ? `, every ${said} written as text among them` : ''}`,
      },
      use.pointer,
    );
  }
}

/**
 * A custom operation's path parameters are fields of its written-out JSON request (docs/format.md, the action table:
 * check's `unbound-path-parameter`), which types them. A parameter the body does not name (Stripe's `{intent}` beside
 * `{ return_url }`) is added to it, optional and of its parameter's schema, and said: a body may now carry it too.
 * Without it the import failed. A request that is a resource, a union or a form is left as it is (check asks nothing).
 */
function pathParamsInRequest(ctx: Ctx, src: OpSource, request: ShapeSpec): ShapeSpec {
  if (request.fields === undefined || request.media_type !== undefined) return request;
  const fields = { ...request.fields };
  for (const { p, pointer } of src.params) {
    const name = String(p.name);
    if (p.in !== 'path' || Object.hasOwn(fields, name) || !src.path.includes(`{${name}}`)) continue;
    const item = `operation ${src.id}: path parameter {${name}}`;
    const typed = p.schema === undefined ? undefined : fieldFromSchema(ctx, p.schema, joinPointer(pointer, 'schema'), { where: item, depth: 1, stack: [] });
    // A path segment is text: a schema no segment carries (an object) is read as the text it is.
    const field: FieldSpec = typed && (PARAMETER_TYPES as readonly string[]).includes(typed.type) && typed.type !== 'array' ? typed : { type: 'string' };
    const description = str(p.description) ?? field.description;
    fields[name] = { ...field, ...(description !== undefined ? { description } : {}), optional: true };
    report(
      ctx,
      'import-approximated',
      {
        item,
        as: `an optional field \`${name}\` of its request body too`,
        reason: `a custom operation's path parameter is a field of its written-out request (the request body names no \`${name}\`), so a body may carry it, of the parameter's type; the handler reads the path's value from its params`,
      },
      pointer,
    );
  }
  return { ...request, fields };
}

/**
 * A property's own place in the document: through references and an allOf's members (Kubernetes' metadata,
 * `allOf: [$ref ListMeta]`; petclinic's `Owner`, `allOf: [$ref OwnerFields, { properties: { id } }]`), where the
 * pointer resolves.
 */
function propertyPlace(ctx: Ctx, node: unknown, pointer: string, name: string): { node: unknown; pointer: string } | undefined {
  const r = resolve(ctx, node, pointer);
  if (!isObject(r.node)) return undefined;
  const at = r.pointer.startsWith('#') ? r.pointer.slice(1) : r.pointer;
  if (isObject(r.node.properties) && Object.hasOwn(r.node.properties, name))
    return { node: r.node.properties[name], pointer: joinPointer(joinPointer(at, 'properties'), name) };
  const all = Array.isArray(r.node.allOf) ? r.node.allOf : [];
  for (let i = 0; i < all.length; i++) {
    const found = propertyPlace(ctx, all[i], joinPointer(joinPointer(at, 'allOf'), i), name);
    if (found) return found;
  }
  return undefined;
}

/** Envelope fields said unwritten, by pointer: an envelope several operations share is said once. */
const unwrittenSaid = new WeakMap<Ctx, Set<string>>();

/**
 * An envelope's optional fields no value fills (JSON:API's `links.last`, Kubernetes' `metadata.resourceVersion`):
 * the service never writes them, which the document allows; said once each, at the field (import-approximated).
 */
function sayUnwritten(ctx: Ctx, operation: string, envelope: EnvelopeSpec, success: ReturnType<typeof successOf>): void {
  if (success.schema === undefined) return;
  const filled = new Set<string>();
  for (const source of ENVELOPE_SOURCES) {
    const path = envelope[source];
    if (path === undefined) continue;
    const parts = path.split('.');
    for (let i = 1; i <= parts.length; i++) filled.add(parts.slice(0, i).join('.'));
  }
  let said = unwrittenSaid.get(ctx);
  if (!said) unwrittenSaid.set(ctx, (said = new Set()));
  const property = (node: unknown, pointer: string, name: string) => propertyPlace(ctx, node, pointer, name);
  const walk = (fields: Record<string, FieldSpec>, node: unknown, pointer: string, prefix: string) => {
    for (const [name, f] of Object.entries(fields)) {
      const path = prefix + name;
      const found = property(node, pointer, name);
      const at = found?.pointer ?? joinPointer(joinPointer(pointer, 'properties'), name);
      if (filled.has(path)) {
        if (f.type === 'object' && f.fields) walk(f.fields, found?.node, at, `${path}.`);
        continue;
      }
      // A required one no value fills was refused by toEnvelope: only an optional one is left (a constant, a member
      // of one value, is written on every answer).
      if (f.optional !== true || f.default !== undefined || said.has(at)) continue;
      said.add(at);
      report(
        ctx,
        'import-approximated',
        {
          item: `operation ${operation}: the envelope's \`${path}\``,
          as: 'an optional field the service never writes',
          reason: 'no value the runtime knows fills it (docs/format.md, "Response envelopes"), so every answer leaves it out, as the document allows',
        },
        at,
      );
    }
  };
  walk(envelope.fields ?? {}, success.schema, success.pointer ?? '', '');
}

/** Why an operation is not a resource action, as precisely as the document lets us say. */
function whyCustom(
  ctx: Ctx,
  src: OpSource,
  success: ReturnType<typeof successOf>,
  response: ShapeSpec | undefined,
  request: ShapeSpec | undefined,
  pathParams: string[],
  single: boolean,
  one: string | undefined,
  extra: (r: string) => string[] | undefined,
): string {
  if (pathParams.length > 1) {
    const r = one ?? response?.resource;
    const fields = r !== undefined ? (ctx.resourceFields.get(r) ?? {}) : {};
    const none = pathParams.filter(
      (p) => r === undefined || (fieldPathFor(fields, p) ?? idByResourceName(fields, r, p, ctx.resourceIdentifier.get(r))) === undefined,
    );
    const why =
      r === undefined
        ? 'and it answers with no one resource'
        : none.length > 0
          ? `and ${none.map((p) => `{${p}}`).join(', ')} ${none.length === 1 ? 'names' : 'name'} no field of ${r}`
          : `and an item path binds the identifier among them, which ${r} ${ctx.resourceIdentifier.get(r) === undefined ? 'does not have' : 'does not name here'}`;
    return `its path binds ${pathParams.map((p) => `{${p}}`).join(', ')}; a resource action binds each to its resource's field of the same name (bind), ${why}`;
  }
  // A collection under a parameter the listed resource has a field for: a list, but for its answer's shape.
  const wrapped =
    src.method === 'GET' && response?.resource !== undefined && !response.list
      ? Object.entries(fieldsOf(response, ctx) ?? {}).find(([, f]) => f.type === 'array')
      : undefined;
  if (wrapped !== undefined && response?.resource !== undefined && pathParams.length === 1 && !single)
    return `its response ${response.resource} holds a list in \`${wrapped[0]}\` beside fields that are not a page's (a next cursor, a total)`;
  if (pathParams.length === 1 && !single) {
    const p = pathParams[0] ?? '';
    const fields = one !== undefined ? (ctx.resourceFields.get(one) ?? {}) : {};
    const at = one !== undefined ? (fieldPathFor(fields, p) ?? idByResourceName(fields, one, p, ctx.resourceIdentifier.get(one))) : undefined;
    if (at === undefined && one !== undefined)
      return `its path goes on after {${p}}, which names no field of ${one}; a resource action binds each parameter to a field of its resource (bind)`;
    if (at === undefined || at.path === ctx.resourceIdentifier.get(one ?? ''))
      return `its path goes on after {${p}}; a resource action binds no parameter but the identifier, at the end of its path`;
  }
  if (success.status === undefined) return 'it declares no success response';
  if (src.method === 'DELETE')
    return success.hasContent
      ? 'its success response has a body other than the object it deletes; a delete answers with that object or none'
      : 'no operation reads, replaces or lists what its path names, so which resource it deletes is not known';
  if (response === undefined)
    return success.hasContent
      ? 'its success response is not a JSON object or list'
      : `its success response (${success.status}) has no body; a ${src.method === 'POST' ? 'create' : 'resource action'} answers with the object`;
  if (response.resource === undefined) return 'its response is not one of the resources (its fields are written out)';
  if (response.list) return pathParams.length > 0 ? 'its response is a list, on a path with a parameter' : 'its response is a list of no one resource';
  if (src.method === 'POST' && pathParams.length > 0) return 'a POST on one object is not a create (a transition needs a state machine)';
  if (src.method === 'GET' && pathParams.length === 0) {
    const wrapped = Object.entries(fieldsOf(response, ctx) ?? {}).find(([, f]) => f.type === 'array');
    return wrapped !== undefined
      ? `its response ${response.resource} holds a list in \`${wrapped[0]}\` beside fields that are not a page's (a next cursor, a total)`
      : `a GET on a collection path that answers with one ${response.resource} is not a list`;
  }
  if (one !== undefined && request === undefined && (src.method === 'POST' || src.method === 'PUT'))
    return `it has no request body; a ${src.method === 'POST' ? 'create' : 'replace'} takes the object`;
  const fields = one !== undefined ? extra(one) : undefined;
  if (fields !== undefined)
    return fields.length > 0
      ? `its request has ${fields.map((f) => `\`${f}\``).join(', ')}, which ${one ?? ''} does not`
      : `its request is not an object of ${one ?? ''}'s fields`;
  return 'its path and shapes are not those of a resource action';
}

/** A path as its shape is read: `/books/{id}/` (Django REST Framework's trailing slash) names an item as `/books/{id}` does. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('}/') ? path.slice(0, -1) : path;
}

/** Which resource each path names: an item path by what its operations read, replace or update, or by its collection. */
interface PathFamily {
  itemOf(path: string): string | undefined;
}

function getPathFamily(prepared: { src: OpSource; response: ShapeSpec | undefined; success: ReturnType<typeof successOf> }[], ctx: Ctx): PathFamily {
  const items = new Map<string, string>();
  const collections = new Map<string, string>();
  for (const { src, response, success } of prepared) {
    const params = Array.from(src.path.matchAll(/\{([^{}]*)\}/g));
    // What a DELETE answers names no item path (Stripe's DeletedCustomer beside the Customer its GET reads).
    if (
      response?.resource !== undefined &&
      !response.list &&
      params.length >= 1 &&
      /\/\{[^{}]*\}\/?$/.test(src.path) &&
      src.method !== 'POST' &&
      src.method !== 'DELETE'
    )
      items.set(src.path, response.resource);
    // A collection: at the top, or nested under a parent (RealWorld's /articles/{slug}/comments, whose item path
    // /articles/{slug}/comments/{id} only a DELETE has).
    if (src.method === 'POST' && response?.resource !== undefined && !response.list) collections.set(src.path, response.resource);
    if (src.method === 'GET' && success.schema !== undefined) {
      const page = pageOf(ctx, src, success, response).resource;
      if (page !== undefined) collections.set(src.path, page);
    }
  }
  return {
    itemOf: (path) => {
      const known = items.get(path);
      if (known !== undefined) return known;
      // Django REST Framework's paths end in a slash: /books/{id}/ is an item of /books/.
      const parent = path.replace(/\/\{[^{}]*\}(\/?)$/, '$1');
      return parent !== path ? collections.get(parent) : undefined;
    },
  };
}

/** A resource's identifier as the document gives it: its extension's, else an `id` that can be one, else none. */
function identifierOf(rext: Json, fields: Record<string, FieldSpec>): string | undefined {
  if (typeof rext.identifier === 'string') return rext.identifier;
  const id = fields[DEFAULT_IDENTIFIER_FIELD];
  return id !== undefined && isDefaultIdentifier(id, DEFAULT_IDENTIFIER_FIELD) ? DEFAULT_IDENTIFIER_FIELD : undefined;
}

/**
 * An optional, read-only `id` its item path reads the resource by (Spring petclinic's `Owner.id`, `GET
 * /owners/{ownerId}`: generators leave a read-only property out of `required`, as requests do not carry it) is the
 * identifier, which the service makes: a client never writes it, and the path addresses every object by it. Kept an
 * ordinary field, nothing would give it a value and no object could be read, changed or deleted (every read would
 * answer 404, and the tester could address none). Said, at the property.
 */
function serviceIdentifier(ctx: Ctx, r: string, p: string, src: OpSource): boolean {
  const fields = ctx.resourceFields.get(r);
  const f = fields?.[DEFAULT_IDENTIFIER_FIELD];
  if (fields === undefined || f === undefined || f.optional !== true || f.readOnly !== true) return false;
  if (!isDefaultIdentifier({ ...f, optional: false, name: DEFAULT_IDENTIFIER_FIELD })) return false;
  if (idByResourceName(fields, r, p)?.path !== DEFAULT_IDENTIFIER_FIELD) return false;
  delete f.optional;
  ctx.resourceIdentifier.set(r, DEFAULT_IDENTIFIER_FIELD);
  const schema = [...ctx.resources].find(([, name]) => name === r)?.[0];
  const place = schema !== undefined ? propertyPlace(ctx, { $ref: schema }, '', DEFAULT_IDENTIFIER_FIELD) : undefined;
  report(
    ctx,
    'import-approximated',
    {
      item: `resource ${r} field \`${DEFAULT_IDENTIFIER_FIELD}\` (optional, read-only)`,
      as: 'its identifier, made by the service',
      reason: `${src.method} ${src.rawPath} reads one ${r} by it, and no request writes it: every object the service makes has one`,
    },
    place?.pointer ?? src.pointer,
  );
  return true;
}

/**
 * A resource with no identifier field is addressed by the parameter of the item path that reads it when that
 * parameter names one of its fields that can be an identifier (`GET /users/{username}` answering a User whose
 * `username` is a required string): the document says that field picks one object.
 */
function identifiersFromPaths(ctx: Ctx, prepared: { src: OpSource; response: ShapeSpec | undefined }[]): void {
  for (const { src, response } of prepared) {
    if (src.method !== 'GET' || response?.resource === undefined || response.list) continue;
    const params = Array.from(src.path.matchAll(/\{([^{}]*)\}/g), (m) => m[1] ?? '');
    const p = params[0];
    if (params.length !== 1 || p === undefined || !withoutTrailingSlash(src.path).endsWith(`/{${p}}`)) continue;
    const r = response.resource;
    if (ctx.resourceIdentifier.get(r) !== undefined) continue;
    if (serviceIdentifier(ctx, r, p, src)) continue;
    const f = ctx.resourceFields.get(r)?.[p];
    if (f === undefined || !isDefaultIdentifier({ ...f, name: DEFAULT_IDENTIFIER_FIELD })) continue;
    ctx.resourceIdentifier.set(r, p);
    const spec = ctx.resourceSpecs[r];
    if (spec === undefined) continue;
    const ordered: Json = {};
    for (const [k, v] of Object.entries(spec)) {
      if (k === 'fields') ordered.identifier = p;
      ordered[k] = v;
    }
    ctx.resourceSpecs[r] = ordered as ResourceSpec;
    report(
      ctx,
      'import-approximated',
      { item: `resource ${r}`, as: `a resource identified by \`${p}\``, reason: `${src.method} ${src.rawPath} reads one ${r} by its ${p}, a required field` },
      src.pointer,
    );
  }
}

interface ParamUse {
  p: Json;
  pointer: string;
  name: string;
  where: string;
  /** How diagnostics name it, when not `<where> parameter <name>` (a response header). */
  label?: string;
}

/** Headers the runtime reads itself (content negotiation, framing, credentials): no operation declares them. */
/**
 * The query parameters a list's sort is read from when their values name fields of its resource (an optional `-`
 * descending): the format's `sort`, and the names frameworks give it (Django REST Framework's `ordering`); any but
 * `sort` is the list's `sort_param`.
 */
const SORT_PARAM_NAMES: ReadonlySet<string> = new Set([LIST_PARAMS.sort, 'ordering', 'order_by', 'orderBy', 'sort_by', 'sortBy']);

const TRANSPORT_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'authorization',
  'connection',
  'content-length',
  'content-encoding',
  'content-type',
  'cookie',
  'host',
  'transfer-encoding',
]);

/**
 * Sorts an operation's query and header parameters: those a list action takes (limit, cursor, sort, filters), those
 * another part of the spec carries, those with no place (cookies, transport headers: reported), and the rest.
 */
function planParams(
  ctx: Ctx,
  src: OpSource,
  action: Action,
  resourceFields: Record<string, FieldSpec>,
  paging: readonly string[] = [LIST_PARAMS.limit, LIST_PARAMS.cursor],
  size?: string,
  idOrder = false,
): {
  filter: string[];
  requiredFilters: string[];
  sort: string[];
  /** The query parameter the sort was read from, where it is not `sort` (DRF's `ordering`): the list's `sort_param`. */
  sortParam?: string;
  leftover: ParamUse[];
  pageSizes?: { op: string; default?: number; max?: number }[];
  ifMatch?: 'required' | 'optional';
  ifNoneMatch?: true;
} {
  const conditional: { ifMatch?: 'required' | 'optional'; ifNoneMatch?: true } = {};
  const filter: string[] = [];
  const requiredFilters: string[] = [];
  const sort: string[] = [];
  let sortParam: string | undefined;
  const leftover: ParamUse[] = [];
  const pageSizes: { op: string; default?: number; max?: number }[] = [];
  for (const { p, pointer } of src.params) {
    const name = String(p.name);
    const where = String(p.in);
    if (where === 'path') continue;
    if (where === 'header' && name.toLowerCase() === DEFAULT_IDEMPOTENCY_HEADER.toLowerCase()) {
      // The format's key is any text: what the document says of its value is dropped, and said (once).
      const schema = isObject(p.schema) ? resolve(ctx, p.schema, '').node : undefined;
      // A minLength of 1 is the format's own (a key is non-empty text), which the export writes.
      const stated = isObject(schema) ? KEY_CONSTRAINTS.filter((k) => schema[k] !== undefined && !(k === 'minLength' && Number(schema[k]) <= 1)) : [];
      if (!ctx.idempotencyKeySaid && stated.length > 0) {
        ctx.idempotencyKeySaid = true;
        report(
          ctx,
          'import-dropped',
          {
            item: `header parameter \`${name}\`: ${stated.map((k) => `${k} ${JSON.stringify((schema as Record<string, unknown>)[k])}`).join(', ')}`,
            reason:
              'the format reads it as the idempotency key (`endpoints.idempotency`), which takes any non-empty text: its length, pattern and format are not stated there',
          },
          joinPointer(pointer, 'schema'),
        );
      }
      ctx.idempotencyHeader ??= name;
      ctx.idempotencyOps.add(src.id);
      continue;
    }
    // Conditional requests (etag: true): If-Match of a one-object change, If-None-Match of a read, are the format's.
    const conditionalHeader = where === 'header' ? name.toLowerCase() : undefined;
    if (action !== 'custom' && (conditionalHeader === 'if-match' || conditionalHeader === 'if-none-match')) {
      if (conditionalHeader === 'if-match' && IF_MATCH_ACTIONS.has(action)) conditional.ifMatch = p.required === true ? 'required' : 'optional';
      else if (conditionalHeader === 'if-none-match' && action === 'read') conditional.ifNoneMatch = true;
      else
        report(
          ctx,
          'import-dropped',
          {
            item: `operation ${src.id}: header parameter \`${name}\``,
            reason: `the format honours If-Match on an update, replace, delete or transition and If-None-Match on a read, of a resource with etag: true; ${/^[aeiou]/.test(action) ? 'an' : 'a'} ${action} reads neither`,
          },
          pointer,
        );
      continue;
    }
    const carrier = ctx.carried.get(`${where} ${where === 'header' ? name.toLowerCase() : name}`);
    // An API key's parameter is its scheme's, unless the operation names other schemes only (redoc's `deletePet`,
    // secured by OAuth2, declares a header `api_key`): there it is a parameter of its own.
    const scheme = carrier === undefined ? undefined : /^security scheme (.+)$/.exec(carrier)?.[1];
    const security = Array.isArray(src.op.security) ? src.op.security : Array.isArray(ctx.doc.security) ? ctx.doc.security : [];
    if (carrier !== undefined && (scheme === undefined || security.length === 0 || security.some((r) => isObject(r) && Object.hasOwn(r, scheme)))) continue;
    if (where === 'cookie') {
      report(ctx, 'import-dropped', { item: `operation ${src.id}: cookie parameter \`${name}\``, reason: 'the format has no cookie parameters' }, pointer);
      continue;
    }
    if (where === 'header' && TRANSPORT_HEADERS.has(name.toLowerCase())) {
      report(
        ctx,
        'import-dropped',
        { item: `operation ${src.id}: header parameter \`${name}\``, reason: 'the runtime reads it itself (credentials, content negotiation, framing)' },
        pointer,
      );
      continue;
    }
    if (action === 'list' && where === 'query') {
      const s = flatten(ctx, p.schema, joinPointer(pointer, 'schema')).schema ?? {};
      if (paging.includes(name) && (name === size || name === LIST_PARAMS.limit || name === LIST_PARAMS.perPage)) {
        pageSizes.push({
          op: src.id,
          ...(typeof s.default === 'number' ? { default: s.default } : {}),
          ...(typeof s.maximum === 'number' ? { max: s.maximum } : {}),
        });
        continue;
      }
      if (paging.includes(name)) continue;
      // A list paged after an identifier (style after) runs in identifier order: no sort (check's paging-contradiction).
      // Read under the names frameworks give it (DRF's `ordering`, `order_by`, `sort_by`): one per list, the first.
      if (SORT_PARAM_NAMES.has(name) && sort.length === 0 && !idOrder) {
        // django-filter's OrderingFilter, as drf-spectacular writes it: an array of the orderings, comma-separated
        // (`style: form, explode: false`): `?ordering=-created` is one of them; several at once are not kept (below).
        const items = s.type === 'array' && p.explode === false ? (flatten(ctx, s.items, joinPointer(pointer, 'schema/items')).schema ?? {}) : undefined;
        const values = Array.isArray(s.enum) ? s.enum.map(String) : Array.isArray(items?.enum) ? items.enum.map(String) : [];
        // A write-only field is no sort (check's write-only-invalid): the parameter stays the operation's own.
        const sortable = (f: string) => Object.hasOwn(resourceFields, f) && resourceFields[f]!.writeOnly !== true;
        if (values.length > 0 && values.every((v) => sortable(v.replace(/^-/, '')))) {
          // Each field the values name, in both directions where both are listed, else with its one direction
          // (`+created_at`: the enum lists created_at and not -created_at).
          for (const v of values) {
            const f = v.replace(/^-/, '');
            if (sort.some((x) => x.replace(/^[+-]/, '') === f)) continue;
            const up = values.includes(f);
            const down = values.includes(`-${f}`);
            sort.push(up && down ? f : up ? `+${f}` : `-${f}`);
          }
          if (name !== LIST_PARAMS.sort) sortParam = name;
          if (items !== undefined)
            report(
              ctx,
              'import-approximated',
              {
                item: `operation ${src.id}: query parameter \`${name}\` (a comma-separated list of orderings)`,
                as: 'the list sort, one ordering a request',
                reason: 'a list sorts by one field: a request naming several (`-created,title`) is refused',
              },
              joinPointer(pointer, 'schema'),
            );
          continue;
        }
      }
      // A parameter named after a field is its filter, unless the field's type cannot be filtered on (check:
      // filter-type-invalid): then it stays the operation's own. A `sort` naming no field to sort by is no filter on
      // a field `sort` (Vimeo's album has one): every list reads its `sort` itself (check's wire-name-clash).
      if (
        name !== LIST_PARAMS.sort &&
        Object.hasOwn(resourceFields, name) &&
        !UNFILTERABLE_TYPES.has(String(resourceFields[name]!.type)) &&
        resourceFields[name]!.writeOnly !== true &&
        isFilterTypeOf(resourceFields[name]!, s)
      ) {
        filter.push(name);
        // A required parameter (`required: true`) is a filter every request must send.
        if (p.required === true) requiredFilters.push(name);
        // A filter compares for equality and applies only where sent: a default (GitHub's `state=open`) and values
        // the field does not hold (`state=all`) are the document's rules the filter does not keep.
        const field = resourceFields[name]!;
        const extra = Array.isArray(s.enum) && field.type === 'enum' ? s.enum.filter((v) => !(field.values ?? []).includes(v as never)) : [];
        if (s.default !== undefined || extra.length > 0)
          report(
            ctx,
            'import-approximated',
            {
              item: `operation ${src.id}: query parameter \`${name}\` (${[
                ...(s.default !== undefined ? [`default ${JSON.stringify(s.default)}`] : []),
                ...(extra.length > 0 ? [`${extra.map((v) => JSON.stringify(v)).join(', ')}, which the field does not hold`] : []),
              ].join('; ')})`,
              as: `the filter on its resource's field \`${name}\``,
              reason:
                'a filter compares the field for equality and applies only where a request sends it: served, a list without it answers every object, and a value the field does not hold is refused',
            },
            joinPointer(pointer, 'schema'),
          );
        continue;
      }
    }
    leftover.push({ p, pointer, name, where });
  }
  return {
    filter,
    requiredFilters,
    sort,
    ...(sortParam !== undefined ? { sortParam } : {}),
    leftover,
    ...(action === 'list' ? { pageSizes } : {}),
    ...conditional,
  };
}

/** The parameters resource actions declare, by place and name (a header's in lower case): the operations and the first one's pointer. */
const actionParams = new WeakMap<Ctx, Map<string, { label: string; ops: string[]; pointer: string }>>();

function noteActionParam(ctx: Ctx, op: string, l: ParamUse): void {
  const said = actionParams.get(ctx) ?? actionParams.set(ctx, new Map()).get(ctx)!;
  const key = `${l.where} ${l.where === 'header' ? l.name.toLowerCase() : l.name}`;
  const seen = said.get(key);
  if (seen) seen.ops.push(op);
  else said.set(key, { label: `${l.where} parameter \`${l.name}\``, ops: [op], pointer: l.pointer });
}

/**
 * A parameter a resource action declares is validated and not otherwise used (docs/format.md, "Parameters"): what
 * the document says it does (Xero's tenant, a filter on a name no field has) is not served. Said once per parameter,
 * at its first operation's, naming every operation that declares it.
 */
function reportActionParams(ctx: Ctx): void {
  for (const { label, ops, pointer } of actionParams.get(ctx)?.values() ?? []) {
    const shown = ops.length > 5 ? `${ops.slice(0, 5).join(', ')} and ${ops.length - 5} more` : ops.join(', ');
    report(
      ctx,
      'import-approximated',
      {
        item: `${label} of operation${ops.length > 1 ? 's' : ''} ${shown}`,
        as: 'a declared parameter of the resource action',
        reason:
          'the service checks it (a required one left out, or a value its schema refuses, is answered validation) and does not otherwise use its value: what the document says it does is not served',
      },
      pointer,
    );
  }
}

/** The parameters an exported built-in action declares (x-servicespec-operation's `query` and `headers`), of those left. */
function declaredOfExport(x: Json, leftover: readonly ParamUse[]): ParamUse[] {
  const names = (k: string) => new Set(Array.isArray(x[k]) ? x[k].map(String) : []);
  const query = names('query');
  const headers = new Set([...names('headers')].map((h) => h.toLowerCase()));
  return leftover.filter((l) => (l.where === 'query' ? query.has(l.name) : l.where === 'header' && headers.has(l.name.toLowerCase())));
}

const PARAMETER_KEYS = new Set(['type', 'description', 'optional', 'default', 'example', 'values', 'items', 'deprecated', ...FIELD_BOUND_KEYS, 'uniqueItems']);

function asParameter(f: FieldSpec): ParameterSpec {
  const out: Json = {};
  for (const [k, v] of Object.entries(f as unknown as Json))
    if (PARAMETER_KEYS.has(k) && v !== undefined) out[k] = k === 'items' ? asParameter(v as FieldSpec) : v;
  return out as unknown as ParameterSpec;
}

/** A query or header parameter of a custom operation, in the format's vocabulary; undefined (reported) when it has none. */
function parameterFromOpenApi(ctx: Ctx, src: OpSource, use: ParamUse): ParameterSpec | undefined {
  const { p, pointer, name, where } = use;
  const item = use.label ?? `operation ${src.id}: ${where} parameter \`${name}\``;
  const drop = (reason: string) => {
    report(ctx, 'import-dropped', { item, reason }, pointer);
    return undefined;
  };
  if (where === 'query' && !/^(?!__proto__$)[^\s&=#]+$/.test(name)) return drop('a query parameter name has no whitespace, `&`, `=` or `#`');
  if (where === 'header' && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return drop('a header name is an HTTP token');
  let schemaNode: unknown = p.schema;
  let schemaPointer = joinPointer(pointer, 'schema');
  let asText = false;
  if (schemaNode === undefined && isObject(p.content)) {
    const mediaType = Object.keys(p.content)[0];
    const m = mediaType !== undefined ? p.content[mediaType] : undefined;
    schemaNode = isObject(m) ? m.schema : undefined;
    schemaPointer = joinPointer(joinPointer(joinPointer(pointer, 'content'), mediaType ?? ''), 'schema');
    asText = true;
  }
  const f =
    schemaNode === undefined ? ({ type: 'string' } as FieldSpec) : fieldFromSchema(ctx, schemaNode, schemaPointer, { where: item, depth: 1, stack: [] });
  const scalar = (t: string) => (PARAMETER_TYPES as readonly string[]).includes(t) && t !== 'array';
  let param: ParameterSpec;
  if (scalar(f.type) || (f.type === 'array' && f.items !== undefined && scalar(f.items.type))) param = asParameter(f);
  else if (asText) {
    report(
      ctx,
      'import-approximated',
      { item, as: 'type string', reason: 'a parameter whose value is a JSON document reaches the handler as its text' },
      pointer,
    );
    param = { type: 'string' };
  } else
    return drop(
      `its schema (${f.type === 'array' ? `an array of ${f.items?.type ?? 'anything'}` : f.type}) cannot be written as the text of a ${where} parameter`,
    );
  if (param.type === 'array' && where === 'query' && ((p.style !== undefined && p.style !== 'form') || p.explode === false)) {
    report(
      ctx,
      'import-approximated',
      {
        item,
        as: 'a repeated parameter (name=a&name=b)',
        reason: `style ${String(p.style ?? 'form')}${p.explode === false ? ', explode false' : ''} has no equivalent`,
      },
      pointer,
    );
  }
  const out: Json = { type: param.type };
  const description = str(p.description) ?? param.description;
  if (description !== undefined) out.description = description;
  if (p.required !== true) out.optional = true;
  for (const [k, v] of Object.entries(param)) if (!(k in out) && k !== 'description') out[k] = v;
  if (p.example !== undefined && out.example === undefined) {
    const problem = getValueProblem({ ...(out as Pick<FieldModel, 'type'>), nullable: false }, p.example);
    if (problem === undefined) out.example = p.example;
    else
      report(ctx, 'import-dropped', { item: `${item}: example ${JSON.stringify(p.example) ?? ''}`, reason: `it breaks its own schema (${problem})` }, pointer);
  }
  if (p.deprecated === true) out.deprecated = true;
  return out as unknown as ParameterSpec;
}

function importEndpoints(ctx: Ctx): SpecDocument['endpoints'] {
  const out: Json = {};
  const servers = Array.isArray(ctx.doc.servers) ? ctx.doc.servers : [];
  const first = servers[0];
  if (isObject(first) && typeof first['x-servicespec-base-url'] === 'string') out.base_url = first['x-servicespec-base-url'];
  else if (isObject(first) && typeof first.url === 'string' && first['x-servicespec-not-shown'] !== true && first.url !== '') out.base_url = first.url;
  if (servers.length > 1) report(ctx, 'import-dropped', { item: `servers 2–${servers.length}`, reason: 'a spec has one base address' }, '/servers/1');
  const idem = ext<Json>(ctx.doc, 'x-servicespec-idempotency');
  if (isObject(idem)) out.idempotency = { ...idem };
  const envelope = ext<Json>(ctx.doc, 'x-servicespec-envelope');
  if (isObject(envelope)) out.envelope = { ...envelope };

  const sources: OpSource[] = [];
  const ids = new UniqueNames('_');
  // Each route taken (method and path shape) → the operation and path key that took it.
  const routes = new Map<string, { id: string; rawPath: string }>();
  const paths = isObject(ctx.doc.paths) ? ctx.doc.paths : {};
  for (const [rawPath, rawItem] of Object.entries(paths)) {
    const itemPointer = joinPointer('/paths', rawPath);
    const item = resolve(ctx, rawItem, itemPointer).node;
    if (!isObject(item)) continue;
    // A path key with a query (openai-openapi's `/responses?beta=true` beside `/responses`): OpenAPI's path is the
    // path alone, and no route can hold the query part (the served path would never be matched, or not even start).
    if (/[?#]/.test(rawPath)) {
      const ops = METHODS.filter((m) => isObject(item[m])).map((m) => m.toUpperCase());
      report(
        ctx,
        'import-dropped',
        {
          item: `${ops.length > 0 ? ops.join(', ') : 'path'} ${rawPath}`,
          reason: `a path holds no query or fragment (\`${rawPath.slice(rawPath.search(/[?#]/))}\`): an operation told apart by one cannot be served beside the operation on the path itself`,
        },
        itemPointer,
      );
      continue;
    }
    // A path naming one parameter twice (readme's oas-examples `/anything/{id}/{action}/{id}`): one name cannot hold
    // two segments, so no route can be served for it, and check refuses it (invalid-path); the rest is still imported.
    const templateNames = [...rawPath.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
    const twice = templateNames.find((n, i) => templateNames.indexOf(n) !== i);
    if (twice !== undefined) {
      const ops = METHODS.filter((m) => isObject(item[m])).map((m) => m.toUpperCase());
      report(
        ctx,
        'import-dropped',
        {
          item: `${ops.length > 0 ? ops.join(', ') : 'path'} ${rawPath}`,
          reason: `the path names parameter \`${twice}\` twice: one parameter cannot hold two segments, so no route serves it`,
        },
        itemPointer,
      );
      continue;
    }
    let path = rawPath;
    if (ctx.versionPrefix !== undefined && path.startsWith(ctx.versionPrefix)) path = path.slice(ctx.versionPrefix.length) || '/';
    // A path parameter's name is not on the wire (its segment is): one the format cannot hold ({intent-id}) is renamed.
    const renamed = plainPathParams(ctx, path, itemPointer);
    path = renamed.path;
    // the document's own order of methods, so operations (and what an export names after them) keep it
    for (const m of Object.keys(item).filter((k): k is (typeof METHODS)[number] => (METHODS as readonly string[]).includes(k))) {
      const op = item[m];
      if (!isObject(op)) continue;
      const pointer = joinPointer(itemPointer, m);
      if (typeof op['x-servicespec-route'] === 'string') continue; // token, stream, webhooks: built in, rebuilt from the spec
      const method = m.toUpperCase() as HttpMethod;
      const rawId = str(op.operationId);
      const id = ids.take(rawId !== undefined ? toOperationId(rawId) : toIdentifier(`${m} ${rawPath}`));
      if (!(HTTP_METHODS as readonly string[]).includes(method)) {
        report(ctx, 'import-dropped', { item: `${method} ${rawPath}`, reason: 'the format has operations for GET, POST, PUT, PATCH and DELETE' }, pointer);
        continue;
      }
      // The token endpoint a client-credentials scheme names (its tokenUrl), documented as an operation as well
      // (sakari's POST /oauth2/token taking { grant_type, client_id, client_secret } as JSON): the service serves that
      // path itself, as the scheme says (RFC 6749), so the operation cannot be served beside it.
      const tokenOf = method === 'POST' ? ctx.tokenPaths?.get(routeShape(path)) : undefined;
      if (tokenOf !== undefined) {
        report(
          ctx,
          'import-dropped',
          {
            item: `operation ${rawId ?? id} (POST ${rawPath})`,
            reason: `it is the token endpoint of security scheme ${tokenOf} (its tokenUrl), which the service serves itself as RFC 6749 says (a form-encoded client_credentials grant answered with an access_token): the operation's own request and answer are not kept`,
          },
          pointer,
        );
        continue;
      }
      if (rawId !== undefined && id !== rawId)
        report(
          ctx,
          'import-renamed',
          { what: 'operation', from: rawId, to: id, reason: 'operation ids have no control characters and no surrounding spaces' },
          joinPointer(pointer, 'operationId'),
        );
      // Two path keys differing only in their parameters' names (Trello's /boards/{idBoard}/cards/{filter} and
      // /boards/{idBoard}/cards/{idCard}) are one path, which OpenAPI says must not be (Paths Object: templated paths
      // with the same hierarchy but different templated names are identical): one route answers one operation.
      const route = `${method} ${routeShape(path)}`;
      const taken = routes.get(route);
      if (taken !== undefined) {
        report(
          ctx,
          'import-dropped',
          {
            item: `operation ${rawId ?? id} (${method} ${rawPath})`,
            reason: `${method} ${taken.rawPath} (operation ${taken.id}) is the same route, its path parameters named otherwise: no request can tell the two apart, and the first is kept`,
          },
          pointer,
        );
        continue;
      }
      routes.set(route, { id: rawId ?? id, rawPath });
      const params = paramsOf(ctx, item, op, pointer, itemPointer).map((x) =>
        x.p.in === 'path' && renamed.names.has(String(x.p.name)) ? { ...x, p: { ...x.p, name: renamed.names.get(String(x.p.name)) } } : x,
      );
      sources.push({ id, method, path, rawPath, pointer, op, params });
    }
  }

  const prepared = sources.map((src) => {
    const success = successOf(ctx, src);
    const response =
      success.schema !== undefined ? shapeFromSchema(ctx, success.schema, success.pointer ?? src.pointer, `operation ${src.id} response`, 'top') : undefined;
    // An answer in an envelope (import-envelope.ts) is read as its data; the whole answer stays a custom operation's.
    const candidate =
      success.schema !== undefined && src.op['x-servicespec-operation'] === undefined
        ? readEnvelopeCandidate(ctx, success.schema, success.pointer ?? src.pointer, pageSizeMaximum(ctx, src))
        : undefined;
    if (candidate === undefined) return { src, success, response, whole: { success, response } };
    if (hasNextCursorField(candidate)) nextInEnvelope.add(src);
    return {
      src,
      success: { ...success, schema: candidate.dataNode, pointer: candidate.dataPointer },
      response: candidate.dataShape,
      whole: { success, response },
      candidate,
    };
  });
  if (!ctx.fromServicespec) identifiersFromPaths(ctx, prepared);
  // The resources a POST answers with (what the API makes): only those are read by a key unique together.
  for (const { src, response } of prepared) if (src.method === 'POST' && response?.resource !== undefined && !response.list) ctx.made.add(response.resource);
  ctx.madeAt = new Map();
  for (const { src, response } of prepared)
    if (response?.resource !== undefined && !response.list && (src.method === 'POST' || (src.method === 'PUT' && ctx.upsertPuts?.has(src.id))))
      ctx.madeAt.set(response.resource, [...(ctx.madeAt.get(response.resource) ?? []), src.method === 'PUT' ? UPSERT : src.path]);
  // Which resource an item path names, so a DELETE on it can be recognised.
  const family = getPathFamily(prepared, ctx);
  ctx.family = family;

  const operations: Record<string, OperationSpec> = {};
  const locations: { operation: string; resource: string | undefined; pointer: string }[] = [];
  const unstated: { operation: string; resource: unknown; pointer: string }[] = [];
  const handlerNames = new UniqueNames('_');
  const enveloped = new Map<string, EnvelopeSpec>();
  for (const prepare of prepared) {
    const { src } = prepare;
    let { success, response } = prepare;
    const op = src.op;
    const x = ext<Json>(op, 'x-servicespec-operation');
    let req = requestOf(ctx, src, true);
    if (req) ctx.bodyOperations.add(src.id);
    let request = req ? shapeFromSchema(ctx, req.schema, req.pointer, `operation ${src.id} request`, 'nested') : undefined;
    if (req && !request)
      report(ctx, 'import-dropped', { item: `operation ${src.id}: the request body`, reason: 'it is not an object or a resource' }, req.pointer);
    if (req?.form && request) request = formRequest(ctx, src.id, request, req.pointer);
    const o: Json = { method: src.method, path: src.path };
    let action: Action;
    let page: PageShape | undefined;
    let declare: (() => void) | undefined;
    if (x && typeof x.action === 'string' && (ACTIONS as readonly string[]).includes(x.action)) {
      action = x.action as Action;
      o.action = action;
      for (const k of ['resource', 'transition']) if (typeof x[k] === 'string') o[k] = x[k];
      // servicespec's own export carries the path bindings as written.
      if (isObject(x.bind) && Object.values(x.bind).every((v) => typeof v === 'string')) o.bind = { ...x.bind };
    } else {
      if (x)
        report(
          ctx,
          'import-extension-invalid',
          { extension: 'x-servicespec-operation', where: src.pointer, detail: 'its `action` is missing or unknown' },
          src.pointer,
        );
      const form = request?.media_type !== undefined;
      let inferred: ReturnType<typeof inferAction> = form
        ? { action: 'custom', reason: `its request is a form (${FORM_MEDIA_TYPE}); a resource action reads JSON` }
        : inferAction(ctx, src, success, response, request, family);
      // An answer adding optional members beside a resource (import-answer-beside.ts): that resource's action, said.
      if (inferred.action === 'custom' && !form && response?.fields !== undefined && success.schema !== undefined) {
        const beside = readResourceBeside(ctx, success.schema, success.pointer ?? src.pointer);
        const as = beside && inferAction(ctx, src, success, { resource: beside.resource }, request, family);
        if (beside && as && as.action !== 'custom') {
          response = { resource: beside.resource };
          inferred = as;
          for (const m of beside.added)
            report(
              ctx,
              'import-approximated',
              {
                item: `operation ${src.id}: the answer's member \`${m.name}\`, added beside ${beside.resource}`,
                as: `${beside.resource}'s answer without it`,
                reason: `the document makes it optional and states no value for it, so the service answers ${beside.resource} as it is; ${beside.resource} leaves its object open to other members (answer_members: open), so an implementation answering it holds to the contract`,
              },
              m.pointer,
            );
        }
      }
      // Enveloped only as a resource action the envelope can be written for; otherwise read as the whole answer.
      if (prepare.candidate && form) {
        ({ success, response } = prepare.whole);
        pages.delete(src);
        nextInEnvelope.delete(src);
      } else if (prepare.candidate) {
        const envelope = inferred.action === 'custom' ? undefined : toEnvelope(prepare.candidate, inferred.action, inferred.page?.paging?.style);
        if (envelope) {
          enveloped.set(src.id, envelope);
          forgetConstantApproximations(ctx, prepare.whole.success, envelope);
          sayUnwritten(ctx, src.id, envelope, prepare.whole.success);
          if (prepare.candidate.optional)
            report(
              ctx,
              'import-approximated',
              {
                item: `operation ${src.id}: the answer's \`${prepare.candidate.data}\``,
                as: 'the envelope holding the object, always present',
                reason: 'the document leaves the member optional; an answer without it would hold no object',
              },
              prepare.candidate.dataPointer,
            );
        } else if (inferred.action === 'custom') {
          // Custom either way: why, as the whole answer and as its data say (a resource with no identifier).
          const inData = inferred.reason;
          ({ success, response } = prepare.whole);
          pages.delete(src);
          nextInEnvelope.delete(src);
          inferred = inferAction(ctx, src, success, response, request, family);
          if (inferred.action === 'custom' && inData !== undefined)
            inferred = {
              ...inferred,
              reason: `${inferred.reason ?? 'no resource action fits'}; read as an envelope holding ${prepare.candidate.dataShape.resource ?? `a page of ${prepare.candidate.listed!}`} in \`${prepare.candidate.data}\`, ${inData}`,
            };
        } else {
          ({ success, response } = prepare.whole);
          pages.delete(src);
          nextInEnvelope.delete(src);
          inferred = inferAction(ctx, src, success, response, request, family);
        }
      }
      if (inferred.action === 'custom' && !prepare.candidate && prepare.whole.success.schema !== undefined && !ctx.fromServicespec) {
        // `{ success: boolean, data }`: an envelope but for the value of `success`, which the document does not state.
        const near = getUnstatedWrapperMembers(ctx, prepare.whole.success.schema, prepare.whole.success.pointer ?? src.pointer);
        if (near !== undefined) {
          const names = near.members.map((m) => `\`${m.name}\` (${m.pointer})`).join(', ');
          inferred = {
            ...inferred,
            reason: `${inferred.reason ?? 'no resource action fits'}; it holds ${near.holds} in \`${near.data}\` beside ${names}, whose value the document does not state (a member of one value, \`enum: [true]\`, is a constant of an envelope the runtime writes)`,
          };
        }
      }
      action = inferred.action;
      o.action = action;
      if (inferred.resource !== undefined) o.resource = inferred.resource;
      page = inferred.page;
      if (inferred.bind) o.bind = inferred.bind;
      // Declared once the operation stays a resource action (its parameters below may make it custom).
      const r = inferred.resource;
      if (r !== undefined && (inferred.key || inferred.unique !== undefined || inferred.bind))
        declare = () => {
          if (inferred.parent !== undefined) declareParent(ctx, r, inferred.parent, src);
          if (inferred.key) declareUniqueKey(ctx, r, inferred.key, src);
          if (inferred.unique !== undefined) declareUnique(ctx, r, inferred.unique, src);
          if (inferred.bind) sayBoundTypes(ctx, src, r, inferred.bind);
        };
      if (action === 'custom') report(ctx, 'import-custom-operation', { operation: src.id, reason: inferred.reason ?? 'no resource action fits' }, src.pointer);
    }
    // A summary the exporter said in words for want of one in the spec (`derived`) is not the spec's.
    const derived = x && Array.isArray(x.derived) ? x.derived.map(String) : [];
    if (typeof op.summary === 'string' && !derived.includes('summary')) o.summary = op.summary;
    const description = withoutRules(str(op.description));
    // An empty description says nothing (the export writes none for it): read as none, so a round trip keeps it so.
    if (description !== undefined && description !== '') o.description = description;
    // Parameters: a list's paging, sort and filters; what another part carries (idempotency key, API key, version);
    // a custom operation's own query and headers. An action that cannot take an operation's parameters is not chosen.
    const resourceFields = typeof o.resource === 'string' ? (ctx.resourceFields.get(o.resource) ?? {}) : {};
    // An exported built-in action's parameters are the format's own (rebuilt from the spec), but for those it
    // declares (x-servicespec-operation's `query` and `headers`, by name).
    let plan =
      x && action !== 'custom'
        ? { filter: [], requiredFilters: [], sort: [], leftover: declaredOfExport(x, planParams(ctx, src, 'custom', {}).leftover) }
        : planParams(ctx, src, action, resourceFields, page?.params, page?.size, page?.paging?.style === 'after');
    // A resource action declares the other query parameters and headers as its own (Xero's `Xero-Tenant-Id`,
    // Kubernetes' `pretty`): the service validates them and does not otherwise use them. Only a name the action
    // reads itself cannot be one: a list's `sort` whose values name no field of its resource.
    // (A list whose sort is read under another name, `sort_param`, does not read `sort`.)
    const ownParam = (l: ParamUse) => !(action === 'list' && l.where === 'query' && l.name === LIST_PARAMS.sort && !('sortParam' in plan));
    const unread = !x && action !== 'custom' ? plan.leftover.filter((l) => !ownParam(l)) : [];
    // A list-shaped answer stays a list (served, not a custom operation answering not_implemented): an optional
    // `sort` it cannot read is left out, said with what the service does (it refuses a request that sends it).
    if (unread.length > 0 && unread.every((l) => l.where === 'query' && l.p.required !== true)) {
      for (const l of unread)
        report(
          ctx,
          'import-dropped',
          {
            item: `operation ${src.id}: query parameter \`${l.name}\``,
            reason:
              page?.paging?.style === 'after'
                ? 'a list paged after an identifier (`starting_after`) runs in identifier order: it takes no `sort`; the service refuses a request that sends it'
                : "a list's `sort` takes the names of its resource's fields, and its values name none (nor is it a filter: every list reads `sort` itself); the service refuses a request that sends it",
          },
          l.pointer,
        );
      plan = { ...plan, leftover: plan.leftover.filter(ownParam) };
    }
    if (!x && action !== 'custom' && plan.leftover.some((l) => !ownParam(l))) {
      const names = plan.leftover
        .filter((l) => !ownParam(l))
        .map((l) => `\`${l.name}\``)
        .join(', ');
      const takes = "a list reads its `sort` itself, which takes the names of its resource's fields";
      action = 'custom';
      o.action = action;
      delete o.resource;
      delete o.bind;
      declare = undefined;
      report(
        ctx,
        'import-custom-operation',
        { operation: src.id, reason: `its parameters ${names} are not a resource action's (${takes}); as a custom operation it keeps them` },
        src.pointer,
      );
      plan = planParams(ctx, src, action, {});
    }
    // The page sizes of an operation that stays a list (its other query parameters dropped, each said): Shopify's
    // `limit` default 50 and maximum 250 beside a `page_info` the format cannot read.
    if (action === 'list' && plan.pageSizes) ctx.pageSizes.push(...plan.pageSizes);
    declare?.();
    // A request wrapper stays where a resource action takes the body it holds; elsewhere the body is read whole.
    if (req?.wrap !== undefined) {
      if (REQUEST_ENVELOPED_ACTIONS.has(action) && typeof o.resource === 'string') o.request_envelope = { data: req.wrap.data };
      else {
        req = { ...req, schema: req.wrap.schema, pointer: req.wrap.pointer };
        delete req.wrap;
        request = shapeFromSchema(ctx, req.schema, req.pointer, `operation ${src.id} request`, 'nested');
      }
    }
    if (action !== 'custom' && typeof o.resource === 'string' && !ctx.fromServicespec)
      ctx.conditional.push({
        resource: o.resource,
        op: src.id,
        action,
        pointer: src.pointer,
        ifMatch: plan.ifMatch !== undefined,
        ifNoneMatch: plan.ifNoneMatch === true,
        ...(ctx.notModified?.has(src.id) === true ? { notModified: true } : {}),
      });
    // If-Match / If-None-Match taken by a resource action: its resource takes conditional requests.
    if (action !== 'custom' && typeof o.resource === 'string' && (plan.ifMatch !== undefined || plan.ifNoneMatch)) {
      ctx.etagResources.add(o.resource);
      if (plan.ifMatch === 'required') o.if_match = 'required';
    }
    if (x && x.if_match === 'required' && typeof o.resource === 'string' && IF_MATCH_ACTIONS.has(action)) o.if_match = 'required';
    if (ctx.notModified?.has(src.id) && action !== 'read')
      report(
        ctx,
        'import-dropped',
        { item: `operation ${src.id}: the 304 response`, reason: `a 304 answers If-None-Match on a read; a ${action} answers none` },
        ctx.notModified.get(src.id)!,
      );
    else if (ctx.notModified?.has(src.id) && typeof o.resource === 'string') ctx.etagResources.add(o.resource);
    // Each left: a custom operation's own query and headers, or a resource action's (validated, not otherwise used).
    if (!x || x.action === action) {
      for (const l of plan.leftover) {
        const param = parameterFromOpenApi(ctx, src, l);
        if (param === undefined) continue;
        const into = l.where === 'query' ? 'query' : 'headers';
        const bag = (o[into] ??= {}) as Record<string, ParameterSpec>;
        if (l.where === 'header' && Object.keys(bag).some((k) => k.toLowerCase() === l.name.toLowerCase())) {
          report(
            ctx,
            'import-dropped',
            {
              item: `operation ${src.id}: header parameter \`${l.name}\``,
              reason: 'another header of the operation has the same name in another case (header names are compared without regard to case)',
            },
            l.pointer,
          );
          continue;
        }
        bag[l.name] = param;
        if (!x && action !== 'custom') noteActionParam(ctx, src.id, l);
      }
    }
    if (req && (action === 'create' || action === 'replace') && typeof o.resource === 'string') noteWriteOnlyRequired(ctx, src.id, o.resource, req);
    if (!ctx.fromServicespec && req && (action === 'create' || action === 'replace') && typeof o.resource === 'string')
      keepRequestRequired(ctx, src.id, o.resource, req, action === 'create');
    else if (!ctx.fromServicespec && req && action === 'update' && typeof o.resource === 'string') reportUpdateRequired(ctx, src.id, o.resource, req);
    if (!ctx.fromServicespec && req && (action === 'create' || action === 'replace' || action === 'update') && typeof o.resource === 'string')
      keepRequestNulls(ctx, src.id, o.resource, req, action);
    let subset: string[] | undefined;
    if (!ctx.fromServicespec && !x && req && request && (action === 'create' || action === 'replace' || action === 'update') && typeof o.resource === 'string')
      subset = requestSubset(ctx, src.id, action, o.resource, request, req.pointer, o.bind as Record<string, string> | undefined);
    const { filter, requiredFilters, sort } = plan;
    if (x) {
      for (const k of ['filter', 'required_filters', 'sort', 'request_fields', 'answer_fields'])
        if (Array.isArray(x[k])) o[k] = (x[k] as unknown[]).map(String);
      if (typeof x.sort_param === 'string') o.sort_param = x.sort_param;
      if (action === 'list' && isObject(x.paging)) o.paging = x.paging;
    } else {
      if (action === 'list' && page?.paging) o.paging = page.paging;
      if (action === 'list' && page?.summary) {
        o.answer_fields = page.summary.fields;
        reportSummary(ctx, src.id, String(o.resource), page.summary.approximated);
      }
      // A next cursor the document leaves out of the last page (optional, not nullable) is `next_optional`; an
      // envelope's next (`envelope.next`) says so by its own field.
      if (action === 'list' && page?.nextOptional && !enveloped.has(src.id)) o.paging = { ...page.paging, next_optional: true };
      // A list's page or envelope component (`ShipmentPage: { items: [Shipment], total }`) is the list's answer, held
      // by its paging or envelope: no resource of its own unless something else names it (`dropAbsorbed`).
      const wrapper = enveloped.has(src.id) ? prepare.whole.response : page?.paging?.body === undefined ? response : undefined;
      // So is a one-object answer's wrapper component (Shopify's ProductEnvelope: `{ product: Product }`), held by
      // the envelope, and a request's (request_envelope).
      const requestWrapper = o.request_envelope !== undefined && req?.wrap ? wrapperResource(ctx, req.wrap.schema, req.wrap.pointer) : undefined;
      // An enveloped answer's component (`ArticleAnswer: { success, data: Article }`) is held by the envelope, and an
      // enveloped list's page component (`{ status, data: PageArticle }`) by its paging, as a bare page's is.
      const pageInEnvelope = enveloped.has(src.id) && action === 'list' && page?.paging?.body === undefined ? response : undefined;
      const held = [
        ...((action === 'list' || enveloped.has(src.id)) && wrapper?.resource !== undefined && !wrapper.list ? [wrapper.resource] : []),
        ...(pageInEnvelope?.resource !== undefined && !pageInEnvelope.list ? [pageInEnvelope.resource] : []),
        ...(requestWrapper !== undefined ? [requestWrapper] : []),
      ];
      for (const name of held)
        if (name !== o.resource) {
          (ctx.absorbed ??= new Set()).add(name);
          (ctx.wrappers ??= new Set()).add(name);
          // The components only the page holds (Spring's PageableObject and SortObject): no resources either,
          // unless something else names them (dropAbsorbed).
          for (const inner of componentsWithin(ctx, name, typeof o.resource === 'string' ? o.resource : undefined)) ctx.absorbed.add(inner);
        }

      if (filter.length > 0) o.filter = filter;
      if (requiredFilters.length > 0) o.required_filters = requiredFilters;
      if (sort.length > 0) o.sort = sort;
      if (sort.length > 0 && plan.sortParam !== undefined) o.sort_param = plan.sortParam;
      if (subset !== undefined) o.request_fields = subset;
    }
    // A delete whose success response is the object it deleted answers it (\`response\`), where the format's answers nothing.
    const deletedAnswer =
      action === 'delete' && (x ? isObject(x.response) : success.hasContent && response?.resource === o.resource && response?.list !== true);
    if (deletedAnswer && !x) o.response = { resource: o.resource as string };
    if (success.range !== undefined) o.status = success.range;
    else if (success.status !== undefined && success.status !== getDefaultSuccessStatus(action, deletedAnswer)) o.status = success.status;
    if (success.status === undefined)
      report(
        ctx,
        'import-dropped',
        { item: `operation ${src.id}: its success response`, reason: 'it declares no 2xx status' },
        joinPointer(src.pointer, 'responses'),
      );
    // A list turned custom by its parameters answers the whole document's answer, not its data.
    if (action === 'custom' && enveloped.delete(src.id)) response = prepare.whole.response;
    if (x) {
      if (isObject(x.request) || x.request === 'none') o.request = x.request;
      else if (action === 'custom' && request) o.request = request;
      if (isObject(x.response)) o.response = x.response;
      else if (action === 'custom' && response) o.response = response;
      if (typeof x.handler === 'string') o.handler = x.handler;
    } else if (action === 'custom') {
      if (request) o.request = pathParamsInRequest(ctx, src, request);
      // No requestBody: the operation takes none (a POST to /pay), stated, not a gap.
      else if (src.op.requestBody === undefined && src.method !== 'GET' && src.method !== 'DELETE') o.request = 'none';
      if (response) o.response = response;
      // A handler is named in code: the operation id as an identifier (`find pet by id` → findPetById).
      o.handler = handlerNames.take(toIdentifier(src.id));
    }
    if (op.security !== undefined) {
      const auth = requirement(ctx, op.security, op, joinPointer(src.pointer, 'security'));
      if (auth !== undefined) o.auth = auth;
    }
    const errors = errorsOf(ctx, src);
    if (x) {
      if (Array.isArray(x.errors)) o.errors = x.errors.map(String);
    } else if (errors.length > 0) o.errors = errors;
    if (x && typeof x.idempotent === 'boolean') o.idempotent = x.idempotent;
    if (x && typeof x.location === 'boolean') o.location = x.location;
    if (x && x.upsert === true) o.upsert = true;
    const made = x ? undefined : ctx.upsertPuts?.get(src.id);
    // The 201 of a PUT on an item path: a replace that creates under the path's id, so the client gives identifiers.
    if (made !== undefined && action === 'replace' && typeof o.resource === 'string' && o.bind === undefined) {
      o.upsert = true;
      clientIdentifier(ctx, o.resource);
      // A read-only id (`id: { readOnly: true }`, no body sends it) is the client's all the same: its PUT path names it.
      const spec = ctx.resourceSpecs[o.resource];
      const id = spec?.fields?.[spec.identifier ?? ctx.resourceIdentifier.get(o.resource) ?? DEFAULT_IDENTIFIER_FIELD] as (FieldSpec & Json) | undefined;
      if (id?.readOnly === true) delete id.readOnly;
      // Its 201 declaring no Location: the answer stays as declared (`location: false`), as a create's does.
      const created = resolve(ctx, isObject(op.responses) ? op.responses['201'] : undefined, '').node;
      const headers = isObject(created) && isObject(created.headers) ? Object.keys(created.headers) : [];
      if (!headers.some((h) => h.toLowerCase() === 'location')) o.location = false;
    } else if (made !== undefined)
      report(
        ctx,
        'import-dropped',
        {
          item: `operation ${src.id}: the 201 response`,
          reason:
            action === 'replace'
              ? 'an operation has one success status, and a replace creates (upsert) only under the identifier its path names, not fields it binds'
              : `an operation has one success status, and a ${action} operation creates nothing`,
        },
        made,
      );
    if (x && typeof x.request_media_type === 'string') o.request_media_type = x.request_media_type;
    else if (!x) {
      const type = requestMediaTypeOf(action, req?.mediaType);
      if (type !== undefined) o.request_media_type = type;
    }
    // What the request does with a member it does not name, as the document says it, written both ways (the tester
    // then holds a server to the document's own rule): a servicespec export's as its spec stated it.
    if (x) {
      if (x.unknown_fields === 'refuse' || x.unknown_fields === 'ignore') o.unknown_fields = x.unknown_fields;
    } else if (req && !req.form && (action === 'create' || action === 'update' || action === 'replace') && typeof o.resource === 'string')
      o.unknown_fields = unknownFieldsOf(ctx, src.id, req.schema, req.pointer);
    // A custom operation's written-out request refuses a member it does not name (it has no unknown_fields): where
    // the document leaves the body open (JSON Schema's default), that is a rule the import adds, and said. A form's
    // too (serve refuses a name its form does not declare: Twilio's forms; before, not said).
    else if (req && action === 'custom' && isObject(o.request) && src.method !== 'GET' && src.method !== 'DELETE') {
      const parts = objectParts(ctx, req.schema, req.pointer);
      const top = parts[0]?.node;
      if (isObject(top) && (top.type === 'object' || isObject(top.properties)) && !isClosedObject(parts))
        report(
          ctx,
          'import-approximated',
          {
            item: `operation ${src.id}: its ${req.form ? 'form ' : ''}request body, an object the document leaves open`,
            as: 'a request refusing members it does not name',
            reason: "a custom operation's request is its written-out fields: a member it does not name is refused with the validation condition",
          },
          req.pointer,
        );
    }
    // The format has no optional JSON request body: a body read must be sent. Said where the document lets a request
    // leave it out (a form's absent body reads as no fields; a custom GET's or DELETE's body is not read: neither said).
    const readsBody =
      ((action === 'create' || action === 'update' || action === 'replace') && typeof o.resource === 'string') ||
      (action === 'custom' && isObject(o.request) && src.method !== 'GET' && src.method !== 'DELETE');
    if (!x && req?.optional && !req.form && readsBody)
      report(
        ctx,
        'import-approximated',
        {
          item: `operation ${src.id}: its request body, optional (no \`required: true\`)`,
          as: 'a body every request must send',
          reason: 'the format has no optional JSON request body: a request that sends none is refused (malformed_request, "a JSON body is required")',
        },
        joinPointer(src.pointer, 'requestBody'),
      );
    // A form's absent body reads as no fields: where one is required, a request sending none is refused, which the
    // document (its body optional, so its required properties bind only a body sent) allows (twilio's
    // CreateExportCustomJob). Before, not said.
    const formFields = isObject(o.request) && o.request.media_type === FORM_MEDIA_TYPE && isObject(o.request.fields) ? o.request.fields : undefined;
    const formRequired = formFields ? Object.keys(formFields).filter((k) => !(isObject(formFields[k]) && formFields[k].optional === true)) : [];
    if (!x && req?.optional && req.form && readsBody && formRequired.length > 0)
      report(
        ctx,
        'import-approximated',
        {
          item: `operation ${src.id}: its form request body, optional (no \`required: true\`)`,
          as: 'a body every request must send',
          reason: `an absent form reads as no fields, so a request that sends none is refused (validation: ${formRequired.map((k) => `\`${k}\``).join(', ')} required)`,
        },
        joinPointer(src.pointer, 'requestBody'),
      );
    if (x && (x.envelope === 'none' || isObject(x.envelope))) o.envelope = x.envelope;
    // As written, on any action (check says where it has no effect), with a body or none.
    if (x && isObject(x.request_envelope) && typeof x.request_envelope.data === 'string') o.request_envelope = { data: x.request_envelope.data };
    if (op.deprecated === true) o.deprecated = true;
    // A form request's examples are its form's (twilio's `UpdateExportConfiguration`): before, dropped.
    const formRequestType = isObject(o.request) && o.request.media_type === FORM_MEDIA_TYPE ? FORM_MEDIA_TYPE : undefined;
    const examples = examplesOf(ctx, src, success.key, formRequestType);
    if (examples) o.examples = examples;
    const callbacks = importCallbacks(ctx, {
      callbacks: op.callbacks,
      pointer: src.pointer,
      operationId: src.id,
      action,
      ...(isObject(o.request_envelope) && typeof o.request_envelope.data === 'string' && REQUEST_ENVELOPED_ACTIONS.has(action)
        ? { wrap: o.request_envelope.data }
        : {}),
      ...(typeof o.resource === 'string'
        ? {
            resource: o.resource,
            fields: resourceFields,
            ...(ctx.resourceIdentifier.get(o.resource) !== undefined ? { identifier: ctx.resourceIdentifier.get(o.resource)! } : {}),
          }
        : {}),
      requestShape: (cbOp, at) => {
        const body = requestOf(ctx, { ...src, op: cbOp, pointer: at });
        return body ? shapeFromSchema(ctx, body.schema, body.pointer, `operation ${src.id} callback`, 'top') : undefined;
      },
      addKind: (name, kind) => {
        let taken = toEventKindName(name);
        for (let i = 2; ctx.callbackKinds.has(taken); i++) taken = `${toEventKindName(name)}_${i}`;
        ctx.callbackKinds.set(taken, kind);
        return taken;
      },
    }); // import-callbacks.ts
    if (callbacks) o.callbacks = callbacks;
    const responses = isObject(op.responses) ? op.responses : {};
    for (const [status, r] of Object.entries(responses)) {
      const node = resolve(ctx, r, '').node;
      if (isObject(node) && isObject(node.links))
        report(
          ctx,
          'import-dropped',
          { item: `operation ${src.id}: the links of response ${status}`, reason: 'links have no equivalent' },
          joinPointer(joinPointer(joinPointer(src.pointer, 'responses'), status), 'links'),
        );
      const headersAt = joinPointer(joinPointer(joinPointer(src.pointer, 'responses'), status), 'headers');
      // servicespec's own export carries the response headers as written (x-servicespec-operation), as it does the shapes.
      if (x) {
        if (isObject(x.response_headers) && status === success.key) o.response_headers = x.response_headers;
      } else if (isObject(node) && isObject(node.headers) && status === success.key) {
        const link = action === 'list' && isObject(o.paging) && (o.paging as PagingSpec).link === true;
        const totalHeader = action === 'list' && isObject(o.paging) ? (o.paging as PagingSpec).total_header : undefined;
        const got = importResponseHeaders(ctx, {
          operation: src.id,
          action,
          link,
          ...(action === 'list' ? { listStyle: (isObject(o.paging) ? (o.paging as PagingSpec).style : undefined) ?? 'cursor' } : {}),
          totalHeader,
          headers: node.headers,
          pointer: headersAt,
          toParameter: (use) => parameterFromOpenApi(ctx, src, use),
        });
        if (got.headers) o.response_headers = got.headers;
        if (got.etag && typeof o.resource === 'string') ctx.etagResources.add(o.resource);
        if (got.location !== undefined)
          locations.push({ operation: src.id, resource: typeof o.resource === 'string' ? o.resource : undefined, pointer: got.location });
        else if (action === 'create') unstated.push({ operation: src.id, resource: o.resource, pointer: headersAt.replace(/\/headers$/, '') });
      } else if (!x && action === 'create' && status === success.key) {
        unstated.push({ operation: src.id, resource: o.resource, pointer: headersAt.replace(/\/headers$/, '') });
      } else if (isObject(node) && isObject(node.headers) && !x && !/^([45](\d\d|XX)|default)$/i.test(status)) {
        // An error answer's headers are its code's (errorsOf); the other answers' have no place.
        for (const h of Object.keys(node.headers))
          report(
            ctx,
            'import-dropped',
            {
              item: `operation ${src.id}: response header ${h} (${status})`,
              reason: 'response headers are declared on the success answer only (response_headers)',
            },
            joinPointer(headersAt, h),
          );
      }
    }
    operations[src.id] = orderOperation(o) as unknown as OperationSpec;
  }
  // A create whose success answer declares no Location, where its resource has a read: the format's create would
  // answer one (the read's path), which the document does not promise; `location: false` keeps its answer as declared.
  for (const u of unstated) {
    const op = operations[u.operation] as unknown as Json | undefined;
    if (op && Object.values(operations).some((r) => r.action === 'read' && r.resource === u.resource))
      operations[u.operation] = orderOperation({ ...op, location: false }) as unknown as OperationSpec;
  }
  // A create's Location is the format's when its resource has a read operation; without one it cannot be kept.
  for (const l of locations) {
    const readable = Object.values(operations).some((op) => op.action === 'read' && op.resource === l.resource);
    if (!readable)
      report(
        ctx,
        'import-dropped',
        {
          item: `operation ${l.operation}: response header \`Location\``,
          reason: "a create's Location is the path of its resource's read operation, and the document has none",
        },
        l.pointer,
      );
  }
  if (ctx.idempotencyHeader !== undefined && out.idempotency === undefined) {
    out.idempotency = { header: ctx.idempotencyHeader };
    // The format takes a key on every POST, PUT, PATCH and DELETE unless one says otherwise: one whose document does
    // not name the header is not idempotent (Cal.com's key on POST /bookings alone).
    if (!ctx.fromServicespec)
      for (const [id, o] of Object.entries(operations))
        if (o.idempotent === undefined && o.method !== 'GET' && !ctx.idempotencyOps.has(id))
          operations[id] = orderOperation({ ...o, idempotent: false }) as unknown as OperationSpec;
  }
  // One envelope shared by every enveloped operation is the endpoints' (the values each found, together: a read
  // leaves a list's out); the other resource actions answer bare.
  const shared = mergeEnvelopes([...enveloped].map(([id, envelope]) => ({ envelope, list: operations[id]?.action === 'list' })));
  if (enveloped.size > 1 && shared !== undefined) {
    out.envelope = shared;
    for (const [id, o] of Object.entries(operations)) if (!enveloped.has(id) && ENVELOPED_ACTIONS.has(o.action)) o.envelope = 'none';
  } else for (const [id, e] of enveloped) operations[id]!.envelope = e;
  if (Object.keys(operations).length > 0) out.operations = operations;
  const shown = ctx.doc['x-servicespec-parts'] !== undefined || Object.keys(out).length > 0;
  return shown ? (out as SpecDocument['endpoints']) : undefined;
}

/**
 * The envelopes as one: the same data field and fields, no value in two places; undefined otherwise. A read's envelope
 * may lack an optional field a list's has that holds a list's values only (giphy's `pagination`): the runtime leaves
 * it out of a read's answer, as nothing is written in it there.
 */
function mergeEnvelopes(entries: readonly { envelope: EnvelopeSpec; list: boolean }[]): EnvelopeSpec | undefined {
  const size = (e: EnvelopeSpec) => Object.keys(e.fields ?? {}).length;
  const list = entries.map((x) => x.envelope).sort((a, b) => size(b) - size(a));
  const first = list[0];
  if (first === undefined) return undefined;
  const all = first.fields ?? {};
  const merged: EnvelopeSpec = { data: first.data, ...(first.fields !== undefined ? { fields: first.fields } : {}) };
  // The fields some envelope (a non-list's) lacks: only a list's values may go there.
  const lacked = new Set<string>();
  for (const { envelope: e, list: isList } of entries) {
    const own = e.fields ?? {};
    if (e.data !== first.data || Object.entries(own).some(([n, f]) => JSON.stringify(f) !== JSON.stringify(all[n]))) return undefined;
    const extra = Object.keys(all).filter((n) => !Object.hasOwn(own, n));
    if (extra.length > 0 && (isList || extra.some((n) => all[n]!.optional !== true))) return undefined;
    for (const n of extra) lacked.add(n);
    for (const source of ENVELOPE_SOURCES) {
      const path = e[source];
      if (path === undefined) continue;
      if (merged[source] !== undefined && merged[source] !== path) return undefined;
      merged[source] = path;
    }
  }
  for (const source of ENVELOPE_SOURCES)
    if (merged[source] !== undefined && !LIST_ONLY_SOURCES.has(source) && lacked.has(merged[source].split('.')[0]!)) return undefined;
  const ordered: EnvelopeSpec = { data: merged.data, ...(merged.fields !== undefined ? { fields: merged.fields } : {}) };
  for (const source of ENVELOPE_SOURCES) if (merged[source] !== undefined) ordered[source] = merged[source];
  return ordered;
}

const OPERATION_ORDER = [
  'method',
  'path',
  'action',
  'resource',
  'transition',
  'summary',
  'description',
  'filter',
  'required_filters',
  'sort',
  'sort_param',
  'request_fields',
  'request_media_type',
  'location',
  'unknown_fields',
  'upsert',
  'if_match',
  'answer_fields',
  'paging',
  'bind',
  'query',
  'headers',
  'response_headers',
  'status',
  'request',
  'response',
  'handler',
  'auth',
  'errors',
  'idempotent',
  'deprecated',
  'examples',
  'callbacks',
  'envelope',
  'request_envelope',
];

function orderOperation(o: Json): Json {
  const out: Json = {};
  for (const k of OPERATION_ORDER) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

// ---- what the format cannot keep yet ---------------------------------------------------------------------------

/**
 * Says, at its JSON pointer, each part of the document the spec cannot keep yet and that no other step reports: a
 * discriminator (with the property names only its subtypes have), a body that is a choice of schemas, named
 * examples. A field that is a choice is reported where the field is read (as type json).
 */
function reportUnkept(ctx: Ctx): void {
  const seen = new Set<unknown>();
  const own = (n: unknown, p: string): string[] => {
    const f = flatten(ctx, n, p).schema;
    return f && isObject(f.properties) ? Object.keys(f.properties) : [];
  };
  const walk = (node: unknown, pointer: string, key: string | undefined, parent: string | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((x, i) => walk(x, joinPointer(pointer, i), undefined, parent));
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    // A choice the importer keeps as a union (its variants are objects) is no loss.
    const keptAsUnion = (): boolean => {
      const f = flatten(ctx, node, pointer).schema;
      return f !== undefined && unionFromSchema({ ...ctx, diagnostics: [] }, node, f, pointer, { where: '', depth: 1, stack: [] }) !== undefined;
    };
    if (isObject(node.discriminator) && parent !== 'properties' && !keptAsUnion()) {
      const d = node.discriminator;
      const base = new Set(own(node, pointer));
      const subtypes = new Map<string, unknown>();
      if (isObject(d.mapping)) for (const [tag, ref] of Object.entries(d.mapping)) subtypes.set(tag, { $ref: ref });
      for (const k of ['oneOf', 'anyOf'] as const)
        if (Array.isArray(node[k]))
          (node[k] as unknown[]).forEach((x, i) =>
            subtypes.set(isObject(x) && typeof x.$ref === 'string' ? x.$ref.slice(x.$ref.lastIndexOf('/') + 1) : String(i), x),
          );
      const lost = new Set<string>();
      for (const [, s] of subtypes) for (const name of own(s, pointer)) if (!base.has(name)) lost.add(name);
      const names = [...lost].sort();
      report(
        ctx,
        'import-dropped',
        {
          item: `the discriminator \`${String(d.propertyName)}\` (${subtypes.size} subtypes: ${[...subtypes.keys()].join(', ') || 'none named'})`,
          reason: `the format has no union type yet: operations keep only the base shape${names.length > 0 ? `, and the subtypes' properties ${names.map((n) => `\`${n}\``).join(', ')} are lost` : ''}`,
        },
        joinPointer(pointer, 'discriminator'),
      );
    }
    // A body that is a choice of shapes (a field that is one is reported where the field is read).
    if (key === 'schema' && parent !== 'parameter') {
      for (const k of ['oneOf', 'anyOf'] as const) {
        const list = node[k];
        if (!Array.isArray(list) || isObject(node.discriminator)) continue;
        const real = list.filter((x) => !(isObject(x) && x.type === 'null'));
        if (real.length > 1 && !keptAsUnion())
          report(
            ctx,
            'import-approximated',
            {
              item: `a body that is one of ${real.length} shapes (${k})`,
              as: 'the shape it is read as (its common properties, or none)',
              reason: 'the format has no union type yet',
            },
            joinPointer(pointer, k),
          );
      }
    }
    if (isObject(node.examples) && (parent === 'content' || parent === 'parameter') && !ctx.examplesKept.has(node)) {
      report(
        ctx,
        'import-dropped',
        {
          item: `the named examples ${Object.keys(node.examples)
            .map((n) => `\`${n}\``)
            .join(', ')}`,
          reason: "the format keeps named examples on an operation's request body, success answer and parameters only",
        },
        joinPointer(pointer, 'examples'),
      );
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'discriminator' || k === 'examples' || k.startsWith('x-')) continue;
      // What the child is: a schema's properties, a media type (under content), a parameter (in a parameters list
      // or map), a parameter's own schema (not a body).
      let role: string | undefined;
      if (k === 'properties') role = 'properties';
      else if (k === 'content') role = 'content-map';
      else if (parent === 'content-map') role = 'content';
      else if (k === 'parameters') role = 'parameter';
      else if (parent === 'parameter-map') role = 'parameter';
      else if (parent === 'parameter' && k === 'schema') role = 'parameter';
      walk(v, joinPointer(pointer, k), k, role);
    }
  };
  walk(ctx.doc.paths, '/paths', undefined, undefined);
  walk(ctx.doc.webhooks, '/webhooks', undefined, undefined);
  if (isObject(ctx.doc.components)) {
    walk(ctx.doc.components.schemas, '/components/schemas', undefined, undefined);
    walk(ctx.doc.components.responses, '/components/responses', undefined, undefined);
    walk(ctx.doc.components.requestBodies, '/components/requestBodies', undefined, undefined);
    walk(ctx.doc.components.parameters, '/components/parameters', undefined, 'parameter-map');
  }
}

// ---- events, errors, limits ---------------------------------------------------------------------------------

function importEvents(ctx: Ctx): EventsSpec | undefined {
  const fromExt = readPart(ctx, 'x-servicespec-events', 'events', '/x-servicespec-events');
  if (fromExt) return fromExt;
  const hooks = isObject(ctx.doc.webhooks) ? ctx.doc.webhooks : undefined;
  if ((!hooks || Object.keys(hooks).length === 0) && ctx.callbackKinds.size === 0) return undefined;
  // Kinds made from callbacks first: a webhook of the same name is the one renamed (and said so).
  const kinds: Record<string, Json> = Object.fromEntries(ctx.callbackKinds) as Record<string, Json>;
  const names = new UniqueNames('_');
  for (const k of ctx.callbackKinds.keys()) names.take(k);
  for (const [key, raw] of Object.entries(hooks ?? {})) {
    const pointer = joinPointer('/webhooks', key);
    const item = resolve(ctx, raw, pointer).node;
    if (!isObject(item)) continue;
    const name = names.take(toEventKindName(key));
    if (name !== key)
      report(
        ctx,
        'import-renamed',
        { what: 'webhook', from: key, to: name, reason: 'event kinds are dot-separated segments of letters, digits and underscores' },
        pointer,
      );
    const method = METHODS.find((m) => isObject(item[m]));
    const op = method ? (item[method] as Json) : {};
    const k: Json = {};
    const description = str(op.description) ?? str(op.summary);
    if (description !== undefined) k.description = description;
    const body = requestOf(ctx, {
      id: `webhook ${key}`,
      method: 'POST',
      path: '',
      rawPath: '',
      pointer: joinPointer(pointer, method ?? 'post'),
      op,
      params: [],
    });
    if (body) {
      const payload = shapeFromSchema(ctx, body.schema, body.pointer, `webhook ${key} payload`, 'top');
      if (payload) k.payload = payload;
    }
    // A webhook of the document is delivered as its request body says: the payload itself, not the envelope.
    if (!ctx.fromServicespec) k.body = 'raw';
    kinds[name] = k;
  }
  return { delivery: { webhook: {} }, kinds } as EventsSpec;
}

function importErrors(ctx: Ctx): ErrorsSpec | undefined {
  const fromExt = readPart(ctx, 'x-servicespec-errors', 'errors', '/x-servicespec-errors');
  if (fromExt) return fromExt;
  if (ctx.errorCodes.size === 0 && ctx.errorBodies.length === 0 && ctx.errorHeaders === undefined) return undefined;
  const out: ErrorsSpec = {};
  if (ctx.errorHeaders) out.headers = ctx.errorHeaders;
  const problem = ctx.errorBodies.find((b) => b.mediaType === 'application/problem+json');
  // The format's `problem` carries the error code in `code` (an extension member): a document's problem body
  // without one (RFC 9457's members only) is kept as declared, its media type with it, so no answer is asked a code.
  const problemShape = problem && shapeFromSchema({ ...ctx, diagnostics: [] }, problem.schema, problem.pointer, 'the error body', 'top');
  const codeless =
    problemShape?.fields !== undefined &&
    Object.keys(problemShape.fields).length > 0 &&
    !problemShape.list &&
    // The format's problem reads its code from `code` alone: another code field (`error_code`) is a declared body's role.
    problemShape.fields.code === undefined;
  let kept: { pointer: string; key: string } | undefined;
  if (problem && problemShape?.fields && codeless) {
    out.body = {
      fields: shapeFromSchema(ctx, problem.schema, problem.pointer, 'the error body', 'top')!.fields!,
      ...errorBodyRoles(problemShape.fields),
      media_type: 'application/problem+json',
    };
    withCodeValues(ctx, out.body, problem.pointer);
    withAnswerMembers(ctx, out.body, problem);
    withErrorConstants(ctx, out.body, problem);
    kept = { pointer: problem.pointer, key: bodyKey(problem) };
    ctx.keptErrorBody = errorSchemaAt(ctx, problem);
  } else if (problem) {
    out.body = 'problem';
    kept = { pointer: problem.pointer, key: bodyKey(problem) };
  } else {
    const first = ctx.errorBodies
      .map((b) => ({ b, shape: shapeFromSchema(ctx, b.schema, b.pointer, 'the error body', 'top') }))
      .find((x) => x.shape?.fields !== undefined && !x.shape.list);
    if (first?.shape?.fields) {
      widenErrorBodyFields(ctx, first.shape.fields, first.b, ctx.errorBodies);
      out.body = { fields: first.shape.fields, ...errorBodyRoles(first.shape.fields) };
      withCodeValues(ctx, out.body, first.b.pointer);
      withAnswerMembers(ctx, out.body, first.b);
      withErrorConstants(ctx, out.body, first.b);
      // The document's media type is kept (a JSON one: an error body read from another type was not taken).
      if (first.b.mediaType !== DEFAULT_ERROR_MEDIA_TYPE && /^application\/[^/;\s]+\+json$/i.test(first.b.mediaType)) out.body.media_type = first.b.mediaType;
      kept = { pointer: first.b.pointer, key: bodyKey(first.b) };
      ctx.keptErrorBody = errorSchemaAt(ctx, first.b);
    }
  }
  // The spec has one error body: each different body an operation declares is merged into it, and said so.
  const reported = new Set<string>();
  for (const b of ctx.errorBodies) {
    // Problem bodies are told apart by their schema too: a 422's problem with a required `errors[]` is not the 404's.
    const key = bodyKey(b);
    if (kept !== undefined && key === kept.key) continue;
    if (reported.has(key)) continue;
    reported.add(key);
    if (kept === undefined)
      report(ctx, 'import-dropped', { item: `the error body at ${b.pointer}`, reason: 'it is not an object the format can describe' }, b.pointer);
    else
      report(
        ctx,
        'import-errors-merged',
        {
          item: `the error body at ${b.pointer}`,
          into: `the one at ${kept.pointer}`,
          reason: 'a spec has one error body for every error code; this one differs from it',
        },
        b.pointer,
      );
  }
  // pydantic's list of validation errors (FastAPI's 422 `detail: [{loc, msg, type}]`): the format writes the invalid
  // inputs only as `{ pointer, message }` in an `errors` or `details` list, and the message as `detail`'s text, so no
  // 422 answers the list the document promises. Said once at the list, however many responses refer to it.
  const lists = new Set<string>();
  for (const b of ctx.errorBodies) {
    if (!isValidationErrorList(ctx, b.schema, b.pointer)) continue;
    const body = flatten(ctx, b.schema, b.pointer);
    const at = flatten(ctx, (body.schema!.properties as Json).detail, joinPointer(joinPointer(body.pointer, 'properties'), 'detail')).pointer.replace(/^#/, '');
    if (lists.has(at)) continue;
    lists.add(at);
    report(
      ctx,
      'import-approximated',
      {
        item: `the error body's \`detail\` at ${at}, a list of validation errors (\`loc\`, \`msg\`, \`type\`)`,
        as: "the message's text (`detail`) on every error answer, a 422's included",
        reason:
          'a spec has one error body for every code, and the format writes the invalid inputs only as `{ pointer, message }` in an `errors` or `details` list: the list cannot be said, so the served 422 answers its message as text, and the contract tester holds `detail` to the type the merged body gives it',
      },
      at,
    );
  }
  // Inline responses with the same status and description share one code (the document does not refer to one response).
  for (const c of ctx.errorCodes.values()) {
    if (c.inline && c.operations.length > 1)
      report(
        ctx,
        'import-errors-merged',
        {
          item: `the inline ${c.status} responses of operations ${c.operations.join(', ')}`,
          into: `error code ${c.name}`,
          reason: `they have the same status and description${c.title !== undefined ? `, “${c.title}”` : ''}`,
        },
        c.pointer,
      );
  }
  if (ctx.errorCodes.size > 0) {
    out.codes = {};
    // A code's header that every error answer declares (errors.headers) is not declared again (the export writes
    // errors.headers on every error response).
    const every = new Set(Object.keys(ctx.errorHeaders ?? {}).map((k) => k.toLowerCase()));
    for (const c of ctx.errorCodes.values())
      if (c.headers && every.size > 0) {
        c.headers = Object.fromEntries(Object.entries(c.headers).filter(([k]) => !every.has(k.toLowerCase())));
        if (Object.keys(c.headers).length === 0) delete c.headers;
      }
    for (const c of ctx.errorCodes.values())
      out.codes[c.name] = { status: c.status, ...(c.headers ? { headers: c.headers } : {}), ...(c.title !== undefined ? { title: c.title } : {}) };
    // Each condition the service meets is answered with the document's one code of the condition's status (the
    // format's fallback status), and a refused request of the format's 422 (an invalid body, a reference to nothing,
    // an idempotency key reused) with its one 400 code where it declares no 422: the status the document gives a bad
    // request, not the 422 it never lists. Where several codes share the status, none is
    // chosen; nor, where the document declares both 400 and 422, for a refusal that may be either (an invalid query
    // parameter is a 400 to many APIs that answer an invalid body 422): docs/import.md, "Error responses".
    const withStatus = (n: number) => [...ctx.errorCodes.values()].filter((c) => c.status === n);
    // FastAPI's 422 (`HTTPValidationError`: `detail`, a list of `{loc, msg, type}`) answers every refusal of a request's
    // input, an unreadable JSON body (`json_invalid`) and a bad query parameter included: a 400 beside it is a
    // handler's own (a sign-in's "Incorrect username or password"), not the answer to a bad request.
    const pydantic422 = ctx.errorBodies.some((b) => /\/responses\/422$/.test(b.pointer) && isValidationErrorList(ctx, b.schema, b.pointer));
    const both = !pydantic422 && withStatus(400).length > 0 && withStatus(422).length > 0;
    // A reused idempotency key is answered as the document describes it, whatever its status (a 409 "Idempotency
    // key reused"): the one code whose description names idempotency, and of two, the one saying "in progress" for
    // a key whose first request is still running.
    const byWords = new Map<Condition, string>();
    const idempotent = [...ctx.errorCodes.values()].filter((c) => c.title !== undefined && /idempot/i.test(c.title));
    const running = idempotent.filter((c) => /in progress|concurrent|still (being )?processed|processing/i.test(c.title!));
    if (idempotent.length === 1 && running.length === 0) byWords.set('idempotency_conflict', idempotent[0]!.name);
    if (idempotent.length === 2 && running.length === 1) {
      byWords.set('idempotency_in_progress', running[0]!.name);
      byWords.set('idempotency_conflict', idempotent.find((c) => c !== running[0])!.name);
    }
    for (const [condition, name] of byWords) out.codes[name]!.when = [...(out.codes[name]!.when ?? []), condition];
    for (const condition of IMPORTED_CONDITIONS) {
      if (byWords.has(condition)) continue;
      const fallback = FALLBACK_STATUS[condition];
      if (both && condition !== 'malformed_request' && (fallback === 400 || fallback === 422)) continue;
      // An unreadable body (the format's 400) takes the document's 422 where it declares no 400, or FastAPI's.
      const unreadable422 = condition === 'malformed_request' && withStatus(422).length > 0 && (withStatus(400).length === 0 || pydantic422);
      const status = unreadable422 ? 422 : fallback === 422 && withStatus(422).length === 0 ? 400 : fallback;
      const only = withStatus(status);
      if (only.length !== 1) continue;
      // A 415 only some operations with a body list (a merge-patch PATCH) is theirs: the others answer a body of
      // another type as the document says they do (their 400), not with a status they never list.
      if (condition === 'unsupported_media_type' && [...ctx.bodyOperations].some((id) => !only[0]!.operations.includes(id))) continue;
      const code = out.codes[only[0]!.name]!;
      code.when = [...(code.when ?? []), condition];
    }
    for (const c of Object.values(out.codes)) settleErrorHeaders(ctx, c.headers, c.when ?? []);
  }
  settleErrorHeaders(ctx, out.headers, undefined);
  return out;
}

/**
 * Whether an error body is pydantic's list of validation errors as FastAPI documents it (`HTTPValidationError`): an
 * object whose `detail` is an array of objects naming `loc`, `msg` and `type`.
 */
function isValidationErrorList(ctx: Ctx, schema: unknown, pointer: string): boolean {
  const body = flatten(ctx, schema, pointer);
  const detail = isObject(body.schema?.properties) ? body.schema.properties.detail : undefined;
  if (detail === undefined) return false;
  const list = flatten(ctx, detail, joinPointer(joinPointer(body.pointer, 'properties'), 'detail'));
  if (list.schema?.type !== 'array') return false;
  const item = flatten(ctx, list.schema.items, joinPointer(list.pointer, 'items')).schema;
  return isObject(item?.properties) && ['loc', 'msg', 'type'].every((k) => k in (item.properties as Json));
}

/**
 * The conditions an import answers with the document's code of their status. `unavailable` and `timeout` are left
 * to the format's 503 with Retry-After: a code declaring them is listed on every route (docs/format.md).
 */
const IMPORTED_CONDITIONS: readonly Condition[] = (Object.keys(FALLBACK_STATUS) as Condition[]).filter((c) => c !== 'unavailable' && c !== 'timeout');

/**
 * Which fields of an imported error body carry the code, status and message (docs/import.md, "Error responses"):
 * the first field of these names whose type can hold it, named in the spec only where the format's own names
 * (`ERROR_BODY_ROLE_NAMES`) would not find it.
 */
const IMPORTED_ROLE_NAMES: Readonly<Record<'code' | 'status' | 'message', readonly string[]>> = {
  code: [...ERROR_BODY_ROLE_NAMES.code, 'errorCode', 'error_code', 'errCode', 'err_code'],
  status: [...ERROR_BODY_ROLE_NAMES.status, 'statusCode', 'status_code', 'httpStatus', 'http_status'],
  // Shopify's `{ "errors": "Not Found" }`: a text `errors` is the message (a list of them is the invalid inputs).
  message: [...ERROR_BODY_ROLE_NAMES.message, 'errorMessage', 'error_message', 'error_description', 'msg', 'description', 'errors'],
};

/**
 * An envelope's constants (`success: { enum: [true] }`) are written with their one value on every answer, so what
 * reading the whole answer said of them (a boolean holds both values) does not hold once it is read as the envelope.
 */
function forgetConstantApproximations(ctx: Ctx, whole: { schema?: unknown; pointer?: string }, envelope: EnvelopeSpec): void {
  if (whole.schema === undefined || whole.pointer === undefined) return;
  const flat = flatten(ctx, whole.schema, whole.pointer);
  const at = new Set(
    Object.entries(envelope.fields ?? {})
      .filter(([, f]) => f.default !== undefined)
      .map(([name]) => flatten(ctx, (flat.schema?.properties as Json | undefined)?.[name], joinPointer(joinPointer(flat.pointer, 'properties'), name)).pointer),
  );
  forgetOneValueBooleans(ctx, at);
}

/**
 * A member of the error body the document allows one value (`success: { enum: [false] }`, `ok: { const: false }`)
 * is written with it on every error answer: its `default` (docs/format.md, "Declared error bodies"). Not a member
 * the runtime fills by its role or name (the code, status, message, title, …).
 */
function withErrorConstants(ctx: Ctx, body: ErrorBodySpec, b: { mediaType: string; schema: unknown; pointer: string }): void {
  const flat = flatten(ctx, b.schema, joinPointer(joinPointer(joinPointer(b.pointer, 'content'), b.mediaType), 'schema'));
  const props = flat.schema && isObject(flat.schema.properties) ? flat.schema.properties : undefined;
  if (!props) return;
  const filled = new Set<string>([
    ...Object.values(ERROR_BODY_ROLE_NAMES).flat(),
    ...Object.keys(ERROR_BODY_EXTRAS),
    ...[body.code, body.status, body.message].flatMap((p) => (p !== undefined ? [p.split('.')[0]!] : [])),
  ]);
  for (const [name, node] of Object.entries(props)) {
    const f = body.fields[name];
    if (f === undefined || filled.has(name) || f.default !== undefined) continue;
    const at = flatten(ctx, node, joinPointer(joinPointer(flat.pointer, 'properties'), name));
    const value = constantOf(at.schema);
    if (value === undefined) continue;
    body.fields[name] = { ...f, default: value };
    // Every error answer holds that one value: a boolean's other value is never written, so nothing is approximated.
    forgetOneValueBooleans(ctx, new Set([at.pointer]));
  }
}

function errorBodyRoles(fields: Record<string, FieldSpec>): { code?: string; status?: string; message?: string } {
  const out: { code?: string; status?: string; message?: string } = {};
  // A json message (NestJS's, a string or a list) goes by the format's own names only: a json `errors` is the invalid
  // inputs' list, not the message.
  const typeFits = (role: 'code' | 'status' | 'message', name: string, f: FieldSpec) =>
    ERROR_ROLE_TYPES[role].includes(f.type) && (f.type !== 'json' || ERROR_BODY_ROLE_NAMES[role].includes(name as never));
  const found = (within: Record<string, FieldSpec>, role: 'code' | 'status' | 'message') =>
    IMPORTED_ROLE_NAMES[role].find((n) => within[n] !== undefined && typeFits(role, n, within[n]));
  for (const role of ['code', 'status', 'message'] as const) {
    const fits = (n: string) => fields[n] !== undefined && typeFits(role, n, fields[n]);
    const chosen = found(fields, role);
    const byDefault = ERROR_BODY_ROLE_NAMES[role].find(fits);
    if (chosen !== undefined && chosen !== byDefault) out[role] = chosen;
  }
  // A body that is one object holding the code and message (`{ "error": { "code", "message" } }`, as Stripe, Google
  // and Microsoft answer): the roles are named by their paths, the format's defaults being the body's own fields.
  const objects = Object.entries(fields).filter(([, f]) => f.type === 'object' && f.fields !== undefined);
  if (found(fields, 'code') === undefined && found(fields, 'message') === undefined && objects.length === 1) {
    const [name, f] = objects[0]!;
    for (const role of ['code', 'status', 'message'] as const) {
      const inner = found(f.fields!, role);
      if (inner !== undefined && (role !== 'status' || found(fields, 'status') === undefined)) out[role] = `${name}.${inner}`;
    }
  }
  return out;
}

/**
 * A document's code field lists no values (a `string` or an `integer`, not an enum): which value each code writes
 * there is the service's own, and the spec says so (`code_values: unstated`) rather than promise the names the
 * import gave the codes (a helpdesk's `validation_failed` is no less its 422 than `unprocessable_entity`).
 */
function withCodeValues(ctx: Ctx, body: ErrorBodySpec, pointer: string): void {
  const path = body.code ?? ERROR_BODY_ROLE_NAMES.code.find((n) => body.fields[n] !== undefined && ERROR_ROLE_TYPES.code.includes(body.fields[n].type));
  if (path === undefined) return;
  const field = specFieldAt(body.fields, path);
  // An enum of the document's own code values (`validation_failed`, `too_many_holds`) that does not hold the names the
  // import gives the codes (from the responses: `unprocessable`): which value each code writes is not said, so the
  // field is held to being text, its values not stated, rather than the spec refused for names it cannot write.
  const names = [...ctx.errorCodes.values()].map((c) => c.name);
  if (field?.type === 'enum' && names.some((n) => !(field.values ?? []).includes(n))) {
    const values = field.values ?? [];
    delete field.values;
    field.type = values.length > 0 && values.every((v) => typeof v === 'number') ? 'integer' : 'string';
    report(
      ctx,
      'import-approximated',
      {
        item: `the error body's code field \`${path}\` (an enum of ${values.map((v) => JSON.stringify(v)).join(', ')})`,
        as: `a ${field.type} whose value for each code the spec does not state (\`code_values: unstated\`)`,
        reason: `the document does not say which value each of its error responses writes, and the codes' names (${names.join(', ')}) are not all among them`,
      },
      pointer,
    );
  }
  if (field?.type === 'string' || field?.type === 'integer') body.code_values = 'unstated';
}

/**
 * An error schema that leaves its object open (JSON Schema's default) lets an error answer carry members it does not
 * name (`answer_members: open`), as a component schema does for a resource's answers.
 */
function withAnswerMembers(ctx: Ctx, body: ErrorBodySpec, from: { schema: unknown; pointer: string }): void {
  if (!isClosedObject(objectParts(ctx, from.schema, from.pointer))) body.answer_members = 'open';
}

/** The field a path names among spec fields: one of that name, else one nested by its dotted path (`error.code`), as `bind` reads a path. */
function specFieldAt(fields: Record<string, FieldSpec>, path: string): FieldSpec | undefined {
  if (Object.hasOwn(fields, path)) return fields[path];
  let field: FieldSpec | undefined;
  let at: Record<string, FieldSpec> | undefined = fields;
  for (const part of path.split('.')) [field, at] = [at?.[part], at?.[part]?.fields];
  return field;
}

/** What tells two error bodies apart: the component referred to, else the schema written out. */
/**
 * The spec has one error body: where the document's bodies say a field differently (Shopify's `errors`, a string on a
 * 404 and a map of messages on a 422), the kept one takes every answer's: a field whose type differs becomes `json`,
 * one another body does not require becomes optional, each said at the kept body's field.
 */
function widenErrorBodyFields(
  ctx: Ctx,
  fields: Record<string, FieldSpec>,
  kept: { mediaType: string; schema: unknown; pointer: string },
  bodies: readonly { mediaType: string; schema: unknown; pointer: string }[],
): void {
  const seen = new Set([bodyKey(kept)]);
  const shape = (f: FieldSpec) => JSON.stringify(f, (k, v: unknown) => (k === 'description' || k === 'example' || k === 'examples' ? undefined : v));
  for (const b of bodies) {
    if (seen.has(bodyKey(b))) continue;
    seen.add(bodyKey(b));
    const other = shapeFromSchema({ ...ctx, diagnostics: [] }, b.schema, b.pointer, 'the error body', 'top');
    if (other?.fields === undefined || other.list === true) continue;
    for (const [name, f] of Object.entries(fields)) {
      const o = other.fields[name];
      const at = `the error body's \`${name}\``;
      if (o !== undefined && f.type !== 'json' && (o.type !== f.type || (['object', 'array', 'union'].includes(f.type) && shape(o) !== shape(f)))) {
        // Made optional here too where the other body may leave it out (FastAPI's `detail`: a required string in
        // HTTPError, an optional array in HTTPValidationError): said with the type, not silently.
        const loosened = f.optional !== true && o.optional === true;
        report(
          ctx,
          'import-approximated',
          {
            item: `${at} (${f.type}${loosened ? ', required' : ''}; ${o.type}${loosened ? ', optional,' : ''} at ${b.pointer})`,
            as: loosened ? 'an optional field of type json' : 'type json',
            reason: `the document's error bodies give it different types${loosened ? ', one may leave it out,' : ''} and a spec has one error body`,
          },
          kept.pointer,
        );
        fields[name] = {
          type: 'json',
          ...(f.description !== undefined ? { description: f.description } : {}),
          ...(f.optional === true || o.optional === true ? { optional: true } : {}),
        };
      } else if ((o === undefined || o.optional === true) && f.optional !== true) {
        report(
          ctx,
          'import-approximated',
          { item: `${at} (required)`, as: 'an optional field', reason: `the error body at ${b.pointer} may leave it out, and a spec has one error body` },
          kept.pointer,
        );
        fields[name] = { ...f, optional: true };
      }
    }
    // A field only another body has (a 422's `errors` list beside every body's `message`): kept, optional.
    for (const [name, o] of Object.entries(other.fields)) {
      if (Object.hasOwn(fields, name)) continue;
      report(
        ctx,
        'import-approximated',
        {
          item: `the error body's \`${name}\` (at ${b.pointer})`,
          as: 'an optional field',
          reason: 'the other error bodies leave it out, and a spec has one error body',
        },
        kept.pointer,
      );
      fields[name] = { ...o, optional: true };
    }
  }
}

/**
 * `etag: true` makes every read of its resource honour If-None-Match (304) and every one-object change If-Match
 * (412): where the document declares that header for some of them only, what the others are given is said at each.
 */
function reportConditionalAdded(ctx: Ctx): void {
  for (const c of ctx.conditional) {
    if (!ctx.etagResources.has(c.resource)) continue;
    const header =
      c.action === 'read'
        ? c.ifNoneMatch
          ? undefined
          : 'If-None-Match (answered 304 when it matches)'
        : IF_MATCH_ACTIONS.has(c.action) && !c.ifMatch
          ? 'If-Match (refused 412 when it does not match)'
          : undefined;
    if (header === undefined) continue;
    report(
      ctx,
      'import-approximated',
      {
        item: `operation ${c.op}`,
        as: `one that honours ${header}`,
        // A read's 304 is the answer to If-None-Match (Spring petclinic's reads): the header it stands for, which the
        // export declares, is said as the other operations' headers are.
        reason:
          c.notModified === true
            ? `its 304 answer is the one a matching If-None-Match gets (${c.resource} takes conditional requests, etag: true); the document does not declare the header`
            : `${c.resource} takes conditional requests (etag: true), as other operations of the document say, and the format honours the header on every ${c.action} of it; the document does not declare it here`,
      },
      c.pointer,
    );
  }
}

function bodyKey(b: { mediaType: string; schema: unknown }): string {
  return isObject(b.schema) && typeof b.schema.$ref === 'string' ? b.schema.$ref : (JSON.stringify(b.schema) ?? '');
}

function importLimits(ctx: Ctx, endpoints: EndpointsSpec | undefined): LimitsSpec | undefined {
  const fromExt = readPart(ctx, 'x-servicespec-limits', 'limits', '/x-servicespec-limits');
  if (fromExt) return fromExt;
  // servicespec's own export says each list's page sizes in its x-servicespec-operation.
  if (ctx.fromServicespec) return undefined;
  const usable = (v: number | undefined) => (v !== undefined && Number.isInteger(v) && v >= 1 ? v : undefined);
  const sizes = ctx.pageSizes.map((p) => ({ op: p.op, default: usable(p.default), max: usable(p.max) }));
  // Said once in limits.page_size where every list says the same; else each list's own (paging.page_size): one list
  // capped at 25 and another at 100 keep their caps, and a list that states none is not given another's.
  const shared = (key: 'default' | 'max') => (sizes.length > 0 && sizes.every((p) => p[key] === sizes[0]![key]) ? sizes[0]![key] : undefined);
  const page: Json = {};
  const def = shared('default');
  const max = shared('max');
  if (def !== undefined) page.default = def;
  // A page size over the parameter's `maximum` breaks its schema: a request the service refuses, as any invalid one.
  if (max !== undefined) Object.assign(page, { max, over_max: 'reject' });
  for (const p of sizes) {
    const op = endpoints?.operations?.[p.op] as (OperationSpec & Json) | undefined;
    if (!op || op.action !== 'list') continue;
    const own: Json = {};
    if (def === undefined && p.default !== undefined) own.default = p.default;
    if (max === undefined && p.max !== undefined) Object.assign(own, { max: p.max, over_max: 'reject' });
    if (Object.keys(own).length > 0) op.paging = { ...((op.paging as Json | undefined) ?? {}), page_size: own } as PagingSpec;
  }
  return Object.keys(page).length > 0 ? { page_size: page } : undefined;
}

function finishAuthentication(ctx: Ctx, doc: SpecDocument): void {
  const auth = doc.authentication as (AuthenticationSpec & Json) | undefined;
  if (!auth) return;
  const declared = ctx.scopesDeclared;
  if (ctx.scopesSeen.size > 0) auth.scopes = Object.fromEntries(ctx.scopesSeen);
  const shown = declared || auth.schemes !== undefined || auth.default !== undefined || auth.scopes !== undefined;
  if (!shown) delete doc.authentication;
  else {
    const ordered: Json = {};
    for (const k of ['schemes', 'scopes', 'default']) if (auth[k] !== undefined) ordered[k] = auth[k];
    doc.authentication = ordered as AuthenticationSpec;
  }
}

/** The spec as YAML, parts in the format's order. */
export function specToYaml(doc: SpecDocument): string {
  return `# Imported from OpenAPI by servicespec. What the OpenAPI document does not show stays not shown.\n${stringifyYaml(doc, { aliasDuplicateObjects: false, lineWidth: 0 })}`;
}
