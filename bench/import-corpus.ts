// The import corpus report (docs/import.md, "Corpus report"): each OpenAPI document of test/fixtures/openapi/ is
// imported; the report gives operations in and out (resource actions, custom), schemas in and resources out, the
// names kept, the query and header parameters kept, what was dropped by kind, and the round trip of (method, path,
// parameters, status codes) through import and `export openapi`. Side by side, where it runs, the same round trip
// through `tsp-openapi3` (OpenAPI → TypeSpec) and `tsp compile` (TypeSpec → OpenAPI) of @typespec/openapi3.
//
// @typespec/openapi3 is not a dependency of the project: install it in a scratch folder and name that folder,
//
//   mkdir -p /tmp/tsp && cd /tmp/tsp && npm init -y && npm install @typespec/openapi3 @typespec/compiler \
//     @typespec/http @typespec/openapi @typespec/rest @typespec/versioning
//   TSP_HOME=/tmp/tsp npx tsx bench/import-corpus.ts            # markdown on standard output
//   npx tsx bench/import-corpus.ts [dir]                          # without the TypeSpec columns
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { exportOpenApi } from '../src/export/export-openapi.js';
import { importOpenApiFile } from '../src/import/import-openapi.js';
import type { SpecDocument } from '../src/spec/spec-types.js';

type Json = Record<string, unknown>;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = process.argv[2] ?? join(ROOT, 'test', 'fixtures', 'openapi');
const TSP_HOME = process.env.TSP_HOME;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function deref(root: Json, node: unknown): unknown {
  for (let i = 0; i < 32 && isObject(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/'); i++) {
    node = node.$ref
      .slice(2)
      .split('/')
      .map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((n, t) => (isObject(n) ? n[t] : undefined), root);
  }
  return node;
}

interface OpFacts {
  id?: string;
  /** `query:name`, `header:name` (lower case), `path:name`, `cookie:name`. */
  params: Set<string>;
  statuses: Set<string>;
}

interface Facts {
  /** `METHOD path` → the operation. */
  ops: Map<string, OpFacts>;
  schemas: string[];
  properties: Set<string>;
}

/** What the round trip compares, read from an OpenAPI document. */
function facts(doc: Json): Facts {
  const ops = new Map<string, OpFacts>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    const item = deref(doc, raw);
    if (!isObject(item)) continue;
    for (const m of METHODS) {
      const op = item[m];
      if (!isObject(op)) continue;
      const params = new Set<string>();
      for (const list of [item.parameters, op.parameters]) {
        if (!Array.isArray(list)) continue;
        for (const p of list.map((x) => deref(doc, x)))
          if (isObject(p)) params.add(`${String(p.in)}:${p.in === 'header' ? String(p.name).toLowerCase() : String(p.name)}`);
      }
      const statuses = new Set(Object.keys(isObject(op.responses) ? op.responses : {}));
      ops.set(`${m.toUpperCase()} ${path}`, { ...(typeof op.operationId === 'string' ? { id: op.operationId } : {}), params, statuses });
    }
  }
  const components = isObject(doc.components) ? doc.components : {};
  const schemas = Object.keys(isObject(components.schemas) ? components.schemas : {});
  const properties = new Set<string>();
  const walk = (n: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(n)) n.forEach((x) => walk(x, depth + 1));
    else if (isObject(n)) {
      if (isObject(n.properties)) for (const k of Object.keys(n.properties)) properties.add(k);
      for (const [k, v] of Object.entries(n)) if (k !== 'examples' && k !== 'example') walk(v, depth + 1);
    }
  };
  walk(components.schemas, 0);
  walk(doc.paths, 0);
  return { ops, schemas, properties };
}

interface Diff {
  opsMissing: string[];
  opsExtra: string[];
  paramsMissing: string[];
  paramsExtra: string[];
  statusesMissing: string[];
  statusesExtra: string[];
}

