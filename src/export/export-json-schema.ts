import { getListItemSchema, getMergePatchSchema, getRequestSchema, getResourceSchema, type SchemaOptions, type SchemaView } from '../model/model-schemas.js';
import { getResource } from '../model/model-lookup.js';
import { isMergePatch } from '../model/model-defaults.js';
import type { ServiceModel } from '../model/model-types.js';
import { diagnose, getOperationRequestName, NameAllocator, NamedShapeComponents, type ExportResult, type JsonObject } from './export-shared.js';

// JSON Schema (draft 2020-12) for every resource: the response view and the create, replace and update request
// views of the operations the spec has, an operation's own subset (request_fields) and a view open to unknown members
// (unknown_fields: ignore): the same schemas the runtime validates with (model-schemas.ts), with descriptions,
// defaults and examples.
// Each schema stands alone (a reference field is written as the schema of the identifier it holds); a named shape
// (docs/format.md, "Named shapes") is written once under `$defs` and referred to at each use, in the document and in
// each schema that uses it (its own `$defs`).

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The views exported per resource, with the suffix of their names (`Order`, `OrderCreate`, …). */
export const JSON_SCHEMA_VIEWS: readonly { view: SchemaView; suffix: string; title: string }[] = [
  { view: 'response', suffix: '', title: 'as the service returns it' },
  { view: 'create', suffix: 'Create', title: 'the body of a create request' },
  { view: 'replace', suffix: 'Replace', title: 'the body of a replace request' },
  { view: 'update', suffix: 'Update', title: 'the body of an update request (every field optional)' },
];

export interface JsonSchemaFile {
  /** The schema's name: the resource name plus the view's suffix (`TaskCreateOpen` open to unknown members), or an operation's request (`SignUpRequest`). */
  name: string;
  resource: string;
  view: SchemaView;
  /** The operation whose own subset of fields (`request_fields`) this body is, or whose list's objects (`answer_fields`). */
  operation?: string;
  schema: JsonObject;
}

export interface JsonSchemaExport extends ExportResult {
  /** The same schemas one by one, each a complete document. */
  files: JsonSchemaFile[];
}