function diff(a: Facts, b: Facts): Diff {
  const d: Diff = { opsMissing: [], opsExtra: [], paramsMissing: [], paramsExtra: [], statusesMissing: [], statusesExtra: [] };
  for (const [k, op] of a.ops) {
    const other = b.ops.get(k);
    if (!other) {
      d.opsMissing.push(k);
      continue;
    }
    for (const p of op.params) if (!other.params.has(p)) d.paramsMissing.push(`${k} ${p}`);
    for (const p of other.params) if (!op.params.has(p)) d.paramsExtra.push(`${k} ${p}`);
    for (const s of op.statuses) if (!other.statuses.has(s)) d.statusesMissing.push(`${k} ${s}`);
    for (const s of other.statuses) if (!op.statuses.has(s)) d.statusesExtra.push(`${k} ${s}`);
  }
  for (const k of b.ops.keys()) if (!a.ops.has(k)) d.opsExtra.push(k);
  return d;
}

function diffCell(d: Diff): string {
  const parts: string[] = [];
  const add = (n: number, what: string) => {
    if (n > 0) parts.push(`${what} ${n}`);
  };
  add(d.opsMissing.length, 'ops −');
  add(d.opsExtra.length, 'ops +');
  add(d.paramsMissing.length, 'params −');
  add(d.paramsExtra.length, 'params +');
  add(d.statusesMissing.length, 'statuses −');
  add(d.statusesExtra.length, 'statuses +');
  return parts.length === 0 ? 'exact' : parts.join(', ');
}

/** Query, header and cookie parameters of the source, counted once per operation. */
function sourceParams(f: Facts): { key: string; op: string }[] {
  const out: { key: string; op: string }[] = [];
  for (const [k, op] of f.ops) for (const p of op.params) if (!p.startsWith('path:')) out.push({ key: p, op: k });
  return out;
}

/** What `import-dropped` said was left out, by kind. */
function dropKind(message: string): string {
  if (/cookie parameter/.test(message)) return 'cookie parameters';
  if (/(query|header) parameter/.test(message)) return /: example /.test(message) ? 'examples' : 'parameters';
  if (/response header/.test(message)) return 'response headers';
  if (/the links of/.test(message)) return 'links';
  if (/callback/.test(message)) return 'callbacks';
  if (/the (default|[45]XX) response/i.test(message)) return 'default/range responses';
  if (/the [123]\d\d response /.test(message)) return 'second success statuses';
  if (/^info\./.test(message)) return 'info fields';
  if (/example/.test(message)) return 'examples';
  if (/request body|response body|error body/.test(message)) return 'bodies';
  if (/security scheme/.test(message)) return 'security schemes';
  if (/servers/.test(message)) return 'servers';
  if (/writeOnly/.test(message)) return 'writeOnly';
  return 'other';
}

interface Row {
  file: string;
  opsIn: number;
  resourceOps: number;
  customOps: number;
  schemasIn: number;
  resourcesOut: number;
  namesKept: string;
  paramsKept: string;
  dropped: string;
  roundTrip: string;
  tsp?: { roundTrip: string; opIds: string; schemas: string; properties: string; params: string } | string;
}

function pct(n: number, of: number): string {
  return of === 0 ? '—' : `${n}/${of} (${Math.round((n / of) * 100)} %)`;
}

/** The names the spec holds that come from the source: operation ids, resources, fields, event kinds, parameters. */
function namesKept(spec: SpecDocument, src: Facts, source: Json, renamed: number): string {
  const ops = spec.endpoints?.operations ?? {};
  let total = 0;
  let kept = 0;
  // An operation without an operationId in the source gets a made-up one: neither kept nor renamed.
  for (const [id, o] of Object.entries(ops)) {
    const source = src.ops.get(`${o.method} ${o.path}`);
    if (source?.id === undefined) continue;
    total++;
    if (source.id === id) kept++;
  }
  for (const r of Object.keys(spec.resources ?? {})) {
    total++;
    if (src.schemas.includes(r)) kept++;
  }
  const fieldNames = new Set<string>();
  const walkFields = (fields: unknown): void => {
    if (!isObject(fields)) return;
    for (const [k, f] of Object.entries(fields)) {
      fieldNames.add(k);
      if (isObject(f)) {
        walkFields(f.fields);
        if (isObject(f.items)) walkFields(f.items.fields);
      }
    }
  };
  for (const r of Object.values(spec.resources ?? {})) walkFields(r.fields);
  for (const o of Object.values(ops)) {
    walkFields(typeof o.request === 'object' ? o.request.fields : undefined);
    walkFields(o.response?.fields);
  }
  for (const k of fieldNames) {
    total++;
    if (src.properties.has(k)) kept++;
  }
  const hooks = Object.keys(isObject(source.webhooks) ? source.webhooks : {});
  for (const k of Object.keys(spec.events?.kinds ?? {})) {
    total++;
    if (hooks.includes(k)) kept++;
  }
  const paramNames = new Set(sourceParams(src).map((p) => p.key.slice(p.key.indexOf(':') + 1)));
  for (const o of Object.values(ops)) {
    for (const k of Object.keys(o.query ?? {})) {
      total++;
      if (paramNames.has(k)) kept++;
    }
    for (const k of Object.keys(o.headers ?? {})) {
      total++;
      if (paramNames.has(k.toLowerCase())) kept++;
    }
  }
  return `${pct(kept, total)}${renamed > 0 ? `, ${renamed} renamed` : ''}`;
}

/** Query and header parameters kept: declared by the operation, taken by its list action, or carried by another part. */
function paramsKept(spec: SpecDocument, src: Facts): string {
  const params = sourceParams(src);
  const ops = Object.values(spec.endpoints?.operations ?? {});
  const carried = new Set<string>();
  for (const s of Object.values(spec.authentication?.schemes ?? {}))
    if (s.type === 'api_key' && s.name !== undefined) carried.add(`${s.in ?? 'header'}:${s.in === 'query' ? s.name : s.name.toLowerCase()}`);
  if (spec.endpoints?.idempotency?.header !== undefined) carried.add(`header:${spec.endpoints.idempotency.header.toLowerCase()}`);
  let kept = 0;
  for (const p of params) {
    const [method, path] = p.op.split(' ');
    const op = ops.find((o) => o.method === method && o.path === path);
    const [where, name] = [p.key.slice(0, p.key.indexOf(':')), p.key.slice(p.key.indexOf(':') + 1)];
    const declared =
      op !== undefined &&
      ((where === 'query' && name in (op.query ?? {})) ||
        (where === 'header' && Object.keys(op.headers ?? {}).some((h) => h.toLowerCase() === name)) ||
        (op.action === 'list' && where === 'query' && (name === 'limit' || name === 'cursor' || name === 'sort' || (op.filter ?? []).includes(name))));
    if (declared || carried.has(p.key)) kept++;
  }
  return pct(kept, params.length);
}

function runTsp(file: string, source: Facts): Row['tsp'] {
  if (TSP_HOME === undefined) return undefined;
  const work = join(TSP_HOME, 'corpus', basename(file).replace(/\W/g, '_'));
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const bin = (name: string) => join(TSP_HOME, 'node_modules', '.bin', name);
  const convert = spawnSync(bin('tsp-openapi3'), ['--output-dir', work, file], { encoding: 'utf8', timeout: 120_000 });
  if (convert.status !== 0 || !existsSync(join(work, 'main.tsp')))
    return `tsp-openapi3 failed: ${(convert.stderr || convert.stdout).trim().split('\n')[0] ?? ''}`;
  const compile = spawnSync(
    bin('tsp'),
    ['compile', 'main.tsp', '--emit', '@typespec/openapi3', '--option', '@typespec/openapi3.output-file=openapi.json', '--output-dir', 'out'],
    { cwd: work, encoding: 'utf8', timeout: 120_000 },
  );
  const outFile = join(work, 'out', '@typespec', 'openapi3', 'openapi.json');
  if (!existsSync(outFile)) {
    const firstError = `${compile.stdout}\n${compile.stderr}`.split('\n').find((l) => /error/i.test(l)) ?? '';
    return `tsp compile failed: ${firstError.trim().slice(0, 120)}`;
  }
  const out = JSON.parse(readFileSync(outFile, 'utf8')) as Json;
  const back = facts(out);
  const d = diff(source, back);
  const srcIds = [...source.ops.values()].map((o) => o.id).filter((x): x is string => x !== undefined);
  const outIds = new Set([...back.ops.values()].map((o) => o.id));
  const srcParams = sourceParams(source);
  const paramsBack = srcParams.filter((p) => back.ops.get(p.op)?.params.has(p.key)).length;
  return {
    roundTrip: diffCell(d),
    opIds: pct(srcIds.filter((i) => outIds.has(i)).length, srcIds.length),
    schemas: pct(source.schemas.filter((s) => back.schemas.includes(s)).length, source.schemas.length),
    properties: pct([...source.properties].filter((p) => back.properties.has(p)).length, source.properties.size),
    params: pct(paramsBack, srcParams.length),
  };
}