/** One document with every schema under `$defs`, and the schemas one by one. */
export function exportJsonSchemas(model: ServiceModel): JsonSchemaExport {
  const names = new NameAllocator();
  const files: JsonSchemaFile[] = [];
  const shapes = new NamedShapeComponents('#/$defs/', (s) => s, false);
  const opts: SchemaOptions = { annotations: true, namedShape: (use) => shapes.refer(use) };
  // A request view only where an operation takes that body: no OrderReplace for a spec with no replace of Order.
  const served = new Set((model.endpoints?.operations ?? []).map((o) => `${o.resource ?? ''} ${o.action}`));
  // Each schema stands alone: the dialect, a title, the schema's own description, then the rest.
  const add = (name: string, resource: string, view: SchemaView, title: string, s: JsonObject, operation?: string) => {
    const { description, ...rest } = s;
    const schema: JsonObject = { $schema: JSON_SCHEMA_DIALECT, title };
    if (description !== undefined) schema.description = description;
    Object.assign(schema, rest);
    files.push({ name, resource, view, ...(operation !== undefined ? { operation } : {}), schema });
  };
  for (const r of model.resources) {
    for (const v of JSON_SCHEMA_VIEWS) {
      if (v.view !== 'response' && !served.has(`${r.name} ${v.view}`)) continue;
      add(names.allocate(`${r.name}${v.suffix}`), r.name, v.view, `${r.name}: ${v.title}`, getResourceSchema(model, r, v.view, opts) as JsonObject);
    }
  }
  // An operation whose body is not its resource's view: the schema the runtime validates its requests with, named as
  // the OpenAPI export names its component: its own subset (request_fields) `SignUpRequest`, a view open to unknown
  // members (unknown_fields: ignore) `TaskCreateOpen`, once per view.
  const open = new Set<string>();
  for (const o of model.endpoints?.operations ?? []) {
    if ((o.action !== 'create' && o.action !== 'replace' && o.action !== 'update') || typeof o.resource !== 'string') continue;
    const r = getResource(model, o.resource);
    if (!r) continue;
    if (o.action === 'update' && isMergePatch(o)) {
      // A JSON merge patch (getMergePatchSchema): \`NoteMergePatch\`, or the operation's own with request_fields.
      const patch = getMergePatchSchema(model, r, o, opts) as JsonObject;
      const name = o.requestFields !== undefined ? getOperationRequestName(o.id) : `${r.name}MergePatch`;
      if (open.has(name)) continue;
      open.add(name);
      add(
        names.allocate(name),
        r.name,
        'update',
        `${r.name}: the body of a ${o.id} request, a JSON merge patch`,
        patch,
        o.requestFields !== undefined ? o.id : undefined,
      );
      continue;
    }
    const own = getRequestSchema(model, r, o, o.action, opts) as JsonObject;
    if (JSON.stringify(own) === JSON.stringify(getResourceSchema(model, r, o.action, opts))) continue;
    const suffix = JSON_SCHEMA_VIEWS.find((v) => v.view === o.action)!.suffix;
    if (o.requestFields !== undefined)
      add(names.allocate(getOperationRequestName(o.id)), r.name, o.action, `${r.name}: the body of a ${o.id} request`, own, o.id);
    else if (!open.has(`${r.name}${suffix}`)) {
      open.add(`${r.name}${suffix}`);
      add(names.allocate(`${r.name}${suffix}Open`), r.name, o.action, `${r.name}: the body of a ${o.action} request taking unknown members (dropped)`, own);
    }
  }
  // A list answering some of its resource's fields (answer_fields): its objects' schema, named as the OpenAPI export
  // names its component, \`ArticleListItem\`, once per distinct set of fields.
  const items = new Set<string>();
  for (const o of model.endpoints?.operations ?? []) {
    if (o.action !== 'list' || o.answerFields === undefined || typeof o.resource !== 'string') continue;
    const r = getResource(model, o.resource);
    const key = `${o.resource}\u0000${JSON.stringify([...o.answerFields].sort())}`;
    if (!r || items.has(key)) continue;
    items.add(key);
    add(
      names.allocate(`${r.name}ListItem`),
      r.name,
      'response',
      `${r.name}: an object of the ${o.id} list (${o.answerFields.join(', ')})`,
      getListItemSchema(model, r, o, opts) as JsonObject,
      o.id,
    );
  }
  // The shapes, named after the views (a shape named as a resource's view gets a number), each schema holding those it uses.
  const defs: Record<string, JsonObject> = {};
  shapes.publish(
    files.map((f) => f.schema),
    names,
    defs,
  );
  for (const f of files) {
    const used = usedDefs(f.schema, defs);
    if (used.length > 0) f.schema.$defs = Object.fromEntries(used.map((n) => [n, defs[n]!]));
  }
  const document: JsonObject = {
    $schema: JSON_SCHEMA_DIALECT,
    title: `${model.purpose?.name ?? 'Service'} resources`,
    description:
      'One schema per resource and view, under $defs: the resource as returned, the bodies of the create, replace and update requests its operations take, the body of each operation taking its own subset of fields (OperationRequest), each request view open to unknown members (ResourceViewOpen), the JSON merge patch of each update taking one (ResourceMergePatch), the objects of each list answering some of the fields (ResourceListItem), and each named shape they use, referred to at each use (Shape; ShapeCreate where its request view differs).',
    $defs: {
      ...Object.fromEntries(
        files.map((f) => {
          const { $schema: _dialect, $defs: _own, ...rest } = f.schema;
          return [f.name, rest];
        }),
      ),
      ...defs,
    },
  };
  const diagnostics =
    model.resources.length === 0
      ? [
          diagnose(
            model,
            'export-not-shown',
            { item: 'resources', target: 'JSON Schema', consequence: '$defs is empty' },
            model.present.resources ? '/resources' : undefined,
          ),
        ]
      : [];
  return { document, files, diagnostics };
}

/** The names under `defs` a schema refers to (`#/$defs/Address`), and those they refer to in turn, in the order met. */
function usedDefs(schema: JsonObject, defs: Record<string, JsonObject>): string[] {
  const out: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const x of node) visit(x);
    else if (typeof node === 'object' && node !== null)
      for (const [k, v] of Object.entries(node)) {
        if (k !== '$ref' || typeof v !== 'string') visit(v);
        else if (v.startsWith('#/$defs/')) {
          const name = v.slice('#/$defs/'.length);
          if (defs[name] !== undefined && !out.includes(name)) {
            out.push(name);
            visit(defs[name]);
          }
        }
      }
  };
  visit(schema);
  return out;
}