async function measure(file: string): Promise<{ row: Row; details: string[] }> {
  const text = readFileSync(file, 'utf8');
  const source = (text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text)) as Json;
  const src = facts(source);
  const r = await importOpenApiFile(file, { specFile: `${basename(file)}.servicespec.yaml` });
  const spec = r.document ?? { servicespec: 1 };
  const ops = Object.values(spec.endpoints?.operations ?? {});
  const errors = r.compiled?.diagnostics.filter((d) => d.severity === 'error') ?? [];
  const dropped = new Map<string, number>();
  for (const d of r.diagnostics) if (d.code === 'import-dropped') dropped.set(dropKind(d.message), (dropped.get(dropKind(d.message)) ?? 0) + 1);
  const renamed = r.diagnostics.filter((d) => d.code === 'import-renamed').length;
  const details: string[] = [];
  let roundTrip = 'not written';
  if (r.compiled?.model && errors.length === 0) {
    const back = facts(exportOpenApi(r.compiled.model).document as Json);
    const d = diff(src, back);
    roundTrip = diffCell(d);
    for (const [what, list] of Object.entries(d)) for (const x of list as string[]) details.push(`${basename(file)}: ${what} ${x}`);
  } else if (errors.length > 0) roundTrip = `check: ${errors.length} errors`;
  const row: Row = {
    file: basename(file),
    opsIn: src.ops.size,
    resourceOps: ops.filter((o) => o.action !== 'custom').length,
    customOps: ops.filter((o) => o.action === 'custom').length,
    schemasIn: src.schemas.length,
    resourcesOut: Object.keys(spec.resources ?? {}).length,
    namesKept: namesKept(spec, src, source, renamed),
    paramsKept: paramsKept(spec, src),
    dropped:
      [...dropped]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || '—',
    roundTrip,
  };
  const tsp = runTsp(file, src);
  if (tsp !== undefined) row.tsp = tsp;
  return { row, details };
}

async function main(): Promise<void> {
  const files = readdirSync(DIR)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => join(DIR, f));
  const rows: Row[] = [];
  const details: string[] = [];
  for (const f of files) {
    const m = await measure(f);
    rows.push(m.row);
    details.push(...m.details);
  }
  const out: string[] = [];
  out.push(
    '| document | operations | resource actions | custom | schemas in | resources out | names kept | parameters kept | dropped, by kind | round trip (method, path, parameters, statuses) |',
  );
  out.push('|---|---:|---:|---:|---:|---:|---|---|---|---|');
  for (const r of rows)
    out.push(
      `| ${r.file} | ${r.opsIn} | ${r.resourceOps} | ${r.customOps} | ${r.schemasIn} | ${r.resourcesOut} | ${r.namesKept} | ${r.paramsKept} | ${r.dropped} | ${r.roundTrip} |`,
    );
  const ops = rows.reduce((n, r) => n + r.resourceOps + r.customOps, 0);
  const resourceOps = rows.reduce((n, r) => n + r.resourceOps, 0);
  out.push('', `Resource actions: ${pct(resourceOps, ops)} of the operations imported; custom: ${pct(ops - resourceOps, ops)}.`);
  if (rows.some((r) => r.tsp !== undefined)) {
    out.push(
      '',
      '| document | tsp-openapi3 → tsp compile: round trip | operation ids kept | schema names kept | property names kept | parameters kept |',
      '|---|---|---|---|---|---|',
    );
    for (const r of rows) {
      const t = r.tsp;
      if (typeof t === 'string' || t === undefined) out.push(`| ${r.file} | ${t ?? 'not run'} | | | | |`);
      else out.push(`| ${r.file} | ${t.roundTrip} | ${t.opIds} | ${t.schemas} | ${t.properties} | ${t.params} |`);
    }
  }
  if (details.length > 0 && process.env.IMPORT_CORPUS_DETAILS !== undefined)
    out.push('', 'Round-trip differences (servicespec):', '', ...details.map((d) => `- ${d}`));
  const text = `${out.join('\n')}\n`;
  if (process.env.IMPORT_CORPUS_OUT !== undefined) writeFileSync(process.env.IMPORT_CORPUS_OUT, text);
  process.stdout.write(text);
}

await main();
